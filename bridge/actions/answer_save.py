"""`answer.save`: the person pressed "save this answer" on a field: stored at once."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import AnswerSave
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = AnswerSave


def parse(payload: dict[str, Any]) -> AnswerSave:
    return validate_payload(AnswerSave, payload)


def handle(runtime: Runtime, payload: AnswerSave, request: Request) -> dict[str, Any]:
    return runtime.save_answer(payload)
