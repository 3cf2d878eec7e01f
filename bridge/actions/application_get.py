"""`application.get`: one application with every field's final value and who set it."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import ApplicationRef
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = ApplicationRef


def parse(payload: dict[str, Any]) -> ApplicationRef:
    return validate_payload(ApplicationRef, payload)


def handle(runtime: Runtime, payload: ApplicationRef, request: Request) -> dict[str, Any]:
    return {"application": runtime.application(payload.application_id)}
