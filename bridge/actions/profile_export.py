"""`profile.export`: one profile as a JSON Resume document to save (the original with the
person's edits laid over), the original as it was imported, and the resume or cover letter
chosen for particular jobs."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class ExportRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=100)  # "" is the active profile


PAYLOAD_MODEL = ExportRequest


def parse(payload: dict[str, Any]) -> ExportRequest:
    return validate_payload(ExportRequest, payload)


def handle(runtime: Runtime, payload: ExportRequest, request: Request) -> dict[str, Any]:
    from bridge.actions.profile_get import resolve_name

    store = runtime.store()
    name = resolve_name(runtime, payload.name)
    document = store.profile_document(name)
    store.audit(actor=runtime.door, action="profile.export", payload={"name": name})
    return {"name": name, "profile": document, "original": store.profile_original(name),
            "document_choices": store.document_choices(name)}
