"""Request type → the module that handles it. Validation and dispatch live here, not in the host.

Each action module defines `parse(payload: dict) -> P` and `handle(runtime, P, request) -> dict`
(the request envelope gives actions that store results their idempotency key), and may name its
payload's pydantic model as `PAYLOAD_MODEL` (the HTTP API's OpenAPI document shows it). Modules
are imported on first use, so `hello` and `ping` answer before the heavier parts are loaded.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bridge.actions.doors_allowed import check
from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from bridge.protocol.envelopes import Request
    from bridge.runtime import Runtime

ACTIONS: dict[str, str] = {
    "hello": "bridge.actions.hello",
    "ping": "bridge.actions.ping",
    "fill.plan": "bridge.actions.fill_plan",
    "fill.applied": "bridge.actions.fill_applied",
    "fill.ack": "bridge.actions.fill_ack",
    "fill.blocked": "bridge.actions.fill_blocked",
    "answer.draft": "bridge.actions.answer_draft",
    "profile.summary": "bridge.actions.profile_summary",
    "cost.summary": "bridge.actions.cost_summary",
    "answer.save": "bridge.actions.answer_save",
    "application.submitted": "bridge.actions.application_submitted",
    "applications.list": "bridge.actions.applications_list",
    "application.get": "bridge.actions.application_get",
    "application.update": "bridge.actions.application_update",
    "answers.list": "bridge.actions.answers_list",
    "answers.update": "bridge.actions.answers_update",
    "answers.delete": "bridge.actions.answers_delete",
    "status": "bridge.actions.status",
    "profile.import": "bridge.actions.profile_import",
    "profile.extract": "bridge.actions.profile_extract",
    "profile.get": "bridge.actions.profile_get",
    "profile.update": "bridge.actions.profile_update",
    "profile.check": "bridge.actions.profile_check",
    "profiles.list": "bridge.actions.profiles_list",
    "profile.activate": "bridge.actions.profile_activate",
    "activity.list": "bridge.actions.activity_list",
    "spending.get": "bridge.actions.spending_get",
    "settings.set": "bridge.actions.settings_set",
    "key.set": "bridge.actions.key_set",
    "model.test": "bridge.actions.model_test",
    "encryption.status": "bridge.actions.encryption_status",
    "encryption.set": "bridge.actions.encryption_set",
    "profile.export": "bridge.actions.profile_export",
    "profile.delete": "bridge.actions.profile_delete",
    "documents.list": "bridge.actions.documents_list",
    "document.add": "bridge.actions.document_add",
    "document.choose": "bridge.actions.document_choose",
    "approvals.list": "bridge.actions.approvals_list",
    "approval.decide": "bridge.actions.approval_decide",
}


def dispatch(runtime: Runtime, request: Request) -> dict[str, Any]:
    module_name = ACTIONS.get(request.type)
    if module_name is None:
        known = ", ".join(sorted(ACTIONS))
        raise RelayError(ErrorCode.UNKNOWN_TYPE, f"unknown type {request.type!r}; known: {known}")
    check(request.type, runtime.door)  # which front doors may send it (doors_allowed.py)
    # The warm-up starts no step while a request is answered, from its first import on: a cold
    # bridge's first plan spends most of its time loading its action and validating the form
    # before the plan itself starts (Runtime.plan_fill holds it too).
    runtime.hold_warm_up()
    try:
        module = importlib.import_module(module_name)
        payload = module.parse(request.payload)
        result: dict[str, Any] = module.handle(runtime, payload, request)
    finally:
        runtime.release_warm_up()
    return result
