"""Payload validation through pydantic, with the stable code and field paths on failure."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bridge.protocol.envelopes import describe_validation
from bridge.protocol.errors import ErrorCode, RelayError

M = TypeVar("M", bound=BaseModel)


def validate_payload(model: type[M], payload: dict[str, Any]) -> M:
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        raise RelayError(ErrorCode.BAD_PAYLOAD, describe_validation(exc)) from exc
