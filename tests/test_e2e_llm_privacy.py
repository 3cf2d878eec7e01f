"""A model request never carries the application form: not its labels, not its options, not the
person's self-identification answers, and no mark where something was taken out.

The page puts its self-identification questions in its first lines, with the person's answers
chosen, and its job posting after the form; `relay fill` drafts an open question and maps an
unknown one through the recording test server, and every recorded request is read."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, SAMPLE_PROFILE
from tests.llm_server import LlmServer, Reply, llm_server, llm_server_session, question_ids

__all__ = ["llm_server", "llm_server_session"]

RELAY = Path(sys.executable).parent / "relay"
PAGE = FIXTURES / "pages" / "self-id-first.html"
OPTION_TEXTS = [
    "Male", "Female", "Non-binary", "I decline to self-identify", "Asian",
    "Black or African American", "Hispanic or Latino", "White", "Two or More Races",
    "I am a protected veteran", "I am not a protected veteran", "Yes, I have a disability",
    "No, I do not have a disability",
]
LABELS = ["Gender", "Race / ethnicity", "Veteran status", "Disability"]
MARKS = re.compile(r"\[(id |)removed\]|\[email\]|\[phone\]|removed\]", re.IGNORECASE)


def _profile(tmp: Path) -> Path:
    raw = json.loads(SAMPLE_PROFILE.read_text())
    raw["application"]["eeo"] = {
        "gender": "Male",
        "race": "Black or African American",
        "hispanicOrLatino": "No",
        "veteranStatus": "I am not a protected veteran",
        "disabilityStatus": "No, I do not have a disability",
    }
    for name in raw["application"].get("documents", {}).values():
        shutil.copy(SAMPLE_PROFILE.parent / name, tmp / name)
    path = tmp / "profile.json"
    path.write_text(json.dumps(raw))
    return path


def _skip_everything(body: dict[str, Any]) -> Reply:
    return Reply({"fields": {qid: {"skip": "not in the facts"} for qid in question_ids(body)}})


def test_requests_hold_the_posting_but_nothing_of_the_form(
    llm_server: LlmServer, tmp_path: Path, relay_home: Path, chromium: str
) -> None:
    llm_server.script = _skip_everything
    env = {
        **os.environ,
        "RELAY_LLM_API_BASE": llm_server.base_url,
        "RELAY_LLM_API_KEY": "sk-test-not-a-real-key",
        "RELAY_MODEL_FAST": "openai/fast-model",
        "RELAY_MODEL_GENERAL": "openai/general-model",
        "RELAY_MODEL_HEAVY": "",
    }
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [str(RELAY), "fill", str(PAGE), "--profile", str(_profile(tmp_path)), "--report",
         str(report)],
        capture_output=True, text=True, timeout=240, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(report.read_text())["page_submits"] == 0
    purposes = {r["response_format"]["json_schema"]["name"] for r in llm_server.requests}
    assert purposes == {"relay_mapping", "relay_drafting"}, purposes
    drafting = next(
        r for r in llm_server.requests
        if r["response_format"]["json_schema"]["name"] == "relay_drafting"
    )
    job_text = json.loads(drafting["messages"][-1]["content"])["page"]["job"]["text"]
    assert "routing platform" in job_text  # the posting itself is sent
    for body in llm_server.raw_bodies:
        text = json.loads(body)["messages"][-1]["content"]
        for option in OPTION_TEXTS:
            assert not re.search(rf"(?<!\w){re.escape(option)}(?!\w)", text), option
        for label in LABELS:
            assert label not in text, label
        assert not MARKS.search(text), MARKS.search(text)
