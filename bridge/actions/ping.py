"""`ping`: the cheapest round trip, for liveness checks and the round-trip benchmark."""

from __future__ import annotations

import time
from typing import Any

from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


def parse(payload: dict[str, Any]) -> dict[str, Any]:
    return payload  # anything goes; it is echoed nowhere


def handle(runtime: Runtime, payload: dict[str, Any], request: Request) -> dict[str, Any]:
    return {"pong": True, "time": time.time()}
