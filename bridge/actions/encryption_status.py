"""`encryption.status`: whether the store's sensitive values are encrypted at rest (as
`relay encryption status`), and whether this machine has a keyring to keep the key in."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class StatusRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")


PAYLOAD_MODEL = StatusRequest


def parse(payload: dict[str, Any]) -> StatusRequest:
    return validate_payload(StatusRequest, payload)


def handle(runtime: Runtime, payload: StatusRequest, request: Request) -> dict[str, Any]:
    return runtime.store().encryption_status()
