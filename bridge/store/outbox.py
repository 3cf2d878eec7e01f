"""Delivery outbox: a run's plan as sequenced deliveries that survive restarts.

The extension acknowledges `{run, up_to_seq}` (cumulative, like TCP); whatever is not acknowledged
is replayed after a restart. Acknowledging again, or past the end, changes nothing, and the
extension skips a `(run, seq)` it has already applied, so nothing is applied twice.
"""

from __future__ import annotations

import json
from typing import Any

import apsw
from pydantic import BaseModel

from bridge.clock import now_iso
from bridge.forms import Action, FillPlan
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store import blobs
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query, scalar
from bridge.store.runs import require
from bridge.store.util import dumps

DECISION_KIND = "fill.decision"


class Delivery(BaseModel):
    run_id: str
    seq: int
    kind: str
    payload: dict[str, Any]
    sent_count: int = 0
    created_at: str = ""


def plan_deliveries(plan: FillPlan) -> list[tuple[str, dict[str, Any]]]:
    """The default split: one delivery per decision that does something, in plan order."""
    return [
        (DECISION_KIND, decision.model_dump(mode="json"))
        for decision in plan.decisions
        if decision.action is not Action.NONE
    ]


def number_after(conn: apsw.Connection, plan: FillPlan) -> None:
    """Give a later round's decisions the seqs `enqueue` will give their deliveries."""
    last = int(scalar(
        conn, "SELECT coalesce(max(seq), 0) FROM deliveries WHERE run_id = ?", (plan.run_id,)
    ))
    for decision in plan.decisions:
        if decision.action is not Action.NONE:
            last += 1
            decision.seq = last


def _context(run_id: str, seq: int) -> str:
    return f"deliveries:{run_id}:{seq}"


def enqueue(
    conn: apsw.Connection,
    run_id: str,
    items: list[tuple[str, dict[str, Any]]],
    cipher: Cipher | None,
) -> list[Delivery]:
    """Append deliveries after the run's last sequence number (call inside a transaction)."""
    last = scalar(conn, "SELECT coalesce(max(seq), 0) FROM deliveries WHERE run_id = ?", (run_id,))
    now = now_iso()
    out = []
    for offset, (kind, payload) in enumerate(items, start=1):
        seq = int(last) + offset
        kept = blobs.deflate(conn, run_id, payload)
        body, sealed = pack(cipher, dumps(kept), _context(run_id, seq))
        conn.execute(
            "INSERT INTO deliveries(run_id, seq, kind, payload, sealed, created_at)"
            " VALUES (?,?,?,?,?,?)",
            (run_id, seq, kind, body, sealed, now),
        )
        out.append(Delivery(run_id=run_id, seq=seq, kind=kind, payload=payload, created_at=now))
    return out


def mark_sent(conn: apsw.Connection, deliveries: list[Delivery]) -> None:
    now = now_iso()
    for item in deliveries:
        conn.execute(
            "UPDATE deliveries SET sent_count = sent_count + 1, last_sent_at = ?"
            " WHERE run_id = ? AND seq = ? AND acked_at IS NULL",
            (now, item.run_id, item.seq),
        )


def ack(conn: apsw.Connection, run_id: str, up_to_seq: int) -> int:
    """Acknowledge every delivery of the run up to and including `up_to_seq`; returns how many
    were newly acknowledged. The payload copy is dropped: replay no longer needs it."""
    require(conn, run_id)
    conn.execute(
        "UPDATE deliveries SET acked_at = ?, payload = '', sealed = 0"
        " WHERE run_id = ? AND seq <= ? AND acked_at IS NULL",
        (now_iso(), run_id, up_to_seq),
    )
    return int(conn.changes())


def pending(
    conn: apsw.Connection, cipher: Cipher | None, run_id: str | None = None
) -> list[Delivery]:
    """Unacknowledged deliveries of open runs, by run (oldest first) then sequence."""
    where, params = ("AND d.run_id = ?", (run_id,)) if run_id else ("", ())
    rows = query(
        conn,
        "SELECT d.* FROM deliveries d JOIN runs r ON r.id = d.run_id"
        # A run the person ended (reviewed, submitted, abandoned) or that failed is not replayed.
        " WHERE d.acked_at IS NULL AND r.status IN ('planned', 'applied')"
        f" {where} ORDER BY r.started_at, d.run_id, d.seq",
        params,
    )
    out = []
    for row in rows:
        text = unpack(cipher, row["payload"], row["sealed"], _context(row["run_id"], row["seq"]))
        if text is None:
            raise RelayError(
                ErrorCode.STORE_FAILED,
                f"delivery {row['run_id']}#{row['seq']} is encrypted and the key is missing",
            )
        out.append(
            Delivery(
                run_id=row["run_id"],
                seq=row["seq"],
                kind=row["kind"],
                payload=blobs.inflate(conn, json.loads(text)),
                sent_count=row["sent_count"],
                created_at=row["created_at"],
            )
        )
    return out
