"""One call through a front door other than the browser's port (HTTP API, MCP): the request goes
through the same dispatcher as native messaging, and the call is audited with its tokens and cost.
"""

from __future__ import annotations

import logging
from typing import Any

from bridge.actions.registry import dispatch
from bridge.clock import now_iso
from bridge.identity import PROTOCOL_MAJOR
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime

log = logging.getLogger(__name__)


def call(
    runtime: Runtime,
    kind: str,
    payload: dict[str, Any],
    request_id: str,
    *,
    action: str = "",
    tier: str = "",
) -> dict[str, Any]:
    """Dispatch `kind` with `payload`; the audit entry is `<door>.<action or kind>`.

    The same `request_id` (an Idempotency-Key) with the same payload gets the first answer of an
    idempotent request and writes nothing new, as on the native port."""
    started = now_iso()
    request = Request(v=PROTOCOL_MAJOR, id=request_id, type=kind, payload=payload)
    try:
        result = dispatch(runtime, request)
    except RelayError as exc:
        _audit(runtime, kind, action, tier, started, None, error=exc)
        raise
    except Exception as exc:
        log.exception("internal error handling %s through %s", kind, runtime.door)
        error = RelayError(ErrorCode.INTERNAL, "internal error in Relay; see its log file")
        _audit(runtime, kind, action, tier, started, None, error=error)
        raise error from exc
    run_id = result.get("run_id")
    _audit(runtime, kind, action, tier, started, run_id if isinstance(run_id, str) else None)
    return result


def _audit(
    runtime: Runtime,
    kind: str,
    action: str,
    tier: str,
    started: str,
    run_id: str | None,
    *,
    error: RelayError | None = None,
) -> None:
    payload: dict[str, Any] = {"kind": kind}
    if tier:
        payload["tier"] = tier
    if error is not None:
        payload["code"] = error.code.value
    try:
        runtime.record_call(action or kind, payload, run_id=run_id, started=started, error=error)
    except RelayError as exc:  # the caller still gets its answer; the log says what was lost
        log.warning("call not audited: %s", exc.message)
