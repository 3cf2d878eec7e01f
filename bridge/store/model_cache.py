"""Model answers cached by prompt fingerprint: drafted text, sealed when encryption is on."""

from __future__ import annotations

import json
from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query
from bridge.store.util import dumps


def _context(fingerprint: str) -> str:
    return f"answer_cache:{fingerprint}"


def put(
    conn: apsw.Connection, fingerprint: str, model: str, body: dict[str, Any],
    cipher: Cipher | None,
) -> None:
    stored, sealed = pack(cipher, dumps(body), _context(fingerprint))
    conn.execute(
        "INSERT INTO answer_cache(fingerprint, model, body, sealed, created_at)"
        " VALUES (?,?,?,?,?) ON CONFLICT(fingerprint) DO UPDATE SET model = excluded.model,"
        " body = excluded.body, sealed = excluded.sealed, created_at = excluded.created_at",
        (fingerprint, model, stored, sealed, now_iso()),
    )


def get(conn: apsw.Connection, fingerprint: str, cipher: Cipher | None) -> dict[str, Any] | None:
    """{"model", "text", "tokens_in", "tokens_out"}; None when absent or sealed without a key."""
    rows = query(
        conn, "SELECT model, body, sealed FROM answer_cache WHERE fingerprint = ?", (fingerprint,)
    )
    if not rows:
        return None
    text = unpack(cipher, rows[0]["body"], rows[0]["sealed"], _context(fingerprint))
    if text is None:
        return None
    body: dict[str, Any] = json.loads(text)
    return {"model": rows[0]["model"], **body}
