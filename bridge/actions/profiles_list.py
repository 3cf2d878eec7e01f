"""`profiles.list`: every stored profile, which one is active."""

from __future__ import annotations

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
    return {"profiles": [info.model_dump(exclude={"source_path"}) for info in infos]}
