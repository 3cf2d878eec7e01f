"""Document bytes kept once, by hash, for the copies of a plan the store keeps for replay.

`deflate` swaps each `data_b64` in a payload for its hash (recording that the run uses it);
`inflate` puts the bytes back. A blob no run refers to any more is removed by `prune`.
"""

from __future__ import annotations

import hashlib
from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.store.db import scalar

DATA_KEY = "data_b64"
REF_KEY = "data_sha256"


def deflate(conn: apsw.Connection, run_id: str, value: Any) -> Any:
    if isinstance(value, list):
        return [deflate(conn, run_id, item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: deflate(conn, run_id, item) for key, item in value.items()}
    data = out.get(DATA_KEY)
    if isinstance(data, str) and data:
        digest = hashlib.sha256(data.encode("ascii", "replace")).hexdigest()
        conn.execute(
            "INSERT INTO blobs(sha256, data, created_at) VALUES (?, ?, ?)"
            " ON CONFLICT(sha256) DO NOTHING",
            (digest, data, now_iso()),
        )
        conn.execute(
            "INSERT INTO blob_refs(run_id, sha256) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (run_id, digest),
        )
        out[DATA_KEY] = ""
        out[REF_KEY] = digest
    return out


def inflate(conn: apsw.Connection, value: Any) -> Any:
    if isinstance(value, list):
        return [inflate(conn, item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: inflate(conn, item) for key, item in value.items()}
    digest = out.pop(REF_KEY, None)
    if isinstance(digest, str):
        data = scalar(conn, "SELECT data FROM blobs WHERE sha256 = ?", (digest,))
        out[DATA_KEY] = str(data) if data is not None else ""
    return out


def prune(conn: apsw.Connection) -> int:
    """Delete blobs no run refers to; returns how many."""
    conn.execute("DELETE FROM blobs WHERE sha256 NOT IN (SELECT sha256 FROM blob_refs)")
    return int(conn.changes())
