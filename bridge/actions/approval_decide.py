"""`approval.decide`: the person approves or denies one request an assistant made."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.approvals import ApprovalDecision, decide
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

PAYLOAD_MODEL = ApprovalDecision


def parse(payload: dict[str, Any]) -> ApprovalDecision:
    return validate_payload(ApprovalDecision, payload)


def handle(runtime: Runtime, payload: ApprovalDecision, request: Request) -> dict[str, Any]:
    return decide(runtime, payload.approval_id, payload.approve)
