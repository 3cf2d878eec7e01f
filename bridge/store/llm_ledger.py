"""The store seen through the model layer's ledger interface (`bridge.llm.ledger.LlmLedger`).

Written against that Protocol's shape without importing the model layer: the store stays free of
it, and the runtime, which knows both, passes the answer type in.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from bridge.protocol.errors import RelayError
from bridge.store.store import Store

log = logging.getLogger(__name__)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class StoreLlmLedger:
    """`LlmLedger` on top of a `Store`: calls go to the cost ledger and the audit log, answers to
    the (optionally encrypted) answer cache."""

    def __init__(self, store: Store, answer_type: Callable[..., Any]) -> None:
        self.store = store
        self.answer_type = answer_type  # bridge.llm.ledger.CachedAnswer

    def record_call(self, call: Any) -> None:
        """A model request into the ledger and the audit log. An answer from the cache reached
        no model and cost nothing: audited, not a ledger row (the ledger's calls are the
        requests a Fill's report counts)."""
        dumped = call.model_dump(mode="json")
        # The call has no id of its own; its full content (time to the microsecond included)
        # names it, so recording the same call object twice counts it once.
        call_id = "call-" + hashlib.sha256(
            json.dumps(dumped, sort_keys=True).encode("utf-8")
        ).hexdigest()[:24]
        self.store.record_model_call(
            in_ledger=not call.cached,
            call_id=call_id,
            run_id=call.run_id or None,
            model=call.model,
            tier=call.tier,
            tokens_in=call.tokens_in,
            tokens_out=call.tokens_out,
            cost_cents=Decimal(repr(float(call.cost_usd))) * 100,
            at=_iso(call.at),
            purpose=call.purpose,
            details={"cached": call.cached, "duration_ms": call.duration_ms},
            status="ok" if call.ok else "error",
            error=call.error,
        )

    def spent_usd_since(self, since: datetime) -> float:
        return self.store.spent_e4_since(_iso(since)) / 1_000_000

    def record_audit(self, run_id: str, event: str, detail: dict[str, Any]) -> None:
        self.store.audit(actor="llm", action=event, run_id=run_id or None, payload=detail)

    def cache_get(self, fingerprint: str) -> Any:
        try:
            found = self.store.cache_get(fingerprint)
        except RelayError as exc:  # a cache miss is always safe
            log.warning("answer cache unavailable: %s", exc.message)
            return None
        return None if found is None else self.answer_type(**found)

    def cache_put(self, fingerprint: str, answer: Any) -> None:
        body = answer.model_dump(mode="json")
        model = str(body.pop("model", ""))
        try:
            self.store.cache_put(fingerprint, model, body)
        except RelayError as exc:
            log.warning("answer not cached: %s", exc.message)

