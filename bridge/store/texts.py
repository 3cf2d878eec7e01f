"""Cached page text and drafted answers of a run: sealed with AES-256-GCM when encryption is on."""

from __future__ import annotations

import apsw

from bridge.clock import now_iso
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query

PAGE = "page"
DRAFT = "draft"
# What a streamed plan still has to ask the model (the snapshot and the open fields), kept until
# the answers are stored as deliveries, so a bridge restart asks again instead of losing them.
MODEL_JOB = "model-job"


def _context(run_id: str, kind: str, name: str) -> str:
    return f"texts:{run_id}:{kind}:{name}"


def put(
    conn: apsw.Connection, run_id: str, kind: str, name: str, body: str, cipher: Cipher | None
) -> None:
    stored, sealed = pack(cipher, body, _context(run_id, kind, name))
    conn.execute(
        "INSERT INTO texts(run_id, kind, name, body, sealed, created_at) VALUES (?,?,?,?,?,?)"
        " ON CONFLICT(run_id, kind, name) DO UPDATE SET body = excluded.body,"
        " sealed = excluded.sealed",
        (run_id, kind, name, stored, sealed, now_iso()),
    )


def get(
    conn: apsw.Connection, run_id: str, kind: str, name: str, cipher: Cipher | None
) -> str | None:
    """The text, or None when absent or sealed without a key at hand."""
    rows = query(
        conn,
        "SELECT body, sealed FROM texts WHERE run_id = ? AND kind = ? AND name = ?",
        (run_id, kind, name),
    )
    if not rows:
        return None
    return unpack(cipher, rows[0]["body"], rows[0]["sealed"], _context(run_id, kind, name))


def open_jobs(conn: apsw.Connection, cipher: Cipher | None) -> list[tuple[str, str, str]]:
    """(run id, name, body) of every model job of a run still open, oldest first."""
    rows = query(
        conn,
        "SELECT t.run_id, t.name, t.body, t.sealed FROM texts t JOIN runs r ON r.id = t.run_id"
        " WHERE t.kind = ? AND r.status IN ('planned', 'applied') ORDER BY t.created_at",
        (MODEL_JOB,),
    )
    out = []
    for row in rows:
        context = _context(row["run_id"], MODEL_JOB, row["name"])
        body = unpack(cipher, row["body"], row["sealed"], context)
        if body is not None:
            out.append((row["run_id"], row["name"], body))
    return out


def drop(conn: apsw.Connection, run_id: str, kind: str, name: str) -> None:
    conn.execute(
        "DELETE FROM texts WHERE run_id = ? AND kind = ? AND name = ?", (run_id, kind, name)
    )
