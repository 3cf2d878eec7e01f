"""Requests waiting for the person's confirmation (the APPROVE tier): asked, listed, decided."""

from __future__ import annotations

import json
from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query
from bridge.store.util import dumps

STATUSES = ("pending", "approved", "denied")


def _context(approval_id: int) -> str:
    return f"approvals:{approval_id}"


def ask(
    conn: apsw.Connection, kind: str, tool: str, payload: dict[str, Any], cipher: Cipher | None
) -> int:
    """Record a request that waits for the person; returns its id."""
    conn.execute(
        "INSERT INTO approvals(kind, tool, payload, created_at) VALUES (?, ?, '', ?)",
        (kind, tool, now_iso()),
    )
    approval_id = int(conn.last_insert_rowid())
    body, sealed = pack(cipher, dumps(payload), _context(approval_id))
    conn.execute("UPDATE approvals SET payload = ?, sealed = ? WHERE id = ?",
                 (body, sealed, approval_id))
    return approval_id


def listed(
    conn: apsw.Connection, cipher: Cipher | None, status: str | None = None
) -> list[dict[str, Any]]:
    where, params = ("WHERE status = ?", (status,)) if status else ("", ())
    rows = query(conn, f"SELECT * FROM approvals {where} ORDER BY id", params)
    return [_row(r, cipher) for r in rows]


def get(conn: apsw.Connection, approval_id: int, cipher: Cipher | None) -> dict[str, Any]:
    rows = query(conn, "SELECT * FROM approvals WHERE id = ?", (approval_id,))
    if not rows:
        raise RelayError(ErrorCode.NOT_FOUND, f"no approval #{approval_id}")
    return _row(rows[0], cipher)


def decide(
    conn: apsw.Connection, approval_id: int, status: str, result: dict[str, Any]
) -> None:
    """Settle a pending request once: approved (with what it answered) or denied."""
    conn.execute(
        "UPDATE approvals SET status = ?, result = ?, decided_at = ?"
        " WHERE id = ? AND status = 'pending'",
        (status, dumps(result), now_iso(), approval_id),
    )
    if not conn.changes():
        raise RelayError(ErrorCode.NOT_FOUND, f"no pending approval #{approval_id}")


def _row(row: dict[str, Any], cipher: Cipher | None) -> dict[str, Any]:
    text = unpack(cipher, row["payload"], row["sealed"], _context(row["id"]))
    return {
        "approval_id": row["id"],
        "kind": row["kind"],
        "tool": row["tool"],
        "payload": json.loads(text) if text else None,  # None: sealed and the key is missing
        "status": row["status"],
        "result": json.loads(row["result"]),
        "created_at": row["created_at"],
        "decided_at": row["decided_at"],
    }
