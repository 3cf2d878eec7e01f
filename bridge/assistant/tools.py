"""The assistant's tools as plain functions of the runtime: each builds a request of
docs/protocol.md, sends it through `bridge.doors.call`, and shapes what comes back.

Whatever must stay on this computer is taken out of every answer: self-identification answers,
credentials, ID numbers, files. The assistant is another party, often a model somewhere else.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.assistant.tiers import RUNS_ALONE, Tier, tier_of
from bridge.doors import call
from bridge.forms import FieldOption, FillRequest, FormField, FrameSnapshot, Widget
from bridge.llm.privacy import field_privacy
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime

WITHHELD = "kept private: Relay fills this only in your browser, from your profile"
GENERIC = frozenset({"yes", "no", "decline", "none", "other", "n/a", "true", "false"})
APPROVAL_POLL_S = 0.5


class ToolFailed(Exception):
    """A call the assistant gets back as a plain error message."""


class PlanField(BaseModel):
    """One field of a form an assistant describes."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(min_length=1, max_length=1000, description="the question the form asks")
    type: Widget = Field(default=Widget.TEXT, description="the kind of control")
    options: list[str] = Field(default_factory=list, max_length=500,
                               description="the choices, for a list, radio or checkbox group")
    required: bool = False
    section: str = Field(default="", max_length=300, description="the heading above it")
    max_length: int | None = Field(default=None, ge=1)


def _send(runtime: Runtime, tool: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    tier = tier_of(tool)
    if tier not in RUNS_ALONE:
        raise ToolFailed(f"{tool} needs your confirmation in Relay; an assistant cannot run it")
    try:
        return call(runtime, kind, payload, f"mcp:{uuid.uuid4().hex}", action=tool,
                    tier=tier.value)
    except RelayError as exc:
        if exc.code is ErrorCode.UNKNOWN_TYPE:
            raise ToolFailed(
                f"{tool} is not available in this version of Relay (it has no {kind!r} request)"
            ) from exc
        raise ToolFailed(f"{exc.code.value}: {exc.message}") from exc


def save_answer(
    runtime: Runtime, question: str, answer: str, section: str, options: list[str],
    wait_s: float,
) -> dict[str, Any]:
    """Ask the person to save an answer: it waits as a pending approval, saved only once they
    approve it (`relay approvals approve N`). Waits up to `wait_s` for their decision."""
    from bridge.clock import now_iso
    from bridge.learn.models import AnswerSave, Question

    tool = "save_answer"
    if tier_of(tool) is not Tier.APPROVE:
        raise ToolFailed(f"{tool} is not available to an assistant")
    field = FormField(id="q", label=question, section=section,
                      options=[FieldOption(value=o, text=o) for o in options])
    if field_privacy(field) is not None:
        raise ToolFailed("a self-identification, credential or ID-number answer is saved only "
                         "by the person, in Relay")
    payload = AnswerSave(
        question=Question(label=question, section=section, options=options), value=answer
    ).model_dump(mode="json")
    started = now_iso()
    try:
        store = runtime.store()
        approval_id = store.ask_approval("answer.save", f"{runtime.door}.{tool}", payload)
        runtime.record_call(tool, {"kind": "answer.save", "tier": Tier.APPROVE.value,
                                   "approval_id": approval_id}, run_id=None, started=started)
    except RelayError as exc:
        raise ToolFailed(f"{exc.code.value}: {exc.message}") from exc
    deadline = time.monotonic() + wait_s
    row = store.approval(approval_id)
    while row["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(APPROVAL_POLL_S)
        row = store.approval(approval_id)
    if row["status"] == "denied":
        raise ToolFailed(f"the person declined to save this answer (approval #{approval_id})")
    if row["status"] == "approved":
        return {"status": "saved", "approval_id": approval_id, **row["result"]}
    return {
        "status": "pending", "approval_id": approval_id,
        "note": f"Waiting for the person: `relay approvals approve {approval_id}` saves it, "
        f"`relay approvals deny {approval_id}` drops it.",
    }


def _self_id_answers(runtime: Runtime) -> set[str]:
    from bridge.profile_summary import self_id_answers

    try:
        loaded, _ = runtime.profile()
    except RelayError:
        return set()
    return {v.casefold() for v in self_id_answers(loaded) if v.casefold() not in GENERIC}


def _holds_private(values: list[str], private: set[str]) -> bool:
    return any(p in v.casefold() for v in values for p in private)


def list_applications(runtime: Runtime, include_unsubmitted: bool, limit: int) -> dict[str, Any]:
    payload = {"include_unsubmitted": include_unsubmitted, "limit": limit}
    return _read(runtime, "list_applications", "applications.list", payload)


def get_application(runtime: Runtime, application_id: int) -> dict[str, Any]:
    result = _read(runtime, "get_application", "application.get",
                   {"application_id": application_id})
    application = result.get("application")
    if isinstance(application, dict):
        # A submitted field carries no self-identification mark (learn.models.SubmittedField),
        # and the person may have answered on the page otherwise than in their profile: what
        # the question asks decides.
        application["fields"] = [_submitted_field(f) for f in application.get("fields", [])]
    return result


def _submitted_field(field: dict[str, Any]) -> dict[str, Any]:
    asked = FormField(
        id=str(field.get("field_id") or "f"), label=str(field.get("label", "")),
        section=str(field.get("section", "")),
        options=[FieldOption(value=str(o), text=str(o)) for o in field.get("options", [])],
    )
    if field_privacy(asked) is None:
        return field
    return {**field, "value": WITHHELD, "relay_value": "", "options": []}


def search_saved_answers(runtime: Runtime, query: str, limit: int) -> dict[str, Any]:
    payload: dict[str, Any] = {"limit": limit}
    if query:
        payload["query"] = query
    return _read(runtime, "search_saved_answers", "answers.list", payload)


def _read(runtime: Runtime, tool: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    result = _send(runtime, tool, kind, payload)
    kept: dict[str, Any] = _without_self_id(result, _self_id_answers(runtime)) or {}
    return kept


def _without_self_id(value: Any, private: set[str]) -> Any:
    """Drop every record marked self-identification, and any text holding such an answer."""
    if isinstance(value, dict):
        if value.get("self_id") is True:
            return None
        out = {k: _without_self_id(v, private) for k, v in value.items()}
        return {k: v for k, v in out.items() if v is not None}
    if isinstance(value, list):
        kept = [_without_self_id(v, private) for v in value]
        return [v for v in kept if v is not None]
    if isinstance(value, str) and _holds_private([value], private):
        return WITHHELD
    return value


def profile_summary(runtime: Runtime) -> dict[str, Any]:
    return _send(runtime, "profile_summary", "profile.summary", {})


def draft_answer(
    runtime: Runtime, question: str, job_text: str, job_title: str, url: str,
    max_length: int | None,
) -> dict[str, Any]:
    payload: dict[str, Any] = {"question": question, "job_text": job_text, "title": job_title,
                               "url": url}
    if max_length is not None:
        payload["max_length"] = max_length
    result = _send(runtime, "draft_answer", "answer.draft", payload)
    if _holds_private([result.get("draft", "")], _self_id_answers(runtime)):
        result = {**result, "draft": "", "status": "leave", "reason": WITHHELD, "cites": []}
    return result


def plan_fill(
    runtime: Runtime, fields: list[PlanField], url: str, title: str, job_text: str
) -> dict[str, Any]:
    form = [_form_field(i, f) for i, f in enumerate(fields, start=1)]
    request = FillRequest(
        url=url, title=title, job_text=job_text,
        frames=[FrameSnapshot(url=url, title=title, fields=form)],
    )
    plan = _send(runtime, "plan_fill", "fill.plan", request.model_dump(mode="json"))
    private = _self_id_answers(runtime)
    by_id = {f.id: f for f in form}
    decisions = [
        _shown(d, by_id[d["field_id"]], private)
        for d in plan["decisions"]
        if d["field_id"] in by_id
    ]
    return {
        "run_id": plan["run_id"],
        "decisions": decisions,
        "llm_status": plan["llm_status"],
        "llm_cost_usd": plan["llm_cost_usd"],
        "note": "Relay only planned these answers; the person fills the page with the extension "
        "and clicks Submit.",
    }


def _form_field(index: int, field: PlanField) -> FormField:
    return FormField(
        id=f"f{index}",
        widget=field.type,
        tag={Widget.TEXTAREA: "textarea", Widget.SELECT: "select"}.get(field.type, "input"),
        label=field.label,
        section=field.section,
        required=field.required,
        max_length=field.max_length,
        options=[FieldOption(value=o, text=o) for o in field.options],
    )


def _shown(decision: dict[str, Any], field: FormField, private: set[str]) -> dict[str, Any]:
    shown = {
        "label": field.label,
        "action": decision["action"],
        "value": decision["value"],
        "values": decision["values"],
        "checked": decision["checked"],
        "status": decision["status"],
        "source": decision["source"],
        "confidence": decision["confidence"],
        "reason": decision["reason"],
        "cites": decision.get("cites", []),
    }
    secret = (
        field_privacy(field) is not None
        or str(decision.get("key", "")).startswith("eeo.")
        or decision["action"] == "attach"
        or _holds_private([decision["value"], *decision["values"]], private)
    )
    if secret:
        shown.update(value="", values=[], checked=None, cites=[], reason=WITHHELD)
    return shown
