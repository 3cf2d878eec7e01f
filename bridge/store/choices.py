"""The resume or cover letter chosen for one job page, per profile (the side panel's "Fill
with"). Kept in the store so a profile's export carries them and deleting the profile deletes
them (the rows cascade with it); the file named is sealed when encryption is on."""

from __future__ import annotations

from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query, scalar, transaction

MAX_CHOICES = 500  # job pages remembered per profile; the oldest choices go first


def context(profile_id: int, job: str, kind: str) -> str:
    """What a sealed choice is bound to: its row."""
    return f"document_choices:{profile_id}:{job}:{kind}"


def _profile_id(conn: apsw.Connection, profile: str) -> int | None:
    found = scalar(conn, "SELECT id FROM profiles WHERE name = ?", (profile,))
    return int(found) if found is not None else None


def choose(
    conn: apsw.Connection, profile: str, job: str, kind: str, ref: str, cipher: Cipher | None
) -> None:
    """Remember `ref` as the file for this job (`""`: back to the profile's default)."""
    with transaction(conn):
        profile_id = _profile_id(conn, profile)
        if profile_id is None:
            return
        conn.execute("DELETE FROM document_choices WHERE profile_id = ? AND job = ? AND kind = ?",
                     (profile_id, job, kind))
        if not ref:
            return
        body, sealed = pack(cipher, ref, context(profile_id, job, kind))
        conn.execute(
            "INSERT INTO document_choices(profile_id, job, kind, ref, sealed, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (profile_id, job, kind, body, sealed, now_iso()),
        )
        # The oldest job pages go once a profile remembers too many.
        conn.execute(
            "DELETE FROM document_choices WHERE profile_id = ? AND job NOT IN ("
            " SELECT job FROM document_choices WHERE profile_id = ?"
            " GROUP BY job ORDER BY max(updated_at) DESC, max(rowid) DESC LIMIT ?)",
            (profile_id, profile_id, MAX_CHOICES),
        )


def chosen(
    conn: apsw.Connection, profile: str, job: str, kind: str, cipher: Cipher | None
) -> str:
    """The file chosen for this job, or "" (the default)."""
    rows = query(
        conn,
        "SELECT c.* FROM document_choices c JOIN profiles p ON p.id = c.profile_id"
        " WHERE p.name = ? AND c.job = ? AND c.kind = ?",
        (profile, job, kind),
    )
    if not rows:
        return ""
    row = rows[0]
    return unpack(cipher, row["ref"], row["sealed"], context(row["profile_id"], job, kind)) or ""


def listed(conn: apsw.Connection, profile: str, cipher: Cipher | None) -> list[dict[str, Any]]:
    """Every choice the profile keeps, oldest first: `{job, kind, ref}`."""
    rows = query(
        conn,
        "SELECT c.* FROM document_choices c JOIN profiles p ON p.id = c.profile_id"
        " WHERE p.name = ? ORDER BY c.updated_at, c.rowid",
        (profile,),
    )
    out = []
    for r in rows:
        ref = unpack(cipher, r["ref"], r["sealed"], context(r["profile_id"], r["job"], r["kind"]))
        out.append({"job": r["job"], "kind": r["kind"], "ref": ref})
    return out


def adopt(
    conn: apsw.Connection, profile: str, entries: dict[str, dict[str, str]], cipher: Cipher | None
) -> int:
    """Take choices kept by an older Relay (a file beside the documents, newest last) into the
    store; a choice the store already has for that job wins. Returns how many were taken."""
    taken = 0
    with transaction(conn):
        profile_id = _profile_id(conn, profile)
        if profile_id is None:
            return 0
        now = now_iso()
        for job, kinds in entries.items():
            for kind, ref in kinds.items():
                if kind not in ("resume", "coverLetter") or not isinstance(ref, str) or not ref:
                    continue
                body, sealed = pack(cipher, ref, context(profile_id, job, kind))
                conn.execute(
                    "INSERT OR IGNORE INTO document_choices(profile_id, job, kind, ref, sealed,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (profile_id, job, kind, body, sealed, now),
                )
                taken += conn.changes()
    return taken
