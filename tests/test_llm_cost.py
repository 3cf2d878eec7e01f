"""Cost, caps, downgrade and model errors, through real litellm and the scripted server."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from bridge.forms import Source, Status, Widget
from bridge.llm import MemoryLedger, ModelCall, escalate
from tests.llm_server import (
    LlmServer,
    Reply,
    answer,
    ffield,
    leave,
    llm_server,
    llm_server_session,
    make_config,
    question_ids,
    request_of,
    sample_profile,
)

__all__ = ["llm_server", "llm_server_session"]


def _form(cover_letter: bool = False) -> tuple[Any, list[Any]]:
    fields = [
        ffield("f1", "Current employer"),
        ffield(
            "f2",
            "Cover letter" if cover_letter else "Describe a project",
            Widget.TEXTAREA,
            max_length=3000 if cover_letter else 500,
        ),
    ]
    return request_of(fields), [leave(f) for f in fields]


def _good(body: dict[str, Any]) -> Reply:
    out: dict[str, Any] = {}
    for qid in question_ids(body):
        if "drafting" in body["response_format"]["json_schema"]["name"]:
            out[qid] = {
                "answer": "I built the Kafka ingestion pipeline for 40 TB of daily event data.",
                "facts": ["work[1].highlights[0]"],
                "quotes": [],
            }
        else:
            out[qid] = answer("Analytical Engines Inc", ["work[0].name"])
    return Reply({"fields": out}, tokens_in=1000, tokens_out=100)


def test_ledger_adds_up(llm_server: LlmServer) -> None:
    llm_server.script = _good
    request, decisions = _form()
    ledger = MemoryLedger()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=ledger,
        config=make_config(llm_server),
    )
    # The two requests go at once: the ledger has them in the order they came back.
    by_purpose = {c.purpose: c for c in ledger.calls}
    assert sorted(by_purpose) == ["drafting", "mapping"] and len(ledger.calls) == 2
    assert len(llm_server.requests) == 2
    fast = (1000 * 0.098 + 100 * 0.196) / 1e6
    general = (1000 * 0.40 + 100 * 1.75) / 1e6
    assert by_purpose["mapping"].cost_usd == pytest.approx(fast)
    assert by_purpose["drafting"].cost_usd == pytest.approx(general)
    assert result.cost_usd == pytest.approx(fast + general)
    assert sum(c.cost_usd for c in ledger.calls) == pytest.approx(result.cost_usd)
    assert all(c.tokens_in == 1000 and c.tokens_out == 100 for c in ledger.calls)
    assert {d.field_id: d.source for d in result.decisions} == {"f1": Source.LLM, "f2": Source.LLM}


def test_per_fill_cap_means_rules_only_with_the_reason(llm_server: LlmServer) -> None:
    llm_server.script = _good
    request, decisions = _form()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server, cap_per_fill_usd=1e-7),
    )
    assert llm_server.requests == []
    assert result.status.startswith("rules-only: per-fill model cap")
    assert all(d.source == Source.NONE for d in result.decisions)


def test_daily_cap_counts_earlier_spend(llm_server: LlmServer) -> None:
    llm_server.script = _good
    ledger = MemoryLedger()
    ledger.record_call(
        ModelCall(
            run_id="old",
            model="openai/fast-model",
            tier="fast",
            purpose="mapping",
            cost_usd=0.10,
            at=datetime.now(UTC),
        )
    )
    request, decisions = _form()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=ledger,
        config=make_config(llm_server, cap_per_day_usd=0.10),
    )
    assert llm_server.requests == []
    assert result.status.startswith("rules-only: daily model cap")


def test_near_the_cap_heavy_falls_back(llm_server: LlmServer) -> None:
    llm_server.script = _good
    request, decisions = _form(cover_letter=True)
    # Plenty of room: the long draft goes to the heavy tier.
    escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server),
    )
    assert sorted(r["model"] for r in llm_server.requests) == ["fast-model", "heavy-model"]
    # Near the daily cap: heavy falls back to general.
    llm_server.reset(_good)
    ledger = MemoryLedger()
    ledger.record_call(
        ModelCall(run_id="old", model="x", tier="fast", purpose="mapping", cost_usd=0.45)
    )
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=ledger,
        config=make_config(llm_server, cap_per_day_usd=0.5),
    )
    assert sorted(r["model"] for r in llm_server.requests) == ["fast-model", "general-model"]
    assert "downgraded heavy→general" in result.status


def test_http_500_stops_after_three_consecutive_errors(llm_server: LlmServer) -> None:
    llm_server.script = lambda body: Reply(status=500)
    request, decisions = _form()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server),
    )
    assert len(llm_server.requests) == 3  # the drafting request is never sent
    assert "HTTP 500" in result.status
    assert "3 consecutive errors" in result.status
    assert result.status.startswith("rules-only")
    assert all(d.status == Status.LEAVE and d.value == "" for d in result.decisions)
    assert result.cost_usd == 0


def test_a_retry_after_an_error_recovers(llm_server: LlmServer) -> None:
    seen = {"n": 0}

    def flaky(body: dict[str, Any]) -> Reply:
        seen["n"] += 1
        return Reply(status=500) if seen["n"] == 1 else _good(body)

    llm_server.script = flaky
    request, decisions = _form()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server),
    )
    assert len(llm_server.requests) == 3
    assert result.status.startswith("llm: 3 request(s) (1 failed)")
    assert {d.source for d in result.decisions} == {Source.LLM}


def test_timeouts_give_a_clear_status(llm_server: LlmServer) -> None:
    llm_server.script = lambda body: Reply({"fields": {}}, delay_s=1.5)
    request, decisions = _form()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server, timeout_s=0.3, retries=1),
    )
    assert "timeout" in result.status
    assert all(d.value == "" for d in result.decisions)


def test_model_errors_write_nothing_to_stdout(
    llm_server: LlmServer, capfd: pytest.CaptureFixture[str]
) -> None:
    # The native host's stdout carries frames only: litellm must not print there.
    llm_server.script = lambda body: Reply(status=500)
    request, decisions = _form()
    escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server, retries=0),
    )
    llm_server.script = lambda body: Reply("not json")
    escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=MemoryLedger(),
        config=make_config(llm_server, retries=0),
    )
    assert capfd.readouterr().out == ""


def test_field_answers_and_the_draft_are_asked_at_once(llm_server: LlmServer) -> None:
    # Each reply waits until both requests have arrived: one after the other, the first would
    # wait in vain (and time out).
    def together(body: dict[str, Any]) -> Reply:
        reply = _good(body)
        reply.hold_for_requests = 2
        return reply

    llm_server.script = together
    request, decisions = _form()
    ledger = MemoryLedger()
    result = escalate(
        request,
        sample_profile(),
        decisions,
        run_id="c",
        ledger=ledger,
        config=make_config(llm_server, timeout_s=30.0),
    )
    assert llm_server.most_in_flight == 2
    assert sorted(c.purpose for c in ledger.calls) == ["drafting", "mapping"]
    assert sum(c.cost_usd for c in ledger.calls) == pytest.approx(result.cost_usd)
    assert {d.field_id: d.source for d in result.decisions} == {"f1": Source.LLM, "f2": Source.LLM}


def test_the_cap_holds_with_two_requests_in_flight(llm_server: LlmServer) -> None:
    # Two requests of one fill sent from two threads at once; the cap fits one request's
    # estimate and a half. The first reserves its estimate, so the second waits for its actual
    # cost and then does not fit: one request is sent, the spend stays under the cap.
    from bridge.llm.calls import Caller
    from bridge.llm.config import Tier

    llm_server.script = lambda body: Reply(
        {"fields": {}}, tokens_in=1500, tokens_out=1200, delay_s=0.3
    )
    messages = [{"role": "user", "content": "x" * 4000}]
    probe = Caller(config=make_config(llm_server), ledger=MemoryLedger(), run_id="c")
    estimate = probe._estimate("openai/fast-model", messages)
    ledger = MemoryLedger()
    caller = Caller(
        config=make_config(llm_server, cap_per_fill_usd=estimate * 1.5), ledger=ledger, run_id="c"
    )
    fmt = {"type": "json_object"}
    replies: list[Any] = []

    def ask() -> None:
        replies.append(caller.ask(Tier.FAST, "mapping", messages, fmt))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(llm_server.requests) == 1
    assert sorted(r is None for r in replies) == [False, True]
    assert caller.stopped.startswith("rules-only: per-fill model cap")
    spent = sum(c.cost_usd for c in ledger.calls)
    assert 0 < spent <= estimate * 1.5
    assert caller.reserved == 0 and caller.in_flight == 0
