"""The database file: creation, migrations, refusals, damage, sqlite-vec in the same connection."""

from __future__ import annotations

import struct
from pathlib import Path

import apsw
import pytest

from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store import Store
from bridge.store.db import DB_FILENAME, integrity_ok, open_db, query
from bridge.store.schema import APPLICATION_ID, LATEST, MIGRATIONS, TABLES


def test_fresh_database_is_migrated_in_wal_with_foreign_keys(relay_home: Path) -> None:
    with Store.open() as store:
        assert store.path == relay_home / DB_FILENAME
        assert store.schema_version() == LATEST
        conn = store.conn
        assert conn.execute("PRAGMA journal_mode").fetchall()[0][0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchall()[0][0] == 1
        assert conn.execute("PRAGMA application_id").fetchall()[0][0] == APPLICATION_ID
        names = {row["name"] for row in query(conn, "SELECT name FROM sqlite_schema")}
        assert set(TABLES) <= names
        assert integrity_ok(conn)
    # Opening again runs no migration and changes nothing.
    with Store.open() as store:
        assert store.schema_version() == LATEST


def test_a_later_migration_runs_once_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "relay.db"
    conn = open_db(path)
    conn.execute("INSERT INTO settings(key, value) VALUES ('kept', 'yes')")
    conn.close()
    step = (LATEST + 1, "ALTER TABLE settings ADD COLUMN note TEXT NOT NULL DEFAULT 'new';")
    newer = (*MIGRATIONS, step)
    conn = open_db(path, migrations=newer)
    assert conn.execute("PRAGMA user_version").fetchall()[0][0] == LATEST + 1
    assert query(conn, "SELECT * FROM settings") == [{"key": "kept", "value": "yes", "note": "new"}]
    conn.close()
    open_db(path, migrations=newer).close()  # a second open does not re-run the step


def test_a_database_from_a_newer_relay_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "relay.db"
    conn = open_db(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 5}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(RelayError) as caught:
        open_db(path)
    assert caught.value.code is ErrorCode.STORE_FAILED
    assert str(path) in caught.value.message
    assert "newer Relay" in caught.value.message
    assert f"version {LATEST + 5}" in caught.value.message
    assert path.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_refused_and_never_recreated(relay_home: Path) -> None:
    path = relay_home / DB_FILENAME
    junk = b"these are the person's notes, not a database\n" * 100
    path.write_bytes(junk)
    with pytest.raises(RelayError) as caught:
        Store.open()
    assert str(path) in caught.value.message
    assert "not a Relay database" in caught.value.message
    assert path.read_bytes() == junk


def test_a_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "relay.db"
    other = apsw.Connection(str(path))
    other.execute("CREATE TABLE photos(id INTEGER PRIMARY KEY, name TEXT)")
    other.execute("INSERT INTO photos(name) VALUES ('cat.jpg')")
    other.close()
    before = path.read_bytes()
    with pytest.raises(RelayError) as caught:
        open_db(path)
    assert "did not create" in caught.value.message
    assert str(path) in caught.value.message
    assert path.read_bytes() == before


def test_a_damaged_database_gives_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "relay.db"
    conn = open_db(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    # Keep the 16-byte magic, wreck the rest of the header and the schema page.
    data[16:] = bytes((i * 37 + 11) % 256 for i in range(len(data) - 16))
    struct.pack_into(">H", data, 16, 4096)
    path.write_bytes(bytes(data))
    damaged = path.read_bytes()
    with pytest.raises(RelayError) as caught:
        open_db(path)
    assert caught.value.code is ErrorCode.STORE_FAILED
    assert str(path) in caught.value.message
    assert "damaged" in caught.value.message or "not a database" in caught.value.message
    assert path.read_bytes() == damaged


def test_damage_found_later_is_reported_through_the_store(relay_home: Path) -> None:
    with Store.open() as store:
        store.audit(actor="test", action="x", payload={})
    path = relay_home / DB_FILENAME
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 2 * page
    data[page:] = b"\xff" * (len(data) - page)  # every table page is garbage; the schema is fine
    path.write_bytes(bytes(data))
    with pytest.raises(RelayError) as caught:
        with Store.open() as store:
            store.audit_entries()
            store.history()
            store.cost_summary()
            store.list_profiles()
    assert str(path) in caught.value.message


def test_sqlite_vec_loads_into_the_store_connection_and_answers_nearest_neighbours() -> None:
    with Store.open() as store:
        version = store.load_vec()
        assert version.startswith("v")
        conn = store.conn
        conn.execute("CREATE VIRTUAL TABLE temp.answers USING vec0(embedding float[4])")
        vectors = {
            1: [1.0, 0.0, 0.0, 0.0],
            2: [0.0, 1.0, 0.0, 0.0],
            3: [0.9, 0.1, 0.0, 0.0],
            4: [0.0, 0.0, 1.0, 0.0],
        }
        for rowid, vector in vectors.items():
            conn.execute(
                "INSERT INTO temp.answers(rowid, embedding) VALUES (?, ?)",
                (rowid, struct.pack("4f", *vector)),
            )
        rows = conn.execute(
            "SELECT rowid, distance FROM temp.answers WHERE embedding MATCH ? AND k = 2"
            " ORDER BY distance",
            (struct.pack("4f", 1.0, 0.05, 0.0, 0.0),),
        ).fetchall()
        assert [row[0] for row in rows] == [1, 3]


def test_an_export_from_an_older_schema_is_migrated_on_import(tmp_path: Path) -> None:
    from bridge.store import exchange

    old = open_db(tmp_path / "old.db")
    old.execute("INSERT INTO settings(key, value) VALUES ('theme', 'dark')")
    doc = exchange.parse_doc(exchange.export_doc(old), "old export")
    old.close()
    step = (LATEST + 1, "ALTER TABLE settings ADD COLUMN note TEXT NOT NULL DEFAULT 'migrated';")
    newer = (*MIGRATIONS, step)
    target_path = tmp_path / "new.db"
    target = open_db(target_path, migrations=newer)
    counts = exchange.import_doc(target, target_path, doc, "old export", migrations=newer)
    assert counts["settings"] == 1
    assert query(target, "SELECT * FROM settings") == [
        {"key": "theme", "value": "dark", "note": "migrated"}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.db", "new.db-shm", "new.db-wal",
                                                          "old.db"]
    target.close()


def test_the_store_imports_neither_the_rules_engine_nor_the_model_layer() -> None:
    import ast

    package = Path(__file__).resolve().parents[1] / "bridge" / "store"
    for source in package.glob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("bridge.rules", "bridge.llm")), (source.name, name)
