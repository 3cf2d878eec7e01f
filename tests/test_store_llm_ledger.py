"""The store as the model layer's ledger: calls, day spend, audit events, the answer cache."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from bridge.llm.ledger import CachedAnswer, LlmLedger, ModelCall
from bridge.store import Store
from bridge.store.llm_ledger import StoreLlmLedger


@pytest.fixture
def store() -> Iterator[Store]:
    with Store.open() as opened:
        yield opened


def test_model_calls_land_in_the_ledger_once_with_exact_cents(store: Store) -> None:
    ledger: LlmLedger = StoreLlmLedger(store, CachedAnswer)
    now = datetime.now(UTC)
    yesterday = ModelCall(run_id="run-1", model="small", tier="cheap", purpose="mapping",
                          tokens_in=1000, tokens_out=100, cost_usd=0.5, at=now - timedelta(days=1))
    today = ModelCall(run_id="run-1", model="big", tier="strong", purpose="drafting",
                      tokens_in=2000, tokens_out=300, cost_usd=0.000123, at=now)
    failed = ModelCall(run_id="run-1", model="big", tier="strong", purpose="drafting",
                       ok=False, error="timeout", at=now)
    for call in (yesterday, today, failed, today):  # `today` twice: a replay counts once
        ledger.record_call(call)
    summary = store.cost_summary()
    assert summary["total"]["calls"] == 3
    assert summary["total"]["cost_cents"] == "50.0123"
    assert ledger.spent_usd_since(now - timedelta(hours=1)) == pytest.approx(0.000123)
    local_midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    assert ledger.spent_usd_since(local_midnight - timedelta(days=2)) == pytest.approx(0.500123)
    calls = [e for e in store.audit_entries("run-1") if e["action"] == "model.call"]
    assert [(e["payload"]["purpose"], e["status"], e["error"]) for e in calls] == [
        ("mapping", "ok", ""), ("drafting", "ok", ""), ("drafting", "error", "timeout")]


def test_audit_events_are_redacted_and_answers_are_cached(store: Store) -> None:
    ledger = StoreLlmLedger(store, CachedAnswer)
    ledger.record_audit("run-2", "llm.refused", {"field_id": "f3", "label": "Salary?",
                                                 "reasons": ["claims 10 years at Acme"]})
    [entry] = store.audit_entries("run-2")
    assert entry["action"] == "llm.refused" and entry["actor"] == "llm"
    assert entry["payload"] == {"field_id": "f3", "label": "<redacted: 7 chars>",
                                "reasons": ["<redacted: 23 chars>"]}

    assert ledger.cache_get("fp-1") is None
    answer = CachedAnswer(model="big", text='{"answer": "Yes"}', tokens_in=5, tokens_out=2)
    ledger.cache_put("fp-1", answer)
    assert ledger.cache_get("fp-1") == answer
    counts = store.forget_all()
    assert counts["answer_cache"] == 1
    assert ledger.cache_get("fp-1") is None
