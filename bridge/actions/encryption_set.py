"""`encryption.set`: encryption at rest on (a random key into the OS keyring, every sensitive
value sealed) or off (every value opened, the key removed), as `relay encryption on|off`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


class EncryptionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool


PAYLOAD_MODEL = EncryptionRequest


def parse(payload: dict[str, Any]) -> EncryptionRequest:
    return validate_payload(EncryptionRequest, payload)


def handle(runtime: Runtime, payload: EncryptionRequest, request: Request) -> dict[str, Any]:
    store = runtime.store()
    status = store.encryption_status()
    if payload.enabled and not status["enabled"]:
        if not status["keyring_usable"]:
            raise RelayError(ErrorCode.NO_KEYRING, "no secure keyring on this computer to keep "
                             "the encryption key in, so encryption stays off")
        store.enable_encryption()
    elif not payload.enabled and status["enabled"]:
        store.disable_encryption()
    store.audit(actor=runtime.door, action="encryption.set",
                payload={"scope": "on" if payload.enabled else "off"})
    return store.encryption_status()
