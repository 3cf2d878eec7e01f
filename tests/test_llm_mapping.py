"""Unknown fields through real litellm against the scripted local server."""

from __future__ import annotations

from typing import Any

from bridge.forms import Source, Status, Widget
from bridge.llm.escalate import escalate
from bridge.llm.ledger import MemoryLedger
from tests.llm_server import (
    LlmServer,
    Reply,
    answer,
    ask_model,
    ffield,
    leave,
    llm_server,
    llm_server_session,
    make_config,
    question_ids,
    request_of,
    sample_profile,
    scripted,
    user_payload,
)

__all__ = ["llm_server", "llm_server_session"]  # fixtures used by name


def _form() -> tuple[Any, list[Any]]:
    fields = [
        ffield("f1", "Current employer"),
        ffield(
            "f2",
            "Highest level of education",
            Widget.SELECT,
            ["Select...", "High school", "Bachelor's degree", "Master's degree", "PhD"],
        ),
        ffield("f3", "Are you willing to relocate?", Widget.RADIO_GROUP, ["Yes", "No"]),
        ffield("f4", "Favourite colour"),
        ffield(
            "f5",
            "Years of Python experience",
            Widget.SELECT,
            ["0-2 years", "3-5 years", "6-8 years", "9+ years"],
        ),
    ]
    return request_of(fields), [leave(f) for f in fields]


def test_one_mapping_request_with_schema_fills_supported_answers(llm_server: LlmServer) -> None:
    llm_server.script = scripted(
        {
            "Current employer": answer("Analytical Engines Inc", ["work[0].name"]),
            "Highest level of education": answer("Bachelor's degree", ["education[0].studyType"]),
            "Are you willing to relocate?": answer("Yes", ["application.willingToRelocate"]),
            "Years of Python experience": answer("9+ years", ["application.yearsOfExperience"]),
        }
    )
    request, decisions = _form()
    ledger = MemoryLedger()
    result = ask_model(llm_server, request, decisions, run_id="r1", ledger=ledger)
    assert len(llm_server.requests) == 1
    body = llm_server.requests[0]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    schema = fmt["json_schema"]["schema"]
    assert sorted(question_ids(body)) == ["q1", "q2", "q3", "q4", "q5"]
    choice = schema["properties"]["fields"]["properties"]["q2"]["anyOf"][0]
    assert choice["properties"]["answer"]["enum"] == [
        "High school",
        "Bachelor's degree",
        "Master's degree",
        "PhD",
    ]
    got = {d.field_id: d for d in result.decisions}
    assert got["f1"].value == "Analytical Engines Inc" and got["f1"].source == Source.LLM
    assert got["f1"].status == Status.FILL
    assert got["f2"].values == ["bachelor's_degree"]
    assert got["f3"].value == "Yes"
    assert got["f5"].value == "9+ years"
    assert got["f4"].status == Status.LEAVE and got["f4"].value == ""
    assert result.llm_calls == 1
    assert result.cost_usd > 0
    assert result.status.startswith("llm: 1 request(s)")
    assert ledger.calls[0].tokens_in > 0 and ledger.calls[0].model == "openai/fast-model"


def test_answers_without_real_citations_are_refused(llm_server: LlmServer) -> None:
    # A model that answers everything: nothing it cannot back with a real fact gets through.
    llm_server.script = scripted(
        {
            "Current employer": answer("Analytical Engines Inc", []),
            "Highest level of education": answer("Master's degree", ["education[0].studyType"]),
            "Are you willing to relocate?": answer("No", ["application.willingToRelocate"]),
            "Favourite colour": answer("Blue", ["basics.favouriteColour"]),
            "Years of Python experience": answer("3-5 years", ["application.yearsOfExperience"]),
        }
    )
    request, decisions = _form()
    ledger = MemoryLedger()
    result = ask_model(llm_server, request, decisions, run_id="r2", ledger=ledger)
    assert all(d.source != Source.LLM for d in result.decisions)
    assert all(d.value == "" for d in result.decisions)
    assert len(result.refusals) == 5
    assert sum(1 for e in ledger.audit if e[1] == "llm.refused") == 5


def test_low_confidence_is_flagged_and_cache_answers_repeat(llm_server: LlmServer) -> None:
    llm_server.script = scripted(
        {
            "Current employer": answer("Analytical Engines Inc", ["work[0].name"], confidence=0.4),
        }
    )
    request, decisions = _form()
    ledger = MemoryLedger()
    config = make_config(llm_server)
    first = escalate(request, sample_profile(), decisions, run_id="a", ledger=ledger, config=config)
    assert {d.field_id: d for d in first.decisions}["f1"].status == Status.FLAG
    second = escalate(
        request, sample_profile(), decisions, run_id="b", ledger=ledger, config=config
    )
    assert len(llm_server.requests) == 1  # the second fill was answered from the cache
    assert second.llm_calls == 0 and second.cost_usd == 0
    assert {d.field_id: d for d in second.decisions}["f1"].value == "Analytical Engines Inc"
    assert "1 cached" in second.status


def test_no_key_means_rules_only(llm_server: LlmServer) -> None:
    request, decisions = _form()
    config = make_config(llm_server, api_key="", api_base="")
    result = escalate(
        request, sample_profile(), decisions, run_id="r", ledger=MemoryLedger(), config=config
    )
    assert result.status.startswith("rules-only: no model configured")
    assert result.decisions == decisions
    assert llm_server.requests == []


def test_request_carries_the_question_data_not_instructions(llm_server: LlmServer) -> None:
    request, decisions = _form()
    ask_model(llm_server, request, decisions)
    payload = user_payload(llm_server.requests[0])
    assert "work[0].name" in payload["facts"]
    assert payload["page"]["questions"][0]["label"] == "Current employer"
    assert llm_server.requests[0]["messages"][0]["role"] == "system"


def test_malformed_json_gives_a_clear_status(llm_server: LlmServer) -> None:
    llm_server.script = lambda body: Reply("this is not json {")
    request, decisions = _form()
    result = ask_model(llm_server, request, decisions)
    assert "malformed JSON" in result.status, result.status
    assert result.status.startswith("rules-only")
    assert all(d.status == Status.LEAVE and d.value == "" for d in result.decisions)


def test_a_bare_yes_needs_a_fact_about_the_question(llm_server: LlmServer) -> None:
    fields = [
        ffield(
            "f1",
            "Do you have professional experience with Rust?",
            Widget.RADIO_GROUP,
            ["Yes", "No"],
        ),
        ffield(
            "f2", "How many direct reports have you managed?", Widget.SELECT, ["0", "1-5", "6-10"]
        ),
        ffield(
            "f3", "Are you open to relocating for this role?", Widget.RADIO_GROUP, ["Yes", "No"]
        ),
    ]
    llm_server.script = scripted(
        {
            fields[0].label: answer("Yes", ["application.willingToRelocate"]),
            fields[1].label: answer("1-5", ["application.noticePeriod"]),
            fields[2].label: answer("Yes", ["application.willingToRelocate"]),
        }
    )
    result = ask_model(llm_server, request_of(fields), [leave(f) for f in fields], run_id="y")
    got = {d.field_id: d for d in result.decisions}
    assert got["f1"].value == "" and got["f2"].value == ""
    assert got["f3"].value == "Yes" and got["f3"].source == Source.LLM
