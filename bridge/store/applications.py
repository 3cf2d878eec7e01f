"""Applications: what the person submitted, field by field, and where it stands since."""

from __future__ import annotations

from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.learn.models import ApplicationSubmitted
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query
from bridge.store.util import dumps, loads

# A field's columns sealed when encryption is on: what the person sent, and what Relay had put.
SEALED = ("value", "relay_value")


def context(application_id: int, seq: int, column: str) -> str:
    """What a sealed field value is bound to: its application, its place, its column."""
    base = f"application_fields:{application_id}:{seq}"
    return base if column == SEALED[0] else f"{base}:{column}"


def insert(conn: apsw.Connection, sub: ApplicationSubmitted, ats: str,
           cipher: Cipher | None = None) -> int:
    now = now_iso()
    conn.execute(
        "INSERT INTO applications(run_id, url, page_title, company, job_title, ats, how, files,"
        " submitted_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (sub.run_id, sub.url, sub.page_title, sub.company, sub.job_title, ats, sub.how.value,
         dumps(sub.files), now, now),
    )
    app_id: int = conn.last_insert_rowid()
    for seq, f in enumerate(sub.fields, start=1):
        value, sealed = pack(cipher, f.value, context(app_id, seq, "value"))
        relay_value, _ = pack(cipher, f.relay_value, context(app_id, seq, "relay_value"))
        conn.execute(
            "INSERT INTO application_fields(application_id, seq, field_id, label, section,"
            " options, widget, value, set_by, relay_value, sealed)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (app_id, seq, f.field_id, f.label, f.section, dumps(f.options), f.widget, value,
             f.set_by.value, relay_value, sealed),
        )
    return app_id


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "application_id": row["id"],
        "run_id": row["run_id"],
        "url": row["url"],
        "page_title": row["page_title"],
        "company": row["company"],
        "job_title": row["job_title"],
        "ats": row["ats"],
        "how": row["how"],
        "files": loads(row["files"], []),
        "status": row["status"],
        "notes": row["notes"],
        "submitted_at": row["submitted_at"],
        "updated_at": row["updated_at"],
    }


def listing(conn: apsw.Connection, limit: int = 100) -> list[dict[str, Any]]:
    """Newest first."""
    rows = query(
        conn, "SELECT * FROM applications ORDER BY submitted_at DESC, id DESC LIMIT ?", (limit,)
    )
    return [_summary(r) for r in rows]


def _open(f: dict[str, Any], column: str, cipher: Cipher | None) -> str | None:
    ctx = context(int(f["application_id"]), int(f["seq"]), column)
    return unpack(cipher, f[column], int(f["sealed"] or 0), ctx)


def get(conn: apsw.Connection, application_id: int, cipher: Cipher | None = None
        ) -> dict[str, Any]:
    rows = query(conn, "SELECT * FROM applications WHERE id = ?", (application_id,))
    if not rows:
        raise RelayError(ErrorCode.NOT_FOUND, f"no application {application_id}")
    fields = query(
        conn, "SELECT * FROM application_fields WHERE application_id = ? ORDER BY seq",
        (application_id,),
    )
    return {
        **_summary(rows[0]),
        "fields": [
            {
                "field_id": f["field_id"],
                "label": f["label"],
                "section": f["section"],
                "options": loads(f["options"], []),
                "widget": f["widget"],
                "value": _open(f, "value", cipher),
                "set_by": f["set_by"],
                "relay_value": _open(f, "relay_value", cipher),
                "encrypted": bool(f["sealed"]),
            }
            for f in fields
        ],
    }


def update(
    conn: apsw.Connection, application_id: int, status: str | None, notes: str | None,
    cipher: Cipher | None = None,
) -> dict[str, Any]:
    get(conn, application_id, cipher)
    if status is not None:
        conn.execute("UPDATE applications SET status = ? WHERE id = ?", (status, application_id))
    if notes is not None:
        conn.execute("UPDATE applications SET notes = ? WHERE id = ?", (notes, application_id))
    conn.execute(
        "UPDATE applications SET updated_at = ? WHERE id = ?", (now_iso(), application_id)
    )
    return get(conn, application_id, cipher)


def submitted_runs(conn: apsw.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute(
        "SELECT DISTINCT run_id FROM applications WHERE run_id != ''").fetchall()}
