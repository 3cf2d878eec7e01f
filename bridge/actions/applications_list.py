"""`applications.list`: the person's applications, newest first (unsubmitted runs on request)."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import ApplicationsList
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = ApplicationsList


def parse(payload: dict[str, Any]) -> ApplicationsList:
    return validate_payload(ApplicationsList, payload)


def handle(runtime: Runtime, payload: ApplicationsList, request: Request) -> dict[str, Any]:
    return {"applications": runtime.applications(payload.include_unsubmitted, payload.limit)}
