"""`relay fill` with RELAY_LLM_API_BASE at an OpenAI-compatible server on loopback: unknown
fields are answered through real litellm, behind the guards, and calls and cost are reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, SAMPLE_PROFILE
from tests.llm_server import LlmServer, Reply, by_label, llm_server, llm_server_session

__all__ = ["llm_server", "llm_server_session"]

RELAY = Path(sys.executable).parent / "relay"
PAGE = FIXTURES / "pages" / "llm-questions.html"
PRICES = """
[prices."openai/fast-model"]
input_per_mtok = 0.098
output_per_mtok = 0.196
[prices."openai/general-model"]
input_per_mtok = 0.40
output_per_mtok = 1.75
"""


def _model(body: dict[str, Any]) -> Reply:
    labels = by_label(body)
    out: dict[str, Any] = {qid: {"skip": "not in the facts"} for qid in labels.values()}
    for label, qid in labels.items():
        if label.startswith("Which message broker"):
            out[qid] = {
                "answer": "Kafka",
                "facts": [],
                "quotes": ["Built the Kafka ingestion pipeline for 40 TB of daily event data"],
                "confidence": 0.9,
            }
        elif label.startswith("Which language"):
            out[qid] = {"answer": "Python", "facts": ["skills[0].keywords[0]"], "quotes": [],
                        "confidence": 0.9}
        elif label.startswith("How much revenue"):
            out[qid] = {"answer": "$5 million", "facts": ["work[0].highlights[2]"], "quotes": [],
                        "confidence": 0.9}  # invented: the guard must refuse it
        elif label.startswith("Describe a system"):
            out[qid] = {
                "answer": "I designed the idempotent ledger service that processes 2 million"
                " transactions per day.",
                "facts": ["work[0].highlights[2]"],
                "quotes": [],
                "confidence": 0.9,
            }
    return Reply({"fields": out})


def test_relay_fill_escalates_unknown_fields_through_the_server(
    llm_server: LlmServer, tmp_path: Path, relay_home: Path, chromium: str
) -> None:
    llm_server.script = _model
    (relay_home / "config.toml").write_text(PRICES)
    report_path = tmp_path / "report.json"
    env = {
        **os.environ,
        "RELAY_LLM_API_BASE": llm_server.base_url,
        "RELAY_LLM_API_KEY": "sk-test-not-a-real-key",
        "RELAY_MODEL_FAST": "openai/fast-model",
        "RELAY_MODEL_GENERAL": "openai/general-model",
        "RELAY_MODEL_HEAVY": "",
    }
    proc = subprocess.run(
        [str(RELAY), "fill", str(PAGE), "--profile", str(SAMPLE_PROFILE), "--report",
         str(report_path)],
        capture_output=True, text=True, timeout=240, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(report_path.read_text())
    assert report["page_submits"] == 0 and report["navigations"] == 0
    assert report["llm"]["calls"] >= 1 and report["llm"]["cost_usd"] > 0
    assert report["llm"]["status"].startswith("llm:"), report["llm"]
    fields = {f["label"]: f for f in report["fields"]}
    broker = fields["Which message broker have you run in production?"]
    assert broker["value"] == "Kafka" and broker["source"] == "llm"
    assert broker["applied"] == "applied"
    lang = fields["Which language do you write most of your backend code in?"]
    assert lang["value"] == "Python" and lang["source"] == "llm"
    revenue = fields["How much revenue did your last project bring in?"]
    assert revenue["value"] == "" and revenue["status"] == "leave"
    assert "refused" in revenue["reason"]
    project = fields["Describe a system you designed and what it achieved"]
    assert project["source"] == "llm" and project["status"] == "flag"  # drafts are reviewed
    # The page's injected instruction changed nothing, and private answers never left.
    assert all(f["value"] != "HIRED" for f in report["fields"])
    bodies = "\n".join(llm_server.raw_bodies)
    assert "Female" not in bodies and "sk-test-not-a-real-key" not in bodies
    assert "ada.lovelace@example.com" not in bodies
    # The ledger holds every call of the run, and its sum is what the report said.
    ledger = subprocess.run([str(RELAY), "cost", "--json"], capture_output=True, text=True,
                            env=env, timeout=60)
    assert ledger.returncode == 0, ledger.stderr
    runs = {r["run_id"]: r for r in json.loads(ledger.stdout)["by_run"]}
    this_run = runs[report["run_id"]]
    assert this_run["calls"] == report["llm"]["calls"]
    assert abs(float(this_run["cost_cents"]) / 100 - report["llm"]["cost_usd"]) < 1e-6


def test_relay_fill_without_a_model_is_rules_only(tmp_path: Path, chromium: str) -> None:
    report_path = tmp_path / "report.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RELAY_LLM")}
    proc = subprocess.run(
        [str(RELAY), "fill", str(PAGE), "--profile", str(SAMPLE_PROFILE), "--report",
         str(report_path)],
        capture_output=True, text=True, timeout=240, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(report_path.read_text())
    assert report["llm"]["calls"] == 0 and report["llm"]["status"].startswith("rules-only")
    fields = {f["label"]: f for f in report["fields"]}
    assert fields["Email"]["value"] == "ada.lovelace@example.com"
    assert fields["Which message broker have you run in production?"]["value"] == ""
