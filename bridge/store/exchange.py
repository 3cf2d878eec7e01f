"""Export everything as one JSON document, and import it into an empty store, exactly.

Rows are written column by column as SQLite holds them (text, integer, real, null), ids and
timestamps included, so an import reproduces `history` and `audit` output to the character.
Sealed values stay sealed: the encryption key is in the keyring, never in an export.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import apsw
from pydantic import BaseModel, ConfigDict, Field

from bridge.clock import now_iso
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.db import open_db, query, scalar, transaction
from bridge.store.schema import LATEST, MIGRATIONS, TABLES

FORMAT = "relay-export"
FORMAT_VERSION = 1


class TableDump(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # export/import only

    columns: list[str]
    rows: list[list[Any]] = Field(default_factory=list)


class ExportDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # export/import only

    format: str
    format_version: int
    schema_version: int
    exported_at: str
    tables: dict[str, TableDump]


def _columns(conn: apsw.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})").fetchall()]


def export_doc(conn: apsw.Connection) -> dict[str, Any]:
    """Everything, read in one transaction so the document is one consistent moment."""
    tables: dict[str, Any] = {}
    with conn:  # a read snapshot across all tables
        version = int(scalar(conn, "PRAGMA user_version"))
        for table in TABLES:
            columns = _columns(conn, table)
            rows = conn.execute(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid"
            ).fetchall()
            tables[table] = {"columns": columns, "rows": [list(row) for row in rows]}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": version,
        "exported_at": now_iso(),
        "tables": tables,
    }


def parse_doc(raw: Any, origin: str) -> ExportDoc:
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RelayError(ErrorCode.BAD_PAYLOAD, f"{origin} is not a Relay export")
    try:
        doc = ExportDoc.model_validate(raw)
    except Exception as exc:
        raise RelayError(ErrorCode.BAD_PAYLOAD, f"{origin}: malformed Relay export: {exc}") from exc
    if doc.format_version != FORMAT_VERSION:
        raise RelayError(
            ErrorCode.BAD_PAYLOAD,
            f"{origin}: export format {doc.format_version} is not supported by this Relay",
        )
    if doc.schema_version > LATEST:
        raise RelayError(
            ErrorCode.BAD_PAYLOAD,
            f"{origin} comes from a newer Relay (database version {doc.schema_version}; this "
            f"Relay knows up to {LATEST}). Update Relay first.",
        )
    return doc


def is_empty(conn: apsw.Connection) -> dict[str, int]:
    """Row counts of tables that hold anything (empty dict: the store is empty)."""
    counts = {table: int(scalar(conn, f"SELECT count(*) FROM {table}")) for table in TABLES}
    return {table: n for table, n in counts.items() if n}


def _insert_all(conn: apsw.Connection, doc: ExportDoc, origin: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in TABLES:
        dump = doc.tables.get(table)
        if dump is None:
            continue
        known = set(_columns(conn, table))
        unknown = [c for c in dump.columns if c not in known]
        if unknown:
            raise RelayError(
                ErrorCode.BAD_PAYLOAD, f"{origin}: table {table} has unknown columns {unknown}"
            )
        marks = ", ".join("?" for _ in dump.columns)
        sql = f"INSERT INTO {table}({', '.join(dump.columns)}) VALUES ({marks})"
        for row in dump.rows:
            if len(row) != len(dump.columns):
                raise RelayError(ErrorCode.BAD_PAYLOAD, f"{origin}: a {table} row is malformed")
            conn.execute(sql, tuple(row))
        counts[table] = len(dump.rows)
    unknown_tables = sorted(set(doc.tables) - set(TABLES))
    if unknown_tables:
        raise RelayError(ErrorCode.BAD_PAYLOAD, f"{origin}: unknown tables {unknown_tables}")
    return counts


def import_doc(
    conn: apsw.Connection,
    db_path: Path,
    doc: ExportDoc,
    origin: str,
    migrations: Sequence[tuple[int, str]] = MIGRATIONS,
) -> dict[str, int]:
    """Load an export into this (empty) store; returns rows imported per table."""
    present = is_empty(conn)
    if present:
        held = ", ".join(f"{n} {table}" for table, n in present.items())
        raise RelayError(
            ErrorCode.STORE_FAILED,
            f"{db_path} already holds data ({held}); import only into an empty RELAY_HOME",
        )
    if doc.schema_version == migrations[-1][0]:
        with transaction(conn):
            counts = _insert_all(conn, doc, origin)
            _check_keys(conn, origin)
        return counts
    # An older export: load it into a scratch database at its own version, migrate that
    # forward, then copy table by table (the schemas now match).
    fd, scratch_name = tempfile.mkstemp(prefix="relay-import-", suffix=".db", dir=db_path.parent)
    os.close(fd)
    scratch = Path(scratch_name)
    scratch.unlink()
    try:
        old = open_db(scratch, migrations=migrations, upto=doc.schema_version)
        try:
            with transaction(old):
                counts = _insert_all(old, doc, origin)
        finally:
            old.close()
        open_db(scratch, migrations=migrations).close()  # migrate to the latest version
        conn.execute("ATTACH DATABASE ? AS src", (str(scratch),))
        try:
            with transaction(conn):
                for table in TABLES:
                    columns = ", ".join(_columns(conn, table))
                    conn.execute(
                        f"INSERT INTO main.{table}({columns}) SELECT {columns} FROM src.{table}"
                        " ORDER BY rowid"
                    )
                _check_keys(conn, origin)
        finally:
            conn.execute("DETACH DATABASE src")
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(scratch) + suffix).unlink(missing_ok=True)
    return counts


def _check_keys(conn: apsw.Connection, origin: str) -> None:
    problems = query(conn, "PRAGMA foreign_key_check")
    if problems:
        raise RelayError(
            ErrorCode.BAD_PAYLOAD,
            f"{origin}: {len(problems)} rows refer to records missing from the export",
        )
