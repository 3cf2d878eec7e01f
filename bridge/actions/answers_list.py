"""`answers.list`: the saved answers, newest first, optionally those matching a text."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.learn.models import AnswersList
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The payload's model, for the HTTP API's OpenAPI document.
PAYLOAD_MODEL = AnswersList


def parse(payload: dict[str, Any]) -> AnswersList:
    return validate_payload(AnswersList, payload)


def handle(runtime: Runtime, payload: AnswersList, request: Request) -> dict[str, Any]:
    return {"answers": runtime.saved_answers(payload.query, payload.limit)}
