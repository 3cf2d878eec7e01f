"""`profile.summary`: what the profile can answer, without anything that must stay private."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class SummaryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")


PAYLOAD_MODEL = SummaryRequest


def parse(payload: dict[str, Any]) -> SummaryRequest:
    return validate_payload(SummaryRequest, payload)


def handle(runtime: Runtime, payload: SummaryRequest, request: Request) -> dict[str, Any]:
    from bridge.profile_summary import summarize

    loaded, name = runtime.profile()
    return summarize(loaded, name)
