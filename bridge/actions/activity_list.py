"""`activity.list`: the audit log, newest first, optionally the entries that match a text."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class ActivityRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(default="", max_length=200)  # matched in action, actor, status, run, error
    limit: int = Field(default=200, ge=1, le=1000)


PAYLOAD_MODEL = ActivityRequest


def parse(payload: dict[str, Any]) -> ActivityRequest:
    return validate_payload(ActivityRequest, payload)


def _matches(entry: dict[str, Any], words: list[str]) -> bool:
    # The payload is already redacted in the log: searching it reveals nothing new.
    text = " ".join([
        entry["action"], entry["actor"], entry["status"], entry["run_id"] or "", entry["error"],
        json.dumps(entry["payload"], ensure_ascii=False),
    ]).lower()
    return all(word in text for word in words)


def handle(runtime: Runtime, payload: ActivityRequest, request: Request) -> dict[str, Any]:
    entries = runtime.store().audit_entries()
    words = payload.query.lower().split()
    found = [e for e in reversed(entries) if _matches(e, words)]
    return {"entries": found[: payload.limit], "total": len(entries), "matched": len(found)}
