"""`profile.get`: a stored profile as the person sees it (original with their edits laid over)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


class GetRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=100)  # "" is the active profile


PAYLOAD_MODEL = GetRequest


def parse(payload: dict[str, Any]) -> GetRequest:
    return validate_payload(GetRequest, payload)


def resolve_name(runtime: Runtime, name: str) -> str:
    found = name or runtime.store().active_profile_name()
    if not found:
        raise RelayError(ErrorCode.PROFILE_MISSING, "no profile is stored yet")
    return found


def document(runtime: Runtime, name: str) -> dict[str, Any]:
    from bridge.jsonresume import gaps

    store = runtime.store()
    raw = store.profile_document(name)
    info = next(i for i in store.list_profiles() if i.name == name)
    return {
        "name": name,
        "active": info.active,
        "has_edits": info.has_edits,
        "updated_at": info.updated_at,
        "profile": raw,
        "warnings": gaps(raw),
    }


def handle(runtime: Runtime, payload: GetRequest, request: Request) -> dict[str, Any]:
    return document(runtime, resolve_name(runtime, payload.name))
