"""`answers.delete`: the person deletes a saved answer."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import AnswerRef
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = AnswerRef


def parse(payload: dict[str, Any]) -> AnswerRef:
    return validate_payload(AnswerRef, payload)


def handle(runtime: Runtime, payload: AnswerRef, request: Request) -> dict[str, Any]:
    return {"deleted": runtime.delete_saved_answer(payload.answer_id)}
