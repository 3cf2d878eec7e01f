"""Cost, caps, downgrade and model errors, through real litellm and the scripted server."""

from __future__ import annotations

import json
import socket
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from bridge.forms import Source, Status, Widget
from bridge.llm.ledger import MemoryLedger, ModelCall
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
    result = ask_model(llm_server, request, decisions, run_id="c", ledger=ledger)
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
    result = ask_model(llm_server, request, decisions, run_id="c", cap_per_fill_usd=1e-7)
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
    result = ask_model(
        llm_server, request, decisions, run_id="c", ledger=ledger, cap_per_day_usd=0.10
    )
    assert llm_server.requests == []
    assert result.status.startswith("rules-only: daily model cap")


def test_near_the_cap_heavy_falls_back(llm_server: LlmServer) -> None:
    llm_server.script = _good
    request, decisions = _form(cover_letter=True)
    # Plenty of room: the long draft goes to the heavy tier.
    ask_model(llm_server, request, decisions, run_id="c")
    assert sorted(r["model"] for r in llm_server.requests) == ["fast-model", "heavy-model"]
    # Near the daily cap: heavy falls back to general.
    llm_server.reset(_good)
    ledger = MemoryLedger()
    ledger.record_call(
        ModelCall(run_id="old", model="x", tier="fast", purpose="mapping", cost_usd=0.45)
    )
    result = ask_model(
        llm_server, request, decisions, run_id="c", ledger=ledger, cap_per_day_usd=0.5
    )
    assert sorted(r["model"] for r in llm_server.requests) == ["fast-model", "general-model"]
    assert "downgraded heavy→general" in result.status


def test_http_500_stops_after_three_consecutive_errors(llm_server: LlmServer) -> None:
    llm_server.script = lambda body: Reply(status=500)
    request, decisions = _form()
    result = ask_model(llm_server, request, decisions, run_id="c")
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
    result = ask_model(llm_server, request, decisions, run_id="c")
    assert len(llm_server.requests) == 3
    assert result.status.startswith("llm: 3 request(s) (1 failed)")
    assert {d.source for d in result.decisions} == {Source.LLM}


def test_timeouts_give_a_clear_status(llm_server: LlmServer) -> None:
    llm_server.script = lambda body: Reply({"fields": {}}, delay_s=1.5)
    request, decisions = _form()
    result = ask_model(llm_server, request, decisions, run_id="c", timeout_s=0.3, retries=1)
    assert "timeout" in result.status
    assert all(d.value == "" for d in result.decisions)


def test_an_unreachable_model_is_named_so_not_an_http_error(llm_server: LlmServer) -> None:
    """litellm gives a refused connection the status code 500: the person must read that the
    model could not be reached, not that it failed."""
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        request, decisions = _form()
        refused = f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
        result = ask_model(llm_server, request, decisions, run_id="c", api_base=refused)
    assert "connection failed" in result.status and "HTTP" not in result.status, result.status
    assert all(d.value == "" for d in result.decisions)


def test_model_errors_write_nothing_to_stdout(
    llm_server: LlmServer, capfd: pytest.CaptureFixture[str]
) -> None:
    # The native host's stdout carries frames only: litellm must not print there.
    llm_server.script = lambda body: Reply(status=500)
    request, decisions = _form()
    ask_model(llm_server, request, decisions, run_id="c", retries=0)
    llm_server.script = lambda body: Reply("not json")
    ask_model(llm_server, request, decisions, run_id="c", retries=0)
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
    result = ask_model(llm_server, request, decisions, run_id="c", ledger=ledger, timeout_s=30.0)
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


def test_a_streamed_fill_keeps_one_row_per_field_and_its_calls_agree_with_the_ledger(
    llm_server: LlmServer, relay_home: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A streamed plan marks two fields "asking", two requests answer them (two groups of
    outcomes); the run keeps one decision row per field, the last decision, and its model
    calls are the ledger's. The same form again is answered from the cache: no model request,
    so nothing in the ledger and nothing counted, and the audit log says a cached answer."""
    import time

    from bridge.forms import ApplyReport, FillRequest
    from bridge.runtime import Runtime
    from bridge.store import Store
    from tests.conftest import SAMPLE_PROFILE
    from tests.llm_server import scripted

    llm_server.script = scripted({
        "Which message broker have you run in production?": {
            "answer": "Kafka", "facts": ["work[1].highlights[0]"], "quotes": [],
            "confidence": 0.9},
        "Describe a system you designed": {
            "answer": "I built the Kafka ingestion pipeline for 40 TB of daily event data.",
            "facts": ["work[1].highlights[0]"], "quotes": []},
    })
    for key, value in {"RELAY_LLM_API_BASE": llm_server.base_url,
                       "RELAY_LLM_API_KEY": "sk-test-not-a-real-key",
                       "RELAY_MODEL_FAST": "openai/fast-model",
                       "RELAY_MODEL_GENERAL": "openai/general-model",
                       "RELAY_MODEL_HEAVY": ""}.items():
        monkeypatch.setenv(key, value)
    fields: list[dict[str, Any]] = [
        {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"},
        {"id": "f2", "widget": "text", "name": "q_broker",
         "label": "Which message broker have you run in production?"},
        {"id": "f3", "widget": "textarea", "name": "q_project",
         "label": "Describe a system you designed", "max_length": 600},
    ]
    runtime = Runtime(relay_home, SAMPLE_PROFILE)
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> bool:
        events.append(event)
        return True

    runtime.emit = emit

    def fill(n: int) -> tuple[str, list[dict[str, Any]]]:
        request = FillRequest.model_validate({
            "url": "http://127.0.0.1/apply", "title": "Platform Engineer — Acme",
            "frames": [{"fields": fields}], "stream": True})
        plan = runtime.plan_fill(request, f"r-{n}")
        run_id = plan["run_id"]
        assert sorted(d["field_id"] for d in plan["decisions"] if d["asking"]) == ["f2", "f3"]
        deadline = time.monotonic() + 60
        mine: list[dict[str, Any]] = []
        while {e["decision"]["field_id"] for e in mine} != {"f2", "f3"}:
            assert time.monotonic() < deadline, events
            time.sleep(0.05)
            mine = [e for e in events if e["run_id"] == run_id]
        runtime.record_applied(ApplyReport.model_validate({"run_id": run_id, "results": [
            {"field_id": f["id"], "frame": "0", "status": "applied"} for f in fields]}), f"a-{n}")
        return run_id, mine

    def reported_calls(answers: list[dict[str, Any]]) -> int:
        # What the extension reports: each job's largest running total, summed over its jobs.
        jobs: dict[str, int] = {}
        for event in answers:
            job = event["llm"]["job"]
            jobs[job] = max(jobs.get(job, 0), event["llm"]["calls"])
        return sum(jobs.values())

    first, answers = fill(1)
    again, cached = fill(2)
    runtime.close()
    with Store.open(relay_home) as store:
        rows = store.conn.execute(
            "SELECT run_id, field_id, source, outcome FROM decisions ORDER BY run_id, seq"
        ).fetchall()
        history = {run["run_id"]: run for run in store.history()}
        ledger: dict[str, int] = {
            str(run_id): int(str(n)) for run_id, n in store.conn.execute(
                "SELECT run_id, count(*) FROM ledger GROUP BY run_id").fetchall()}
        audit = store.audit_entries(again)
    for run_id in (first, again):
        mine = [(f, s, o) for r, f, s, o in rows if r == run_id]
        assert mine == [("f1", "profile", "applied"), ("f2", "llm", "applied"),
                        ("f3", "llm", "applied")], mine
        run = history[run_id]
        assert run["counts"]["decisions"] == 3 and run["counts"]["source:llm"] == 2, run["counts"]
    assert ledger.get(first) == 2 == history[first]["llm_calls"] == reported_calls(answers)
    assert ledger.get(again, 0) == 0 == history[again]["llm_calls"] == reported_calls(cached)
    calls = [e for e in audit if e["action"] == "model.call"]
    assert len(calls) == 2 and all('"cached": true' in json.dumps(e["payload"]) for e in calls)
