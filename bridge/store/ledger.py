"""Cost ledger: one row per model call; sums per run, per day and per month (UTC).

Costs are kept as integers in ten-thousandths of a cent, so sums are exact and a cost has four
decimal places of cents. A call id recorded twice (a retry, a replay) is counted once.
"""

from __future__ import annotations

from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.store.db import query, scalar
from bridge.store.util import format_e4, to_e4


def record_call(
    conn: apsw.Connection,
    *,
    call_id: str,
    run_id: str | None,
    model: str,
    tier: str,
    tokens_in: int,
    tokens_out: int,
    cost_cents: Any,
    at: str | None = None,
) -> bool:
    """Add a call; False (and nothing written) when this call id is already in the ledger."""
    conn.execute(
        "INSERT INTO ledger(call_id, run_id, at, model, tier, tokens_in, tokens_out, cost_e4)"
        " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(call_id) DO NOTHING",
        (call_id, run_id, at or now_iso(), model, tier, int(tokens_in), int(tokens_out),
         to_e4(cost_cents)),
    )
    return bool(conn.changes())


def spent_e4_since(conn: apsw.Connection, since: str) -> int:
    return int(scalar(conn, "SELECT coalesce(sum(cost_e4), 0) FROM ledger WHERE at >= ?",
                      (since,)))


def run_usage(conn: apsw.Connection, run_id: str, since: str) -> dict[str, int]:
    """Calls, tokens and cost of a run's model calls made at or after `since`."""
    row = query(
        conn,
        "SELECT count(*) AS calls, coalesce(sum(tokens_in), 0) AS tokens_in,"
        " coalesce(sum(tokens_out), 0) AS tokens_out, coalesce(sum(cost_e4), 0) AS cost_e4"
        " FROM ledger WHERE run_id = ? AND at >= ?",
        (run_id, since),
    )[0]
    return {key: int(row[key]) for key in ("calls", "tokens_in", "tokens_out", "cost_e4")}


def run_cost_e4(conn: apsw.Connection, run_id: str) -> int:
    return int(scalar(conn, "SELECT coalesce(sum(cost_e4), 0) FROM ledger WHERE run_id = ?",
                      (run_id,)))


def run_tokens(conn: apsw.Connection, run_id: str) -> tuple[int, int]:
    row = query(
        conn,
        "SELECT coalesce(sum(tokens_in), 0) AS tin, coalesce(sum(tokens_out), 0) AS tout"
        " FROM ledger WHERE run_id = ?",
        (run_id,),
    )[0]
    return int(row["tin"]), int(row["tout"])


def _group(conn: apsw.Connection, expr: str, name: str) -> list[dict[str, Any]]:
    rows = query(
        conn,
        f"SELECT {expr} AS g, count(*) AS calls, sum(tokens_in) AS tin, sum(tokens_out) AS tout,"
        f" sum(cost_e4) AS e4 FROM ledger GROUP BY g ORDER BY g",
    )
    return [
        {
            name: row["g"],
            "calls": row["calls"],
            "tokens_in": row["tin"],
            "tokens_out": row["tout"],
            "cost_cents": format_e4(row["e4"]),
        }
        for row in rows
    ]


def summary(conn: apsw.Connection) -> dict[str, Any]:
    """The `relay cost --json` shape."""
    total = query(
        conn,
        "SELECT count(*) AS calls, coalesce(sum(tokens_in), 0) AS tin,"
        " coalesce(sum(tokens_out), 0) AS tout, coalesce(sum(cost_e4), 0) AS e4 FROM ledger",
    )[0]
    return {
        "total": {
            "calls": total["calls"],
            "tokens_in": total["tin"],
            "tokens_out": total["tout"],
            "cost_cents": format_e4(total["e4"]),
        },
        "by_run": _group(conn, "coalesce(run_id, '')", "run_id"),
        "by_day": _group(conn, "substr(at, 1, 10)", "day"),
        "by_month": _group(conn, "substr(at, 1, 7)", "month"),
    }


def calls(conn: apsw.Connection, run_id: str | None = None) -> list[dict[str, Any]]:
    where, params = ("WHERE run_id = ?", (run_id,)) if run_id else ("", ())
    return [
        {
            "call_id": row["call_id"],
            "run_id": row["run_id"],
            "at": row["at"],
            "model": row["model"],
            "tier": row["tier"],
            "tokens_in": row["tokens_in"],
            "tokens_out": row["tokens_out"],
            "cost_cents": format_e4(row["cost_e4"]),
        }
        for row in query(conn, f"SELECT * FROM ledger {where} ORDER BY id", params)
    ]
