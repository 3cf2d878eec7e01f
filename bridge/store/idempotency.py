"""Idempotent requests: the first answer to a request id is stored with the writes it caused, in
the same transaction; a retry with that id gets the stored answer and writes nothing."""

from __future__ import annotations

import json
from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store import blobs
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query
from bridge.store.util import dumps


def _context(request_id: str) -> str:
    return f"requests:{request_id}"


def answered(
    conn: apsw.Connection, request_id: str, cipher: Cipher | None
) -> dict[str, Any] | None:
    rows = query(conn, "SELECT result, sealed FROM requests WHERE id = ?", (request_id,))
    if not rows:
        return None
    text = unpack(cipher, rows[0]["result"], rows[0]["sealed"], _context(request_id))
    if text is None:
        raise RelayError(
            ErrorCode.STORE_FAILED,
            f"the stored answer to request {request_id!r} is encrypted and the key is missing",
        )
    result: dict[str, Any] = blobs.inflate(conn, json.loads(text))
    return result


def remember(
    conn: apsw.Connection,
    request_id: str,
    kind: str,
    run_id: str | None,
    result: dict[str, Any],
    cipher: Cipher | None,
) -> None:
    """Store the answer; call inside the transaction that made the request's writes."""
    if run_id is not None:
        result = blobs.deflate(conn, run_id, result)
    body, sealed = pack(cipher, dumps(result), _context(request_id))
    conn.execute(
        "INSERT INTO requests(id, kind, run_id, result, sealed, created_at) VALUES (?,?,?,?,?,?)",
        (request_id, kind, run_id, body, sealed, now_iso()),
    )
