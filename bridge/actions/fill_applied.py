"""`fill.applied`: what each frame did with its part of the plan."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.forms import ApplyReport
from bridge.runtime import Runtime


def parse(payload: dict[str, Any]) -> ApplyReport:
    return validate_payload(ApplyReport, payload)


def handle(runtime: Runtime, payload: ApplyReport) -> dict[str, Any]:
    return runtime.record_applied(payload)
