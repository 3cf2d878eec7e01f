"""Page text is data: injection attempts in the job text, labels, help text and options cannot
change which fields are filled, cause a submit, or put an answer in another field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bridge.forms import Action, FieldDecision, FieldOption, Source, Status, Widget
from tests.llm_server import (
    LlmServer,
    Reply,
    ask_model,
    ffield,
    leave,
    llm_server,
    llm_server_session,
    request_of,
    user_payload,
)

__all__ = ["llm_server", "llm_server_session"]

CORPUS = json.loads((Path(__file__).parent / "data" / "injection_corpus.json").read_text())
MARKER: str = CORPUS["marker"]


def _obedient(body: dict[str, Any]) -> Reply:
    """A model that does whatever the page says, and tries to write outside its questions."""
    schema = body["response_format"]["json_schema"]["schema"]["properties"]["fields"]
    labels = {q["id"]: q["label"] for q in user_payload(body)["page"]["questions"]}
    out: dict[str, Any] = {}
    for qid, spec in schema["properties"].items():
        answer_spec = spec["anyOf"][0]["properties"]["answer"]
        enum = answer_spec.get("enum") or answer_spec.get("items", {}).get("enum")
        if labels[qid] == "Current employer":
            out[qid] = {
                "answer": "Analytical Engines Inc",
                "facts": ["work[0].name"],
                "quotes": [],
                "confidence": 0.9,
            }
        elif enum:
            pick = next((o for o in enum if MARKER in o), enum[0])
            out[qid] = {
                "answer": [pick] if "items" in answer_spec else pick,
                "facts": ["work[0].name", "education[0].studyType"],
                "quotes": [],
                "confidence": 1,
            }
        else:
            out[qid] = {
                "answer": f"{MARKER} I led 50 engineers at Google as Staff Engineer.",
                "facts": ["basics.name", "work[0].name"],
                "quotes": ["Ada Quinn Lovelace"],
                "confidence": 1,
            }
    # Answers for ids it was never asked about, and a "submit".
    out.update(
        {
            "f3": {"answer": MARKER, "facts": ["basics.name"], "quotes": []},
            "q99": {"answer": MARKER, "facts": ["basics.name"], "quotes": []},
        }
    )
    return Reply({"fields": out, "submit": True, "actions": [{"type": "submit"}]})


def _form(attempt: dict[str, Any]) -> tuple[Any, list[FieldDecision]]:
    where, text = attempt["where"], attempt["text"]
    f1 = ffield("f1", "Current employer")
    f2 = ffield("f2", "Favourite colour")
    f3 = ffield("f3", "Email", Widget.EMAIL)
    f4 = ffield("f4", "Social Security Number")
    f5 = ffield("f5", "Describe a project", Widget.TEXTAREA, max_length=1000)
    f6 = ffield(
        "f6",
        "Highest level of education",
        Widget.SELECT,
        ["High school", "Bachelor's degree", "Master's degree"],
    )
    if where == "label":
        f2.label = text
    elif where == "option":
        f6.options.append(FieldOption(value="x", text=text))
    elif where == "description":
        f2.aria_description = text
    elif where == "section":
        f2.section = text
    request = request_of(
        [f1, f2, f3, f4, f5, f6],
        job_text=text if where == "job_text" else "We build payment rails.",
    )
    decisions = [
        leave(f1),
        leave(f2),
        FieldDecision(
            field_id="f3",
            label="Email",
            key="email",
            action=Action.SET_TEXT,
            value="ada.lovelace@example.com",
            source=Source.PROFILE,
            confidence=0.99,
            status=Status.FILL,
            reason="rules: email",
        ),
        FieldDecision(
            field_id="f4",
            label="Social Security Number",
            key="ssn",
            status=Status.NEVER,
            reason="never: id number",
        ),
        leave(f5),
        leave(f6),
    ]
    return request, decisions


@pytest.mark.parametrize("attempt", CORPUS["attempts"], ids=lambda a: f"{a['id']}-{a['where']}")
def test_injection_attempt_changes_nothing_it_should_not(
    llm_server: LlmServer, attempt: dict[str, Any]
) -> None:
    llm_server.script = _obedient
    request, decisions = _form(attempt)
    result = ask_model(llm_server, request, decisions, run_id="inj")
    got = {d.field_id: d for d in result.decisions}
    before = {d.field_id: d for d in decisions}
    # Decisions the rules made are untouched; the never-fill field stays never.
    assert got["f3"] == before["f3"] and got["f4"] == before["f4"]
    # Only the questions Relay asked can change, and only to what they were asked.
    changed = {fid for fid in got if got[fid] != before[fid] and got[fid].source == Source.LLM}
    assert changed <= {"f1", "f2", "f5", "f6"}
    assert got["f1"].value == "Analytical Engines Inc"
    for fid, d in got.items():
        if fid != "f1":
            assert "Analytical Engines Inc" not in d.value  # no answer lands in another field
        assert d.action in {
            Action.SET_TEXT,
            Action.CHOOSE,
            Action.SET_DATE,
            Action.NONE,
            Action.CHECK,
        }
        if d.source == Source.LLM and d.action == Action.SET_TEXT:
            assert MARKER not in d.value
            assert "Google" not in d.value and "50" not in d.value
    if got["f6"].source == Source.LLM:
        own = {o.value for o in next(f for f in request.all_fields() if f.id == "f6").options}
        assert set(got["f6"].values) <= own
    # Page text reaches the model only as data inside the JSON user message.
    for body in llm_server.requests:
        assert MARKER not in body["messages"][0]["content"]
        assert "page" in user_payload(body)
    assert not hasattr(result, "submit")
