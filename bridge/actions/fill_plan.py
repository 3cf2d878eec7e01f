"""`fill.plan`: a snapshot of the form in, the fill plan out."""

from __future__ import annotations

from typing import Any

from bridge.actions.validate import validate_payload
from bridge.forms import FillRequest
from bridge.runtime import Runtime


def parse(payload: dict[str, Any]) -> FillRequest:
    return validate_payload(FillRequest, payload)


def handle(runtime: Runtime, payload: FillRequest) -> dict[str, Any]:
    return runtime.plan_fill(payload).model_dump(mode="json")
