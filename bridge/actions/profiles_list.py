"""`profiles.list`: every stored profile, which one is active, and the profile file a Fill uses
instead when one is named (RELAY_PROFILE, or the settings file's `profile`)."""

from __future__ import annotations

import os
from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class ListRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")


PAYLOAD_MODEL = ListRequest


def parse(payload: dict[str, Any]) -> ListRequest:
    return validate_payload(ListRequest, payload)


def handle(runtime: Runtime, payload: ListRequest, request: Request) -> dict[str, Any]:
    infos = runtime.store().list_profiles()
    path = runtime.profile_file()
    file = None
    if path is not None:
        set_by = "RELAY_PROFILE" if os.environ.get("RELAY_PROFILE") else "settings"
        file = {"path": str(path), "set_by": set_by}
    return {"profiles": [info.model_dump(exclude={"source_path"}) for info in infos], "file": file}
