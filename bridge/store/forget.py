"""`forget`: really delete a run (or every run) and everything recorded about it.

Rows are deleted with secure_delete on, and the WAL is checkpointed and truncated afterwards, so
the deleted content is not left readable in the database files.
"""

from __future__ import annotations

import apsw

from bridge.store import blobs
from bridge.store.db import scalar, transaction
from bridge.store.runs import require

# Per table, how its rows belong to a run.
RUN_TABLES: tuple[tuple[str, str], ...] = (
    ("blob_refs", "run_id"),
    ("decisions", "run_id"),
    ("deliveries", "run_id"),
    ("requests", "run_id"),
    ("texts", "run_id"),
    ("audit", "run_id"),
    ("ledger", "run_id"),
)


def _checkpoint(conn: apsw.Connection) -> None:
    try:
        conn.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)
    except apsw.BusyError:
        pass  # a reader holds the WAL; SQLite reuses it, and secure_delete already overwrote


def _forget_applications(conn: apsw.Connection, where: str, params: tuple[str, ...]) -> int:
    """The applications a forgotten run (or every run) led to, with their fields. The saved
    answers they taught stay (the person manages those with `relay answers`), unlinked."""
    ids = [int(r[0]) for r in conn.execute(f"SELECT id FROM applications {where}", params)]
    for app_id in ids:
        conn.execute("UPDATE saved_answers SET application_id = NULL WHERE application_id = ?",
                     (app_id,))
        conn.execute("DELETE FROM applications WHERE id = ?", (app_id,))
    return len(ids)


def forget_run(conn: apsw.Connection, run_id: str) -> dict[str, int]:
    """Delete one run and everything about it; returns rows deleted per table."""
    counts: dict[str, int] = {}
    with transaction(conn):
        require(conn, run_id)
        conn.execute("INSERT INTO forget_guard(held) VALUES (1)")
        counts["runs"] = 1
        for table, column in RUN_TABLES:
            counts[table] = int(
                scalar(conn, f"SELECT count(*) FROM {table} WHERE {column} = ?", (run_id,))
            )
            conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (run_id,))
        conn.execute("DELETE FROM runs WHERE id = ?", (run_id,))
        counts["applications"] = _forget_applications(conn, "WHERE run_id = ?", (run_id,))
        counts["blobs"] = blobs.prune(conn)
        conn.execute("DELETE FROM forget_guard")
    _checkpoint(conn)
    return counts


def forget_all(conn: apsw.Connection) -> dict[str, int]:
    """Delete every run, application, request, cached text and model answer, audit entry and
    ledger row. Profiles, settings and saved answers stay: they are the person's setup, not
    history."""
    counts: dict[str, int] = {}
    with transaction(conn):
        conn.execute("INSERT INTO forget_guard(held) VALUES (1)")
        counts["runs"] = int(scalar(conn, "SELECT count(*) FROM runs"))
        for table, _ in RUN_TABLES:
            counts[table] = int(scalar(conn, f"SELECT count(*) FROM {table}"))
            conn.execute(f"DELETE FROM {table}")
        conn.execute("DELETE FROM runs")
        counts["applications"] = _forget_applications(conn, "", ())
        counts["blobs"] = blobs.prune(conn)
        counts["answer_cache"] = int(scalar(conn, "SELECT count(*) FROM answer_cache"))
        conn.execute("DELETE FROM answer_cache")
        conn.execute("DELETE FROM forget_guard")
    _checkpoint(conn)
    return counts
