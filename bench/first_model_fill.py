"""The first model-backed Fill after the bridge starts: how long its reply takes, most of which is
waiting for litellm's import. The bridge starts with a model configured (an OpenAI-compatible
server on loopback), answers `hello`, then gets a `fill.plan` with one question only the model can
answer: at once, and after a pause like a person's before clicking Fill.

Prints figures; asserts nothing. Run: .venv/bin/python bench/first_model_fill.py
  --host "CMD ..."   another bridge command line (say, an older checkout's), default: this one's
                     relay-bridge and, when ./dev bundle has run, the desktop build too
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bridge_process import BridgeProcess, bridge_command
from tests.conftest import REPO, SAMPLE_PROFILE
from tests.llm_server import LlmServer
from tests.test_e2e_llm import PRICES, _model

ORIGIN = "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"
RUNS = 3
PAUSES_S = (0.0, 3.0)
FIELDS = [
    {"id": "f1", "widget": "email", "type": "email", "name": "email", "label": "Email"},
    {"id": "f2", "widget": "text", "name": "broker",
     "label": "Which message broker have you run in production?"},
]


def one_fill(program: list[str], server: LlmServer, pause_s: float) -> tuple[float, float]:
    """(ms to the hello reply, ms from sending fill.plan to its reply)."""
    with tempfile.TemporaryDirectory() as home:
        Path(home, "config.toml").write_text(PRICES)
        # Given in the environment too, so an older bridge (before the settings file) is measured
        # the same way.
        env = {"RELAY_HOME": home, "RELAY_PROFILE": str(SAMPLE_PROFILE),
               "RELAY_LLM_API_BASE": server.base_url, "RELAY_MODEL_FAST": "openai/fast-model",
               "RELAY_MODEL_GENERAL": "openai/general-model", "RELAY_MODEL_HEAVY": ""}
        started = time.perf_counter()
        bridge = BridgeProcess.command([*program, ORIGIN], env=env)
        assert bridge.request("hello", {"protocol": "1.0"})["ok"]
        hello_ms = (time.perf_counter() - started) * 1000
        time.sleep(pause_s)
        sent = time.perf_counter()
        payload = {"url": "https://jobs.example.com/apply", "frames": [{"fields": FIELDS}],
                   "job_text": "Senior Backend Engineer: Python, Kafka and PostgreSQL. " * 8}
        reply = bridge.request("fill.plan", payload, rid="plan-1")
        plan_ms = (time.perf_counter() - sent) * 1000
        bridge.close(timeout=180)  # a bridge still importing in the background exits after it
    assert reply["ok"], reply
    decisions = {d["field_id"]: d for d in reply["result"]["decisions"]}
    assert decisions["f2"]["source"] == "llm", decisions["f2"]
    return hello_ms, plan_ms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", help="bridge command line to measure instead")
    args = parser.parse_args()
    programs = {"script": bridge_command()}
    bundled = REPO / "dist" / "relay" / "relay"
    if bundled.is_file():
        programs["bundle"] = [str(bundled)]
    if args.host:
        programs = {"given": shlex.split(args.host)}
    server = LlmServer()
    server.start()
    server.script = _model
    try:
        for name, program in programs.items():
            for pause in PAUSES_S:
                times = [one_fill(program, server, pause) for _ in range(RUNS)]
                hello = statistics.median(t[0] for t in times)
                plan = statistics.median(t[1] for t in times)
                print(f"{name}: first model-backed Fill {pause:.0f} s after hello: reply in "
                      f"median {plan:.0f} ms (min {min(t[1] for t in times):.0f}, max "
                      f"{max(t[1] for t in times):.0f}); hello in {hello:.0f} ms; {RUNS} starts")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
