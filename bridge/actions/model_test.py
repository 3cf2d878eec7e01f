"""`model.test`: one small call to a tier's model, to show the person the model and key work.

It goes through the same caller as a Fill: under the caps, into the ledger and the audit log.
Nothing from the profile is sent.
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.llm.config import Tier
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime

# The shape every Relay model call answers in (a `fields` object), so the same parser reads it.
SYSTEM = {"role": "system", "content": 'Reply with the JSON object {"fields": {"ok": "yes"}}.'}
FORMAT = {
    "type": "json_schema",
    "json_schema": {"name": "check", "strict": True, "schema": {
        "type": "object",
        "properties": {"fields": {
            "type": "object", "properties": {"ok": {"type": "string"}}, "required": ["ok"],
            "additionalProperties": False,
        }},
        "required": ["fields"], "additionalProperties": False,
    }},
}


class ModelTestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tier: Tier = Tier.FAST


PAYLOAD_MODEL = ModelTestRequest


def parse(payload: dict[str, Any]) -> ModelTestRequest:
    return validate_payload(ModelTestRequest, payload)


def handle(runtime: Runtime, payload: ModelTestRequest, request: Request) -> dict[str, Any]:
    from bridge import config_file
    from bridge.llm.calls import Caller
    from bridge.llm.config import load_config
    from bridge.llm.ledger import CachedAnswer
    from bridge.store.llm_ledger import StoreLlmLedger

    config = load_config(path=config_file.config_path(runtime.home))
    model = config.model_for(payload.tier)
    result: dict[str, Any] = {"tier": payload.tier.value, "model": model, "ok": False}
    if not config.enabled:
        return {**result, "reason": "No model is set up: add an API key, or a local model server."}
    if not model:
        return {**result, "reason": f"The {payload.tier.value} tier is off."}
    config = config.model_copy(update={"retries": 0})  # one try: the person is waiting
    caller = Caller(config=config, ledger=StoreLlmLedger(runtime.store(), CachedAnswer),
                    run_id="model-test")
    # A new prompt each time: an answer from the cache would prove nothing.
    messages = [SYSTEM, {"role": "user", "content": f"Are you there? ({uuid.uuid4().hex})"}]
    reply = caller.ask(payload.tier, "model.test", messages, FORMAT)
    call = caller.calls[-1] if caller.calls else None
    if reply is None:
        why = caller.stopped or "; ".join(caller.problems) or "no answer"
        return {**result, "reason": f"The model did not answer: {why}."}
    return {**result, "ok": True, "reason": "The model answered.",
            "cost_usd": round(call.cost_usd, 6) if call else 0.0,
            "duration_ms": round(call.duration_ms or 0.0) if call else 0}
