"""Append-only audit log: who did what, to which run, with what outcome, and at what cost.

Payloads are redacted before they are written: they say which field (id, frame, profile key,
locator) and never what was typed or what the page said. Free text becomes its length only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.forms import ApplyReport, BlockedAttempt, FillPlan
from bridge.store.db import query
from bridge.store.util import dumps, format_e4, to_e4

# Keys whose string values identify things rather than carry the person's or the page's words.
SAFE_KEYS = frozenset(
    {
        "field_id", "frame", "key", "action", "source", "status", "outcome", "kind", "run_id",
        "model", "tier", "ats", "locator", "seq", "up_to_seq", "request_id", "profile_name",
        "code", "what", "scope", "llm_status", "purpose", "phase",
    }
)
# Identifying strings that come from the page and so may, rarely, contain a typed value.
PAGE_KEYS = frozenset({"locator"})
MIN_SECRET_LEN = 3


def _scrub(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, "<redacted>")
    return text


def redact(value: Any, secrets: Iterable[str] = (), *, _key: str = "") -> Any:
    """A copy of `value` safe for the log: free-text strings become `<redacted: N chars>`;
    identifying strings (ids, profile keys, statuses) are kept, and a locator is kept but
    scrubbed of any known secret (profile value)."""
    known = sorted({s for s in secrets if len(s) >= MIN_SECRET_LEN}, key=len, reverse=True)
    return _redact(value, known, _key)


def _redact(value: Any, secrets: list[str], key: str) -> Any:
    if isinstance(value, dict):
        return {str(k): _redact(v, secrets, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(v, secrets, key) for v in value]
    if isinstance(value, str):
        if key in PAGE_KEYS:
            return _scrub(value, secrets)
        if key in SAFE_KEYS:
            return value
        return f"<redacted: {len(value)} chars>" if value else ""
    if value is None or isinstance(value, bool | int | float):
        return value
    return f"<redacted: {type(value).__name__}>"


def profile_secrets(raw: Any) -> list[str]:
    """Every string in a profile document: what must never appear in the log."""
    out: list[str] = []
    if isinstance(raw, dict):
        for value in raw.values():
            out.extend(profile_secrets(value))
    elif isinstance(raw, list):
        for value in raw:
            out.extend(profile_secrets(value))
    elif isinstance(raw, str):
        out.append(raw)
    elif isinstance(raw, int | float) and not isinstance(raw, bool):
        out.append(str(raw))
    return out


def plan_payload(plan: FillPlan) -> dict[str, Any]:
    """What the log says about a plan: per field, which field and what was decided; no values."""
    counts: dict[str, int] = {}
    fields = []
    for decision in plan.decisions:
        counts[decision.status.value] = counts.get(decision.status.value, 0) + 1
        fields.append(
            {
                "field_id": decision.field_id,
                "frame": decision.frame,
                "key": decision.key,
                "locator": decision.locator,
                "action": decision.action.value,
                "source": decision.source.value,
                "status": decision.status.value,
                "confidence": decision.confidence,
                "value_chars": len(decision.value),
            }
        )
    return {"fields": fields, "counts": counts, "llm_calls": plan.llm_calls,
            "llm_status": plan.llm_status}


def applied_payload(report: ApplyReport, matched: int) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for result in report.results:
        counts[result.status.value] = counts.get(result.status.value, 0) + 1
    return {
        "fields": [
            {"field_id": r.field_id, "frame": r.frame, "outcome": r.status.value}
            for r in report.results
        ],
        "counts": counts,
        "matched": matched,
    }


def blocked_payload(blocked: list[BlockedAttempt]) -> dict[str, Any]:
    """What the log says about stopped submissions: how, where and when; the description (which
    may quote the page) only by its length, like all free text."""
    return {
        "attempts": [
            {"kind": b.kind.value, "frame": b.frame, "field_id": b.field_id,
             "phase": b.phase.value, "times": b.times}
            for b in blocked
        ],
        "count": sum(b.times for b in blocked),
    }


def append(
    conn: apsw.Connection,
    *,
    actor: str,
    action: str,
    run_id: str | None = None,
    payload: dict[str, Any] | None = None,
    decision: str = "",
    tokens_in: int = 0,
    tokens_out: int = 0,
    cost_cents: Any = 0,
    status: str = "ok",
    error: str = "",
    started_at: str | None = None,
    ended_at: str | None = None,
    secrets: Iterable[str] = (),
) -> int:
    """Write one entry (payload redacted, error scrubbed of secrets); returns its id."""
    known = sorted({s for s in secrets if len(s) >= MIN_SECRET_LEN}, key=len, reverse=True)
    ended = ended_at or now_iso()
    conn.execute(
        "INSERT INTO audit(started_at, ended_at, actor, action, run_id, payload, decision,"
        " tokens_in, tokens_out, cost_e4, status, error) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            started_at or ended,
            ended,
            actor,
            action,
            run_id,
            dumps(_redact(payload or {}, known, "")),
            _scrub(decision, known),
            int(tokens_in),
            int(tokens_out),
            to_e4(cost_cents),
            status,
            _scrub(error, known)[:2000],
        ),
    )
    return int(conn.last_insert_rowid())


def entries(conn: apsw.Connection, run_id: str | None = None) -> list[dict[str, Any]]:
    """The `relay audit --json` shape, oldest first."""
    where, params = ("WHERE run_id = ?", (run_id,)) if run_id else ("", ())
    rows = query(conn, f"SELECT * FROM audit {where} ORDER BY id", params)
    return [
        {
            "id": row["id"],
            "started_at": row["started_at"],
            "ended_at": row["ended_at"],
            "actor": row["actor"],
            "action": row["action"],
            "run_id": row["run_id"],
            "payload": json.loads(row["payload"]),
            "decision": row["decision"],
            "tokens_in": row["tokens_in"],
            "tokens_out": row["tokens_out"],
            "cost_cents": format_e4(row["cost_e4"]),
            "status": row["status"],
            "error": row["error"],
        }
        for row in rows
    ]
