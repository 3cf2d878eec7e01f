"""`approvals.list`: what an assistant asked that waits for the person (the console shows it)."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.approvals import ApprovalsQuery, listing
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

PAYLOAD_MODEL = ApprovalsQuery


def parse(payload: dict[str, Any]) -> ApprovalsQuery:
    return validate_payload(ApprovalsQuery, payload)


def handle(runtime: Runtime, payload: ApprovalsQuery, request: Request) -> dict[str, Any]:
    return {"approvals": listing(runtime, payload.include_decided, payload.limit)}
