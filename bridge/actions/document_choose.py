"""`document.choose`: which resume or cover letter a profile uses, by default (no `url`) or for
one job page (`url`, e.g. from the side panel before Fill; `ref` "" goes back to the default)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.documents import Kind
from bridge.protocol.bounds import Url
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


class ChooseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=100)  # the profile; "" is the active one
    kind: Kind
    ref: str = Field(default="", max_length=1000)  # a `ref` from documents.list
    url: Url = ""


PAYLOAD_MODEL = ChooseRequest


def parse(payload: dict[str, Any]) -> ChooseRequest:
    return validate_payload(ChooseRequest, payload)


def handle(runtime: Runtime, payload: ChooseRequest, request: Request) -> dict[str, Any]:
    from bridge import documents
    from bridge.actions.documents_list import listing
    from bridge.actions.profile_get import resolve_name

    name = resolve_name(runtime, payload.name)
    known = {row["ref"] for row in listing(runtime, name)[payload.kind]}
    if payload.ref and payload.ref not in known:
        raise RelayError(ErrorCode.NOT_FOUND, f"no such {payload.kind} in profile {name!r}")
    store = runtime.store()
    if payload.url:
        documents.choose(store, name, payload.url, payload.kind, payload.ref)
    elif payload.ref:
        store.edit_profile(name, {"application": {"documents": {payload.kind: payload.ref}}})
    else:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "ref: name the file to make the default")
    scope = "job" if payload.url else "default"
    store.audit(actor=runtime.door, action="document.choose",
                payload={"name": name, "kind": payload.kind, "scope": scope})
    return listing(runtime, name, payload.url)
