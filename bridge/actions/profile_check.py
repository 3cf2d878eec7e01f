"""`profile.check`: one value checked as the person types it, with the reason in plain words."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class CheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["email", "phone", "date", "partial_date"]
    value: str = Field(max_length=200)
    country: str = Field(default="", max_length=2)  # ISO 3166-1 alpha-2, for phone numbers


PAYLOAD_MODEL = CheckRequest


def parse(payload: dict[str, Any]) -> CheckRequest:
    return validate_payload(CheckRequest, payload)


def handle(runtime: Runtime, payload: CheckRequest, request: Request) -> dict[str, Any]:
    from bridge.field_checks import check

    reason = check(payload.kind, payload.value, payload.country)
    return {"ok": not reason, "reason": reason}
