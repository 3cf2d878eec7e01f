"""`application.submitted`: the person pressed Submit themselves (Relay never does); record the
application and learn from it."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import ApplicationSubmitted
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime
from bridge.store import Store

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = ApplicationSubmitted


def parse(payload: dict[str, Any]) -> ApplicationSubmitted:
    return validate_payload(ApplicationSubmitted, payload)


def handle(runtime: Runtime, payload: ApplicationSubmitted, request: Request) -> dict[str, Any]:
    key = Store.request_key(request.type, request.id, request.payload)
    return runtime.application_submitted(payload, key)
