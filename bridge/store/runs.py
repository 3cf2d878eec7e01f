"""Runs: one per Fill, with one row per field decision and what the page did with it."""

from __future__ import annotations

import json
from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.forms import ApplyReport, FieldDecision, FillPlan, FillRequest, Source
from bridge.protocol.bounds import echo
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query, scalar
from bridge.store.util import dumps, fingerprint, format_e4

STATUSES = ("planned", "applied", "reviewed", "submitted", "abandoned", "failed")
# Which timing column a status sets.
STATUS_COLUMN = {
    "planned": "planned_at",
    "applied": "applied_at",
    "reviewed": "reviewed_at",
    "submitted": "submitted_at",
    "abandoned": "ended_at",
    "failed": "ended_at",
}
DECISION_STATUSES = ("fill", "flag", "leave", "never", "keep")


def snapshot_fingerprint(request: FillRequest) -> str:
    """Same page, same fields, same values: same fingerprint (the job text is left out)."""
    return fingerprint(request.model_dump(mode="json", include={"url", "title", "frames"}))


def _decision_context(run_id: str, seq: int) -> str:
    return f"decisions:{run_id}:{seq}"


def insert_run(
    conn: apsw.Connection,
    *,
    request: FillRequest,
    plan: FillPlan,
    profile_fp: str,
    profile_name: str,
    ats: str,
    started_at: str,
    cipher: Cipher | None,
) -> None:
    """Store a planned run and its decisions. Drafted (model) answers are sealed when encryption
    is on; values from the profile are the person's own data and are stored as they are."""
    now = now_iso()
    conn.execute(
        "INSERT INTO runs(id, client_tag, url, title, ats, snapshot_fp, profile_fp, profile_name,"
        " status, llm_calls, llm_status, timings, started_at, planned_at, updated_at)"
        " VALUES (?,?,?,?,?,?,?,?,'planned',?,?,?,?,?,?)",
        (
            plan.run_id,
            request.client_run_tag,
            request.url,
            request.title,
            ats,
            snapshot_fingerprint(request),
            profile_fp,
            profile_name,
            plan.llm_calls,
            plan.llm_status,
            dumps(plan.timings_ms),
            started_at,
            now,
            now,
        ),
    )
    insert_decisions(conn, plan.run_id, plan.decisions, cipher)


def insert_decisions(
    conn: apsw.Connection, run_id: str, decisions: list[FieldDecision], cipher: Cipher | None
) -> None:
    """Add decisions to a run: one row per field, the last decision wins. A field decided
    again (a later round, the model's answer to a field the plan marked "asking") takes its
    row's place, with no outcome yet; a new field goes after the run's rows."""
    last = int(scalar(conn, "SELECT coalesce(max(seq), 0) FROM decisions WHERE run_id = ?",
                      (run_id,)))
    for decision in decisions:
        had = scalar(
            conn, "SELECT seq FROM decisions WHERE run_id = ? AND frame = ? AND field_id = ?"
            " ORDER BY seq LIMIT 1", (run_id, decision.frame, decision.field_id),
        )
        if had is None:
            last += 1
        seq = last if had is None else int(had)
        value = dumps(
            {"value": decision.value, "values": decision.values, "checked": decision.checked}
        )
        stored, sealed = pack(
            cipher, value, _decision_context(run_id, seq), decision.source is Source.LLM
        )
        conn.execute(
            "INSERT OR REPLACE INTO decisions(run_id, seq, field_id, frame, locator, label, key,"
            " action, value, sealed, file_name, source, confidence, status, reason)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                seq,
                decision.field_id,
                decision.frame,
                decision.locator,
                decision.label,
                decision.key,
                decision.action.value,
                stored,
                sealed,
                decision.file.name if decision.file else "",
                decision.source.value,
                decision.confidence,
                decision.status.value,
                decision.reason,
            ),
        )


def add_round(conn: apsw.Connection, plan: FillPlan, cipher: Cipher | None) -> None:
    """A later round of a run's Fill: its decisions after the run's, its model calls counted."""
    require(conn, plan.run_id)
    insert_decisions(conn, plan.run_id, plan.decisions, cipher)
    conn.execute(
        "UPDATE runs SET llm_calls = llm_calls + ?, updated_at = ? WHERE id = ?",
        (plan.llm_calls, now_iso(), plan.run_id),
    )


def exists(conn: apsw.Connection, run_id: str) -> bool:
    return bool(conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchall())


def require(conn: apsw.Connection, run_id: str) -> None:
    if not exists(conn, run_id):
        raise RelayError(ErrorCode.NOT_FOUND, f"no run {echo(run_id)}")


def record_outcomes(conn: apsw.Connection, report: ApplyReport) -> int:
    """Record what the page did with each decision; a planned run becomes applied.
    Returns how many results matched a decision of the run."""
    require(conn, report.run_id)
    now = now_iso()
    matched = 0
    for result in report.results:
        conn.execute(
            "UPDATE decisions SET outcome = ?, outcome_detail = ?, outcome_at = ?"
            " WHERE run_id = ? AND frame = ? AND field_id = ?",
            (result.status.value, result.detail[:500], now, report.run_id, result.frame,
             result.field_id),
        )
        if not conn.changes():
            # The report may name the frame differently (browser frame id): fall back to the
            # field id alone when it is unambiguous within the run.
            conn.execute(
                "UPDATE decisions SET outcome = ?, outcome_detail = ?, outcome_at = ?"
                " WHERE run_id = ? AND field_id = ? AND (SELECT count(*) FROM decisions"
                " WHERE run_id = ? AND field_id = ?) = 1",
                (result.status.value, result.detail[:500], now, report.run_id, result.field_id,
                 report.run_id, result.field_id),
            )
        matched += 1 if conn.changes() else 0
    conn.execute(
        "UPDATE runs SET status = 'applied', applied_at = coalesce(applied_at, ?), updated_at = ?"
        " WHERE id = ? AND status = 'planned'",
        (now, now, report.run_id),
    )
    return matched


def set_status(conn: apsw.Connection, run_id: str, status: str, error: str = "") -> None:
    if status not in STATUSES:
        raise RelayError(ErrorCode.BAD_PAYLOAD, f"unknown run status {status!r}")
    require(conn, run_id)
    now = now_iso()
    column = STATUS_COLUMN[status]
    conn.execute(
        f"UPDATE runs SET status = ?, {column} = ?, updated_at = ?,"
        " error = CASE WHEN ? = '' THEN error ELSE ? END WHERE id = ?",
        (status, now, now, error, error, run_id),
    )


def _decision_json(row: dict[str, Any], cipher: Cipher | None) -> dict[str, Any]:
    context = _decision_context(row["run_id"], row["seq"])
    plain = unpack(cipher, row["value"], row["sealed"], context)
    locked: dict[str, Any] = {"value": None, "values": [], "checked": None}
    value = json.loads(plain) if plain is not None else locked
    return {
        "seq": row["seq"],
        "field_id": row["field_id"],
        "frame": row["frame"],
        "locator": row["locator"],
        "label": row["label"],
        "key": row["key"],
        "action": row["action"],
        "value": value["value"],
        "values": value["values"],
        "checked": value["checked"],
        "file_name": row["file_name"],
        "encrypted": bool(row["sealed"]),
        "source": row["source"],
        "confidence": row["confidence"],
        "status": row["status"],
        "reason": row["reason"],
        "outcome": row["outcome"],
        "outcome_detail": row["outcome_detail"],
        "outcome_at": row["outcome_at"],
    }


def source_counts(items: list[dict[str, Any]]) -> dict[str, int]:
    """Values Relay gave (verdict fill or flag) per source, as `source:<source>` keys: the same
    count as `relay fill`'s report (bridge.driver.report.count) and the review panel."""
    counts = {"source:profile": 0, "source:saved_answer": 0, "source:llm": 0}
    for item in items:
        if item["status"] in ("fill", "flag"):
            key = f"source:{item['source']}"
            counts[key] = counts.get(key, 0) + 1
    return counts


def last_per_field(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One decision per field, the latest: runs stored before a field decided again took its
    own row's place have a row per decision. Fields keep their place."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for item in items:
        latest[(str(item.get("frame", "")), str(item.get("field_id", "")))] = item
    return list(latest.values())


def history(
    conn: apsw.Connection, cipher: Cipher | None, run_id: str | None = None
) -> list[dict[str, Any]]:
    """Runs, oldest first, each with its decisions and cost: the `relay history --json` shape."""
    where, params = ("WHERE r.id = ?", (run_id,)) if run_id else ("", ())
    runs = query(
        conn,
        "SELECT r.*, (SELECT coalesce(sum(cost_e4), 0) FROM ledger l WHERE l.run_id = r.id)"
        f" AS cost_e4 FROM runs r {where} ORDER BY r.started_at, r.id",
        params,
    )
    decisions: dict[str, list[dict[str, Any]]] = {}
    for row in query(
        conn,
        "SELECT d.* FROM decisions d JOIN runs r ON r.id = d.run_id"
        f" {where.replace('r.id', 'd.run_id')} ORDER BY d.run_id, d.seq",
        params,
    ):
        decisions.setdefault(row["run_id"], []).append(_decision_json(row, cipher))
    out = []
    for run in runs:
        items = last_per_field(decisions.get(run["id"], []))
        counts = {status: 0 for status in DECISION_STATUSES}
        for item in items:
            counts[item["status"]] = counts.get(item["status"], 0) + 1
        counts.update(source_counts(items))
        out.append(
            {
                "run_id": run["id"],
                "status": run["status"],
                "url": run["url"],
                "title": run["title"],
                "ats": run["ats"],
                "client_tag": run["client_tag"],
                "profile_name": run["profile_name"],
                "snapshot_fingerprint": run["snapshot_fp"],
                "profile_fingerprint": run["profile_fp"],
                "llm_calls": run["llm_calls"],
                "llm_status": run["llm_status"],
                "cost_cents": format_e4(run["cost_e4"]),
                "error": run["error"],
                "timings_ms": json.loads(run["timings"]),
                "started_at": run["started_at"],
                "planned_at": run["planned_at"],
                "applied_at": run["applied_at"],
                "reviewed_at": run["reviewed_at"],
                "submitted_at": run["submitted_at"],
                "ended_at": run["ended_at"],
                "updated_at": run["updated_at"],
                "counts": {
                    "decisions": len(items),
                    **counts,
                    "applied": sum(1 for item in items if item["outcome"] == "applied"),
                },
                "decisions": items,
            }
        )
    return out

