"""`profile.delete`: remove a stored profile and the documents kept for it. When it was the
active one, another profile (the first by name) becomes active, so a Fill still has one."""

from __future__ import annotations

import shutil
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class DeleteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)


PAYLOAD_MODEL = DeleteRequest


def parse(payload: dict[str, Any]) -> DeleteRequest:
    return validate_payload(DeleteRequest, payload)


def handle(runtime: Runtime, payload: DeleteRequest, request: Request) -> dict[str, Any]:
    from bridge import documents

    store = runtime.store()
    was_active = store.active_profile_name() == payload.name
    store.remove_profile(payload.name)  # E_PROFILE_MISSING when there is no such profile
    shutil.rmtree(documents.folder(runtime.home, payload.name), ignore_errors=True)
    active = store.active_profile_name()
    if was_active and active is None:
        left = store.list_profiles()
        if left:
            store.use_profile(left[0].name)
            active = left[0].name
    store.audit(actor=runtime.door, action="profile.delete", payload={"name": payload.name})
    return {"name": payload.name, "deleted": True, "active": active or ""}
