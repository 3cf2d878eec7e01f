"""`fill.ack`: deliveries of a run up to a sequence number are done (after a replay, say)."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.forms import AckRequest
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

PAYLOAD_MODEL = AckRequest


def parse(payload: dict[str, Any]) -> AckRequest:
    return validate_payload(AckRequest, payload)


def handle(runtime: Runtime, payload: AckRequest, request: Request) -> dict[str, Any]:
    return runtime.ack(payload)
