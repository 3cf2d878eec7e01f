"""Streamed model answers: when the first value lands, and when the model's answers do.

A scripted OpenAI-compatible server on loopback answers every model request after DELAY seconds
(default 2). Each Fill is timed in the page: the first value's input event, then each field the
model answered. The first Fill meets a cold bridge (started by that Fill, litellm not imported);
the later ones a warm one. Each Fill's form words its questions afresh, so no cached answer
helps. Aims (issue 14): first value ≤300 ms whatever the delay, cold included; the model's last
answer ≈ its latency + ≤200 ms per request (this form needs two in a row: fields, then a draft).
Prints figures; asserts nothing.
Run: .venv/bin/python bench/stream_speed.py [DELAY_S] [FILLS]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.driver.session import relay_browser
from bridge.driver.static_server import StaticServer
from tests.llm_server import LlmServer, Reply, by_label

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "tests" / "fixtures" / "pages" / "llm-questions.html"
PROFILE = REPO / "demo" / "profile" / "sample.json"
MODEL_FIELDS = ["broker", "lang", "project"]

# Epoch milliseconds of each field's first input event, in the page.
RECORDER = """<script>
  window.__landed = {};
  document.addEventListener("input", (e) => {
    const id = e.target.id;
    const at = performance.timeOrigin + performance.now();
    if (id && !(id in window.__landed)) window.__landed[id] = at;
  }, true);
</script>"""


def model(delay_s: float) -> Any:
    def reply(body: dict[str, Any]) -> Reply:
        out: dict[str, Any] = {}
        for label, qid in by_label(body).items():
            if "message broker" in label:
                out[qid] = {"answer": "Kafka", "facts": ["work[1].highlights[0]"], "quotes": [],
                            "confidence": 0.9}
            elif "language" in label:
                out[qid] = {"answer": "Python", "facts": ["skills[0].keywords[0]"], "quotes": [],
                            "confidence": 0.9}
            elif "Describe a system" in label:
                out[qid] = {"answer": "I designed the idempotent ledger service that processes"
                            " 2 million transactions per day.", "facts": ["work[0].highlights[2]"],
                            "quotes": [], "confidence": 0.9}
            else:
                out[qid] = {"skip": "not in the facts"}
        return Reply({"fields": out}, delay_s=delay_s)

    return reply


def page_for(site: Path, n: int) -> str:
    """The fixture with this Fill's own wording (a cached answer would not wait) and a recorder."""
    html = PAGE.read_text(encoding="utf-8").replace("<head>", "<head>" + RECORDER, 1)
    for question in ("have you run in production?", "most of your backend code in?",
                     "and what it achieved"):
        html = html.replace(question, f"{question} ({n})")
    name = f"stream-{n}.html"
    (site / name).write_text(html, encoding="utf-8")
    shared = site / "_shared"
    if not shared.exists():
        shared.symlink_to(PAGE.parent / "_shared")
    return name


def main() -> None:
    delay_s = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    fills = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    server = LlmServer()
    server.start()
    server.script = model(delay_s)
    os.environ.update({
        "RELAY_LLM_API_BASE": server.base_url, "RELAY_LLM_API_KEY": "sk-bench-not-a-real-key",
        "RELAY_MODEL_FAST": "openai/fast-model", "RELAY_MODEL_GENERAL": "openai/general-model",
        "RELAY_MODEL_HEAVY": "",
    })
    print(f"model answers after {delay_s:.1f} s; times from pressing Fill, in ms")
    print(f"{'fill':<8}{'first value':>12}{'first model answer':>20}{'last model answer':>19}"
          f"{'last - 2 delays':>17}")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            site = Path(scratch) / "site"
            site.mkdir()
            with StaticServer(site) as static, relay_browser(
                PROFILE, home=Path(scratch) / "home"
            ) as browser:
                for n in range(1, fills + 1):
                    page = browser.open(static.url(page_for(site, n)))
                    started = time.time() * 1000
                    outcome = browser.fill(page)
                    landed: dict[str, float] = page.evaluate("window.__landed")
                    rules = [t for k, t in landed.items() if k not in MODEL_FIELDS]
                    answers = [landed[k] for k in MODEL_FIELDS if k in landed]
                    if not outcome.report.ok or not rules or not answers:
                        print(f"{n:<8} incomplete: {outcome.report.error or landed}")
                        continue
                    last = max(answers) - started
                    print(f"{'cold' if n == 1 else f'warm {n - 1}':<8}"
                          f"{min(rules) - started:>12.0f}{min(answers) - started:>20.0f}"
                          f"{last:>19.0f}{last - 2000 * delay_s:>17.0f}")
                    page.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
