"""What an assistant asked Relay to do that waits for the person (the APPROVE tier): shown as
the person reads it, then approved (the request it holds goes through the one dispatcher) or
denied. `relay approvals` and the extension's console (`approvals.list`, `approval.decide`)
both decide through here; no tool can (docs/mcp.md, docs/http.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from bridge.runtime import Runtime


class ApprovalsQuery(BaseModel):
    """`approvals.list`: those waiting, or with `include_decided` the decided ones too."""

    model_config = ConfigDict(extra="forbid")
    include_decided: bool = False
    limit: int = Field(default=100, ge=1, le=1000)


class ApprovalDecision(BaseModel):
    """`approval.decide`: the person's say-so on one request."""

    model_config = ConfigDict(extra="forbid")
    approval_id: int = Field(ge=1, le=2**31 - 1)
    approve: bool


def shown(row: dict[str, Any]) -> dict[str, Any]:
    """One approval as the person decides it: what would be saved, in the request's words."""
    payload = row["payload"] or {}
    question = payload.get("question") or {}
    return {
        "approval_id": row["approval_id"],
        "kind": row["kind"],
        "asked_by": row["tool"],
        "status": row["status"],
        "created_at": row["created_at"],
        "decided_at": row["decided_at"],
        "question": str(question.get("label", "")),
        "section": str(question.get("section", "")),
        "options": [str(o) for o in question.get("options", [])],
        "value": str(payload.get("value", "")),
        "encrypted": row["payload"] is None,  # sealed, and the key is not at hand
    }


def listing(runtime: Runtime, include_decided: bool, limit: int) -> list[dict[str, Any]]:
    rows = runtime.store().approvals(None if include_decided else "pending")
    return [shown(row) for row in rows[:limit]]


def decide(runtime: Runtime, approval_id: int, approve: bool) -> dict[str, Any]:
    """Approve (send the request it holds, then mark it approved with its answer) or deny."""
    from bridge.doors import call

    store = runtime.store()
    row = store.approval(approval_id)
    if row["status"] != "pending":
        raise RelayError(ErrorCode.NOT_FOUND,
                         f"approval #{approval_id} was {row['status']} already")
    if not approve:
        store.decide_approval(approval_id, "denied", {})
        return {"approval_id": approval_id, "status": "denied", "result": {}}
    if row["payload"] is None:
        raise RelayError(ErrorCode.STORE_FAILED,
                         f"approval #{approval_id} is encrypted and the key is missing")
    result = call(runtime, row["kind"], row["payload"], f"approval:{approval_id}",
                  action=f"approve.{row['kind']}")
    store.decide_approval(approval_id, "approved", result)
    return {"approval_id": approval_id, "status": "approved", "result": result}
