"""`answers.update`: the person changes a saved answer's value."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import AnswerUpdate
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = AnswerUpdate


def parse(payload: dict[str, Any]) -> AnswerUpdate:
    return validate_payload(AnswerUpdate, payload)


def handle(runtime: Runtime, payload: AnswerUpdate, request: Request) -> dict[str, Any]:
    return {"answer": runtime.update_saved_answer(payload.answer_id, payload.value)}
