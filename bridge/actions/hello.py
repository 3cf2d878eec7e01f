"""`hello`: versions and capabilities, and the major-version check on the bridge's side.

Parsed by hand (two optional strings) so the first reply never waits for pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridge.identity import BRIDGE_VERSION, PROTOCOL_MAJOR, PROTOCOL_VERSION
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


@dataclass(frozen=True)
class HelloPayload:
    extension_version: str = ""
    protocol: str = PROTOCOL_VERSION


def parse(payload: dict[str, Any]) -> HelloPayload:
    values = {}
    for key in ("extension_version", "protocol"):
        value = payload.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > 100:
            raise RelayError(ErrorCode.BAD_PAYLOAD, f"{key}: must be a short string")
        values[key] = value
    return HelloPayload(**values)


def handle(runtime: Runtime, payload: HelloPayload, request: Request) -> dict[str, Any]:
    major = payload.protocol.split(".", 1)[0]
    if major != str(PROTOCOL_MAJOR):
        raise RelayError(
            ErrorCode.UNSUPPORTED_VERSION,
            f"extension speaks protocol {payload.protocol}; this bridge speaks {PROTOCOL_VERSION}."
            " Update the older of the two.",
        )
    runtime.warm_up()
    return {
        "bridge_version": BRIDGE_VERSION,
        "protocol": PROTOCOL_VERSION,
        "capabilities": runtime.capabilities(),
        "profile": runtime.profile_hint(),
    }
