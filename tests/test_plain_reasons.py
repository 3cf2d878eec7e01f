"""What the review panel shows as a field's reason is plain words, never the engine's trace
(issue 10), and the counts by source agree between `relay fill`'s report and `relay history`."""

from __future__ import annotations

import re

import pytest

from bridge.driver.report import build_fields, count
from bridge.forms import ApplyResult, ApplyStatus, FieldDecision, Source, Status
from bridge.rules.explain import plain_reason
from bridge.source_words import sources_line
from bridge.store.runs import source_counts
from tests.test_rules_support import field, run

# What a trace looks like: "patterns:label", "decision: leave", "no-answer:", "never.password".
TRACE = re.compile(r"\b[a-z-]+:[a-z]|\bdecision:|\b(?:never|eeo|name|basics)\.[a-z]")


def _fields() -> list[object]:
    return [
        field("First name", id="f1"),
        field("Email", "email", id="f2"),
        field("Password", "password", type="password", id="f3"),
        field("Why do you want to work here?", "textarea", id="f4"),
        field("City", id="f5", value="Londn"),
        field("Phone", "tel", id="f6", disabled=True),
        field("I agree to the privacy policy", "checkbox", id="f7"),
        field("Are you legally authorized to work in Canada?", "radio_group", id="f8",
              options=["Yes", "No"]),
        field("Zorblax quotient", id="f9"),
        field("Website", "url", id="f10", visible=False, hidden_reason="outside the page"),
    ]


def test_every_engine_reason_reads_as_plain_words() -> None:
    decisions = run(*_fields())  # type: ignore[arg-type]
    statuses = {d.status for d in decisions}
    assert {Status.FILL, Status.LEAVE, Status.NEVER, Status.KEEP} <= statuses
    for d in decisions:
        text = plain_reason(d)
        assert text and text[0].isupper() and text.endswith("."), (d.reason, text)
        assert not TRACE.search(text), (d.reason, text)
    by_id = {d.field_id: plain_reason(d) for d in decisions}
    assert by_id["f1"] == "From your profile (first name)."
    assert by_id["f3"].startswith("This asks for a password")
    assert by_id["f5"] == "The field already had a value; Relay left it as it was."


@pytest.mark.parametrize(
    ("decision", "expected"),
    [
        (FieldDecision(field_id="a", key="auth.work", status=Status.LEAVE,
                       reason="no-answer: patterns:label; the profile says nothing for US"),
         "Relay knows this asks for your right to work, but your profile has no answer for it:"
         " the profile says nothing for US."),
        (FieldDecision(field_id="b", status=Status.LEAVE, source=Source.NONE,
                       reason="llm answer refused: names an employer not in the resume"),
         "The model's answer did not pass Relay's check against your profile and resume (names an"
         " employer not in the resume), so it was not used. Please answer this yourself."),
        (FieldDecision(field_id="c", status=Status.FLAG, source=Source.LLM,
                       reason="llm draft (general); review it. rests on: work[0].highlights[2]"),
         "Written by the model (general tier) and checked against your profile and resume. The"
         " check found it rests on: work[0].highlights[2]. Please check it before you submit."),
        (FieldDecision(field_id="d", status=Status.FLAG, source=Source.SAVED_ANSWER,
                       reason="Your saved answer to “What is your notice period?”"),
         "Your saved answer to “What is your notice period?”."),
        (FieldDecision(field_id="e", status=Status.FILL, source=Source.PROFILE, key="eeo.gender",
                       reason="default: decline — set your answer in Relay"),
         "Default: decline — set your answer in Relay."),
        (FieldDecision(field_id="f", status=Status.LEAVE, reason="below-bar: patterns:label"
                       " (confidence 0.41)"),
         "Relay was not sure what this question asks, so it left it for you."),
    ],
)
def test_reasons_from_the_model_and_saved_answers(decision: FieldDecision, expected: str) -> None:
    assert plain_reason(decision) == expected


def test_report_and_history_count_sources_the_same_way() -> None:
    decisions = [
        FieldDecision(field_id="1", status=Status.FILL, source=Source.PROFILE),
        FieldDecision(field_id="2", status=Status.FLAG, source=Source.LLM),
        FieldDecision(field_id="3", status=Status.FLAG, source=Source.SAVED_ANSWER),
        FieldDecision(field_id="4", status=Status.LEAVE),
        FieldDecision(field_id="5", status=Status.NEVER),
        FieldDecision(field_id="6", status=Status.KEEP),
        FieldDecision(field_id="7", status=Status.FILL, source=Source.PROFILE),
    ]
    applied = [ApplyResult(field_id=d.field_id, status=ApplyStatus.APPLIED) for d in decisions]
    report = count(build_fields(decisions, applied))
    history = source_counts([{"status": d.status.value, "source": d.source.value}
                             for d in decisions])
    assert {k: v for k, v in report.items() if k.startswith("source:")} == history
    assert history == {"source:profile": 2, "source:llm": 1, "source:saved_answer": 1}
    # Left and never-filled are counted apart (the panel once said "11 left" for 10 + 1).
    assert (report["leave"], report["never"], report["keep"]) == (1, 1, 1)
    assert sources_line(report) == "2 rules, 1 saved answer, 1 model"
