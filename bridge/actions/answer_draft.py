"""`answer.draft`: one question and the job's text in, a drafted answer and what it rests on out.

The question goes through the same plan as a form's field (rules, saved answers, then the model
behind the answer checks and the fabrication guard), so it is recorded and audited as a run. A
self-identification, credential or ID-number question is never drafted: those are answered in
the page only, from the profile.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.forms import FillRequest, FormField, FrameSnapshot, Widget
from bridge.llm.privacy import field_privacy
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime
from bridge.store import Store

FIELD_ID = "q1"


class DraftRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=2000)
    job_text: str = Field(default="", max_length=200_000)
    title: str = Field(default="", max_length=500)  # the posting's title: a draft may name it
    url: str = Field(default="", max_length=2000)
    max_length: int | None = Field(default=None, ge=1, le=100_000)


PAYLOAD_MODEL = DraftRequest


def parse(payload: dict[str, Any]) -> DraftRequest:
    return validate_payload(DraftRequest, payload)


def question_field(payload: DraftRequest) -> FormField:
    return FormField(
        id=FIELD_ID, tag="textarea", widget=Widget.TEXTAREA, label=payload.question,
        max_length=payload.max_length,
    )


def handle(runtime: Runtime, payload: DraftRequest, request: Request) -> dict[str, Any]:
    field = question_field(payload)
    private = field_privacy(field)
    if private is not None:
        return {
            "draft": "", "status": "leave", "source": "none", "cites": [], "run_id": "",
            "reason": f"{private}: Relay answers it only in the page, from your profile",
            "llm_status": "not asked", "llm_cost_usd": 0.0,
        }
    fill = FillRequest(
        url=payload.url, title=payload.title, job_text=payload.job_text,
        frames=[FrameSnapshot(url=payload.url, title=payload.title, fields=[field])],
    )
    key = Store.request_key(request.type, request.id, request.payload)
    plan = runtime.plan_fill(fill, key)
    decision = plan["decisions"][0]
    drafted = decision["action"] != "none"
    return {
        "draft": decision["value"] if drafted else "",
        "status": decision["status"],
        "source": decision["source"],
        "reason": decision["reason"],
        "cites": decision.get("cites", []),
        "run_id": plan["run_id"],
        "llm_status": plan["llm_status"],
        "llm_cost_usd": plan["llm_cost_usd"],
    }
