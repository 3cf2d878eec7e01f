"""`fill.blocked`: submissions the page attempted that Relay stopped, reported after the apply."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.forms import BlockedReport
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime
from bridge.store import Store

PAYLOAD_MODEL = BlockedReport


def parse(payload: dict[str, Any]) -> BlockedReport:
    return validate_payload(BlockedReport, payload)


def handle(runtime: Runtime, payload: BlockedReport, request: Request) -> dict[str, Any]:
    key = Store.request_key(request.type, request.id, request.payload)
    return runtime.record_blocked(payload, key)
