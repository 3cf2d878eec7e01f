"""`cost.summary`: what the model calls cost, in all and by run, day and month (`relay cost`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class CostRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")


PAYLOAD_MODEL = CostRequest


def parse(payload: dict[str, Any]) -> CostRequest:
    return validate_payload(CostRequest, payload)


def handle(runtime: Runtime, payload: CostRequest, request: Request) -> dict[str, Any]:
    return runtime.cost_summary()
