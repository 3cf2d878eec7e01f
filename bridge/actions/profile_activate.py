"""`profile.activate`: the profile the next Fill uses."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class ActivateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)


PAYLOAD_MODEL = ActivateRequest


def parse(payload: dict[str, Any]) -> ActivateRequest:
    return validate_payload(ActivateRequest, payload)


def handle(runtime: Runtime, payload: ActivateRequest, request: Request) -> dict[str, Any]:
    runtime.store().use_profile(payload.name)  # E_PROFILE_MISSING when there is no such profile
    runtime.store().audit(actor=runtime.door, action="profile.activate", payload={
        "name": payload.name,
    })
    return {"name": payload.name, "active": True}
