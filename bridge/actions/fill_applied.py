"""`fill.applied`: what each frame did with its part of the plan (and the acknowledgement)."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.forms import ApplyReport
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime
from bridge.store import Store

PAYLOAD_MODEL = ApplyReport


def parse(payload: dict[str, Any]) -> ApplyReport:
    return validate_payload(ApplyReport, payload)


def handle(runtime: Runtime, payload: ApplyReport, request: Request) -> dict[str, Any]:
    key = Store.request_key(request.type, request.id, request.payload)
    return runtime.record_applied(payload, key)
