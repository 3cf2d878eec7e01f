"""`document.add`: a resume or cover letter file for a profile (the first of its kind, or one
asked for as `default`, becomes the profile's default)."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.profile_import import MAX_FILE_B64
from bridge.actions.validate import validate_payload
from bridge.documents import Kind
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


class AddRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=100)  # the profile; "" is the active one
    kind: Kind
    file_name: str = Field(min_length=1, max_length=200)
    data_b64: str = Field(max_length=MAX_FILE_B64)
    default: bool = False


PAYLOAD_MODEL = AddRequest


def parse(payload: dict[str, Any]) -> AddRequest:
    return validate_payload(AddRequest, payload)


def handle(runtime: Runtime, payload: AddRequest, request: Request) -> dict[str, Any]:
    from bridge import documents
    from bridge.actions.documents_list import listing
    from bridge.actions.profile_get import resolve_name

    name = resolve_name(runtime, payload.name)
    try:
        data = base64.b64decode(payload.data_b64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "data_b64: not base64") from exc
    if not data:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "data_b64: the file is empty")
    store = runtime.store()
    before = listing(runtime, name)
    stored = documents.add(runtime.home, name, payload.kind, payload.file_name, data)
    if payload.default or not before[payload.kind]:
        loaded = store.profile(name)
        assert loaded is not None
        ref = documents.ref_for(runtime.home, name, loaded.base_dir, payload.kind, stored)
        store.edit_profile(name, {"application": {"documents": {payload.kind: ref}}})
    store.audit(actor=runtime.door, action="document.add",
                payload={"name": name, "kind": payload.kind, "size": len(data)})
    return listing(runtime, name)
