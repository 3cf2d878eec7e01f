"""`key.set`: the model API key into the OS keyring (as `relay key set`); an empty key removes it.

The key travels once, from the console to the keyring: it is never returned, stored in a file,
logged or audited (the audit entry names the provider only).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


class KeyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provider: str = Field(default="", max_length=64, pattern=r"^[a-z0-9_.-]*$")  # "": the setting's
    key: str = Field(default="", max_length=1000, repr=False)


PAYLOAD_MODEL = KeyRequest


def parse(payload: dict[str, Any]) -> KeyRequest:
    return validate_payload(KeyRequest, payload)


def handle(runtime: Runtime, payload: KeyRequest, request: Request) -> dict[str, Any]:
    from bridge import config_file
    from bridge.llm import keys
    from bridge.llm.config import load_config

    config = load_config(path=config_file.config_path(runtime.home))
    provider = payload.provider or config.key_provider
    if not provider:
        raise RelayError(ErrorCode.BAD_PAYLOAD,
                         "provider: name the model provider (openrouter, openai, …)")
    secret = payload.key.strip()
    try:
        if secret:
            keys.store_key(provider, secret)
            removed = False
        else:
            removed = keys.delete_key(provider)
    except keys.NoKeyring as exc:
        raise RelayError(ErrorCode.NO_KEYRING, str(exc)) from exc
    runtime.store().audit(actor=runtime.door, action="key.set",
                          payload={"key": provider, "scope": "set" if secret else "delete"})
    return {"provider": provider, "stored": bool(secret), "removed": removed}
