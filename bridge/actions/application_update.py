"""`application.update`: the person changes an application's status or notes."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import ApplicationUpdate
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = ApplicationUpdate


def parse(payload: dict[str, Any]) -> ApplicationUpdate:
    return validate_payload(ApplicationUpdate, payload)


def handle(runtime: Runtime, payload: ApplicationUpdate, request: Request) -> dict[str, Any]:
    status = payload.status.value if payload.status else None
    app = runtime.update_application(payload.application_id, status, payload.notes)
    return {"application": app}
