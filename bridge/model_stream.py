"""Model answers that stream in (docs/protocol.md, "Model answers that stream in").

A streamed `fill.plan` answers at once with the rules' and saved answers' decisions; the fields
left for the model go out marked `asking`. The model is asked on a worker thread; each outcome,
once past the answer checks and the fabrication guard (an answer, or a refusal with its reason),
is stored as a sequenced delivery of the run and sent as a `fill.answer` event. Until then the
job itself is stored, so a bridge that dies mid-way asks again on the next connection instead of
losing the answers.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel

from bridge.forms import FieldDecision, FillRequest

ASKING_REASON = "asking the model"
EVENT_KIND = "fill.answer"


class ModelJob(BaseModel):
    """What the model still has to answer for one plan (one round) of a run."""

    run_id: str
    request: FillRequest
    decisions: list[FieldDecision]  # the open fields, as the rules left them


def job_name(request_key: str) -> str:
    """A short, stable name for the job of the plan answered under `request_key`."""
    return hashlib.sha256(request_key.encode()).hexdigest()[:24]


def group_key(name: str, outcomes: list[FieldDecision]) -> str:
    """The idempotency key of one group of a job's outcomes (the fields it settles)."""
    fields = ",".join(sorted(f"{d.frame}/{d.field_id}" for d in outcomes))
    return f"model:{name}:{hashlib.sha256(fields.encode()).hexdigest()[:16]}"


def settled_keys(decisions: list[FieldDecision]) -> set[tuple[str, str]]:
    return {(d.frame, d.field_id) for d in decisions}


def mark_asking(
    decisions: list[FieldDecision], asked: list[FieldDecision]
) -> list[FieldDecision]:
    """The plan as sent at once: each field the model is asked about says so."""
    keys = {(d.frame, d.field_id) for d in asked}
    return [
        d.model_copy(update={"asking": True, "reason": ASKING_REASON})
        if (d.frame, d.field_id) in keys
        else d
        for d in decisions
    ]


def answer_event(delivery: Any, llm: dict[str, Any]) -> dict[str, Any]:
    """The event that carries one stored model outcome to the extension."""
    return {
        "kind": EVENT_KIND,
        "run_id": delivery.run_id,
        "seq": delivery.seq,
        "delivery": delivery.kind,
        "decision": delivery.payload,
        "llm": llm,
    }
