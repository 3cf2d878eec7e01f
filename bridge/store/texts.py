"""Cached page text and drafted answers of a run: sealed with AES-256-GCM when encryption is on."""

from __future__ import annotations

import apsw

from bridge.clock import now_iso
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query

PAGE = "page"
DRAFT = "draft"


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
