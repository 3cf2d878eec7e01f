"""`spending.get`: what the model calls cost per day and month, the caps, what is left today, and
which model each tier uses (never the key: only where it comes from)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class SpendingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")


PAYLOAD_MODEL = SpendingRequest


def parse(payload: dict[str, Any]) -> SpendingRequest:
    return validate_payload(SpendingRequest, payload)


def _usd(row: dict[str, Any]) -> float:
    return round(float(row["cost_cents"]) / 100, 6)


def handle(runtime: Runtime, payload: SpendingRequest, request: Request) -> dict[str, Any]:
    from bridge.llm.config import Tier, load_config
    from bridge.llm.ledger import CachedAnswer
    from bridge.store.llm_ledger import StoreLlmLedger

    config = load_config()
    summary = runtime.cost_summary()
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    spent_today = StoreLlmLedger(runtime.store(), CachedAnswer).spent_usd_since(midnight)
    return {
        "by_day": [{"day": r["day"], "calls": r["calls"], "usd": _usd(r)}
                   for r in summary["by_day"]][-31:],
        "by_month": [{"month": r["month"], "calls": r["calls"], "usd": _usd(r)}
                     for r in summary["by_month"]][-12:],
        "total_usd": _usd(summary["total"]),
        "cap_per_fill_usd": config.cap_per_fill_usd,
        "cap_per_day_usd": config.cap_per_day_usd,
        "spent_today_usd": round(spent_today, 6),
        "left_today_usd": round(max(config.cap_per_day_usd - spent_today, 0.0), 6),
        "models": {tier.value: config.model_for(tier) for tier in Tier},
        "api_base": config.api_base,
        "key_provider": config.key_provider,
        "key_source": config.key_source,
        "model_enabled": config.enabled,
    }
