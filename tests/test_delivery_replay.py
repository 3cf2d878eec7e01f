"""Deliveries survive restarts: what the extension never acknowledged is replayed by the next
bridge process, once, and a retried request returns the first plan without a second run."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.bridge_process import BridgeProcess
from tests.conftest import SAMPLE_PROFILE

FIELDS = [
    {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"},
    {"id": "f2", "widget": "email", "type": "email", "name": "email", "label": "Email"},
    {"id": "f3", "widget": "text", "name": "favourite_colour", "label": "Favourite colour"},
]
PLAN = {"url": "http://127.0.0.1/apply", "title": "Apply", "frames": [{"fields": FIELDS}]}
RELAY = Path(sys.executable).parent / "relay"


def events_after_hello(
    bridge: BridgeProcess, wait_s: float = 3.0, expect: int = 0
) -> list[dict[str, Any]]:
    """Say hello, then collect replay events until a ping's reply comes back after them.

    Replays are sent by the warm-up, off the request path: wait `wait_s`, and on a slow machine
    keep asking (up to a minute) until `expect` events have come, then once more for extras."""
    hello = bridge.request("hello", {"protocol": "1.0"}, rid="h")
    assert hello["ok"], hello
    time.sleep(wait_s)
    events: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    rounds = 0
    while True:
        rounds += 1
        bridge.send({"v": 1, "id": f"p{rounds}", "type": "ping", "payload": {}})
        while True:
            frame = bridge.receive()
            if frame.get("type") == "event":
                events.append(frame)
                continue
            assert frame["id"] == f"p{rounds}"
            break
        if len(events) >= expect and (rounds > 1 or not expect):
            return events
        if time.monotonic() > deadline:
            return events
        time.sleep(0.5)


def history(relay_home: Path) -> list[dict[str, Any]]:
    out = subprocess.run([str(RELAY), "history", "--json"], capture_output=True, text=True,
                         timeout=60, check=True)
    runs: list[dict[str, Any]] = json.loads(out.stdout)["runs"]
    return runs


def test_unacknowledged_deliveries_are_replayed_once(relay_home: Path) -> None:
    env = {"RELAY_PROFILE": str(SAMPLE_PROFILE)}
    first = BridgeProcess(env=env)
    plan = first.request("fill.plan", PLAN, rid="r-1")["result"]
    seqs = [d["seq"] for d in plan["decisions"] if d["seq"] is not None]
    assert seqs == [1, 2]  # the colour is unknown: nothing to deliver
    first.close()  # the service worker went away before applying anything

    second = BridgeProcess(env=env)
    events = events_after_hello(second, expect=2)
    replayed = [(e["event"]["run_id"], e["event"]["seq"]) for e in events]
    assert replayed == [(plan["run_id"], 1), (plan["run_id"], 2)]
    assert [e["seq"] for e in events] == [1, 2]  # event numbering per connection
    assert events[0]["event"]["kind"] == "fill.replay"
    assert events[0]["event"]["decision"]["value"] == "Ada"
    ack = second.request("fill.ack", {"run_id": plan["run_id"], "up_to_seq": 2}, rid="a")
    assert ack["result"] == {"acked": 2}
    second.close()

    third = BridgeProcess(env=env)
    assert events_after_hello(third, wait_s=1.5) == []
    third.close()


def test_applied_report_acknowledges_and_retries_write_nothing_twice(relay_home: Path) -> None:
    env = {"RELAY_PROFILE": str(SAMPLE_PROFILE)}
    bridge = BridgeProcess(env=env)
    plan = bridge.request("fill.plan", PLAN, rid="r-7")["result"]
    again = bridge.request("fill.plan", PLAN, rid="r-7")["result"]
    assert again == plan  # a retried request id gets the first plan back
    report = {
        "run_id": plan["run_id"],
        "up_to_seq": 2,
        "results": [
            {"field_id": "f1", "frame": "0", "status": "applied"},
            {"field_id": "f2", "frame": "0", "status": "applied"},
        ],
    }
    assert bridge.request("fill.applied", report, rid="r-8")["result"]["recorded"] == 2
    assert bridge.request("fill.applied", report, rid="r-8")["result"]["recorded"] == 2
    bridge.close()
    runs = history(relay_home)
    assert [r["run_id"] for r in runs] == [plan["run_id"]]
    assert runs[0]["status"] == "applied"
    audit = subprocess.run([str(RELAY), "audit", "--json"], capture_output=True, text=True,
                           timeout=60, check=True)
    actions = [e["action"] for e in json.loads(audit.stdout)["entries"]]
    assert actions.count("fill.plan") == 1 and actions.count("fill.applied") == 1

    later = BridgeProcess(env=env)
    assert events_after_hello(later, wait_s=1.5) == []
    later.close()


def test_a_streamed_plan_is_stored_with_its_model_question(
    relay_home: Path, monkeypatch: Any
) -> None:
    """The bridge dies the moment the streamed plan is stored: the model's question was stored
    in the same transaction, so the next bridge asks it (nothing left waiting forever)."""
    from bridge.forms import FillRequest
    from bridge.model_stream import ModelStream
    from bridge.runtime import Runtime
    from bridge.store import Store

    monkeypatch.setenv("RELAY_MODEL_FAST", "openai/fast-model")
    monkeypatch.setenv("RELAY_LLM_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("RELAY_LLM_API_BASE", "http://127.0.0.1:9/v1")  # never reached

    class Crash(BaseException):
        """The process ending right after the plan's transaction committed."""

    real = Store.record_plan

    def record_then_die(self: Store, *args: Any, **kwargs: Any) -> Any:
        real(self, *args, **kwargs)
        raise Crash

    monkeypatch.setattr(Store, "record_plan", record_then_die)
    monkeypatch.setattr(ModelStream, "_run", lambda self, name, job: 0)  # no model thread
    runtime = Runtime(relay_home, SAMPLE_PROFILE)
    runtime.emit = lambda event: True
    request = FillRequest.model_validate({**PLAN, "stream": True})
    try:
        runtime.plan_fill(request, "r-crash")
    except Crash:
        pass
    runtime.close()
    with Store.open(relay_home) as store:
        (run,) = store.history()
        jobs = store.model_jobs()
    assert [run_id for run_id, _, _ in jobs] == [run["run_id"]], jobs
    assert "favourite_colour" in jobs[0][2]
