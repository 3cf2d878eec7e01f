"""`fill.plan`: a snapshot of the form in, the fill plan out (stored as a run)."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.forms import FillRequest
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime
from bridge.store import Store

PAYLOAD_MODEL = FillRequest


def parse(payload: dict[str, Any]) -> FillRequest:
    return validate_payload(FillRequest, payload)


def handle(runtime: Runtime, payload: FillRequest, request: Request) -> dict[str, Any]:
    # The key joins id, type and payload: a true retry gets the first plan back, while an id the
    # extension reuses after a restart (r-1 again) is a new request.
    key = Store.request_key(request.type, request.id, request.payload)
    return runtime.plan_fill(payload, key)
