"""`profile.update`: the person's edits, as a JSON merge patch (RFC 7386) stored beside the
imported original, which is never rewritten. The result must still be a valid profile."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.profile_get import document, resolve_name
from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class UpdateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=100)  # "" is the active profile
    patch: dict[str, Any]


PAYLOAD_MODEL = UpdateRequest


def parse(payload: dict[str, Any]) -> UpdateRequest:
    return validate_payload(UpdateRequest, payload)


def handle(runtime: Runtime, payload: UpdateRequest, request: Request) -> dict[str, Any]:
    name = resolve_name(runtime, payload.name)
    runtime.store().edit_profile(name, payload.patch)  # E_PROFILE_INVALID names the bad path
    # Which top-level parts changed, never their values (self-identification answers among them).
    runtime.store().audit(actor=runtime.door, action="profile.update", payload={
        "name": name, "sections": sorted(payload.patch),
    })
    return document(runtime, name)
