"""The fabrication guard: the labelled corpus, and regeneration then refusal through the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bridge.forms import Source, Status, Widget
from bridge.llm.facts import profile_facts, support_for
from bridge.llm.guard import Support, extract_claims, unsupported_claims
from bridge.llm.ledger import MemoryLedger
from bridge.llm.resume import resume_text
from tests.llm_server import (
    LlmServer,
    Reply,
    ask_model,
    ffield,
    leave,
    llm_server,
    llm_server_session,
    question_ids,
    request_of,
    sample_profile,
    user_payload,
)

__all__ = ["llm_server", "llm_server_session"]

CORPUS = Path(__file__).parent / "data" / "fabrication_corpus.json"


@pytest.fixture(scope="module")
def support() -> Support:
    profile = sample_profile()
    return support_for(profile_facts(profile), resume_text(profile))


def test_corpus_is_big_enough_and_labelled() -> None:
    items = json.loads(CORPUS.read_text())["answers"]
    assert len(items) >= 60
    assert {i["label"] for i in items} == {"faithful", "invented"}
    texts = [i["answer"] for i in items]
    assert any("3 engineers" in t for t in texts) and "2019" in texts


def test_no_invented_answer_is_accepted(support: Support) -> None:
    items = json.loads(CORPUS.read_text())["answers"]
    accepted_inventions = [
        i["answer"]
        for i in items
        if i["label"] == "invented" and not unsupported_claims(i["answer"], support)
    ]
    assert accepted_inventions == []
    faithful = [i for i in items if i["label"] == "faithful"]
    wrongly_refused = [
        (i["answer"], unsupported_claims(i["answer"], support))
        for i in faithful
        if unsupported_claims(i["answer"], support)
    ]
    # Reported, not failed: refusing a faithful answer costs a field, not trust.
    print(f"\nguard: {len(wrongly_refused)} of {len(faithful)} faithful answers refused")
    for text, missing in wrongly_refused:
        print(f"  refused {text!r}: {missing}")
    assert len(wrongly_refused) <= len(faithful) // 4


def test_claims_are_extracted_by_kind() -> None:
    kinds = {
        c.kind
        for c in extract_claims(
            "Since 2019 I led 3 engineers at Stripe as Staff Engineer, cut costs 20% and saved "
            "$40k over 5 years; I hold an MBA and the CKA certification."
        )
    }
    assert {
        "year",
        "headcount",
        "percentage",
        "money",
        "duration",
        "degree",
        "certification",
        "title",
        "proper-noun",
    } <= kinds


def _draft_script(drafts: list[str], facts: list[str]) -> Any:
    calls = {"n": 0}

    def script(body: dict[str, Any]) -> Reply:
        text = drafts[min(calls["n"], len(drafts) - 1)]
        calls["n"] += 1
        qid = question_ids(body)[0]
        return Reply({"fields": {qid: {"answer": text, "facts": facts, "quotes": []}}})

    return script


def _open_form() -> tuple[Any, list[Any]]:
    field = ffield("f9", "Describe a project you are proud of", Widget.TEXTAREA, max_length=400)
    return request_of([field], job_text="Acme builds payment rails."), [leave(field)]


def test_guard_regenerates_twice_then_refuses_and_audits(llm_server: LlmServer) -> None:
    llm_server.script = _draft_script(
        ["I led a team of 3 engineers at Stripe in 2019."], ["work[0].highlights[1]"]
    )
    request, decisions = _open_form()
    ledger = MemoryLedger()
    result = ask_model(llm_server, request, decisions, run_id="g", ledger=ledger)
    assert len(llm_server.requests) == 3  # first draft + two regenerations
    retry_payload = user_payload(llm_server.requests[1])
    assert "Stripe" in json.dumps(retry_payload["previous_answers_rejected"])
    (d,) = result.decisions
    assert d.value == "" and d.status == Status.LEAVE and d.source == Source.NONE
    assert "refused" in d.reason and "Stripe" in d.reason
    assert result.refusals[0].unsupported
    assert [e[1] for e in ledger.audit] == ["llm.refused"]
    assert llm_server.requests[0]["model"] == "general-model"


def test_regeneration_can_fix_a_draft(llm_server: LlmServer) -> None:
    llm_server.script = _draft_script(
        [
            "I led 6 engineers on a migration.",
            "I led a team of 4 engineers through the migration of 30 services from Python 2 to "
            "Python 3.",
        ],
        ["work[0].highlights[1]"],
    )
    request, decisions = _open_form()
    result = ask_model(llm_server, request, decisions, run_id="g")
    assert len(llm_server.requests) == 2
    (d,) = result.decisions
    assert d.source == Source.LLM and d.status == Status.FLAG  # drafts are always for review
    assert "4 engineers" in d.value


def test_saved_answer_comes_before_the_model(llm_server: LlmServer) -> None:
    field = ffield("f1", "Why are you interested in this role?", Widget.TEXTAREA)
    result = ask_model(llm_server, request_of([field]), [leave(field, "question.open")], run_id="s")
    assert llm_server.requests == []
    (d,) = result.decisions
    assert d.source == Source.SAVED_ANSWER and d.status == Status.FLAG
    assert d.value.startswith("I enjoy owning")


def test_draft_over_the_length_limit_is_not_planned(llm_server: LlmServer) -> None:
    long = "I built the Kafka ingestion pipeline for 40 TB of daily event data. " * 10
    llm_server.script = _draft_script([long], ["work[1].highlights[0]"])
    request, decisions = _open_form()
    result = ask_model(llm_server, request, decisions, run_id="g")
    (d,) = result.decisions
    assert d.value == ""
    assert "limit" in d.reason
    assert user_payload(llm_server.requests[0])["page"]["questions"][0]["max_chars"] == 400
