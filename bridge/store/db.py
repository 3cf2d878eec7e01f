"""Open Relay's SQLite database through apsw: checks, pragmas, migrations, transactions.

apsw rather than the standard `sqlite3`: many Python builds cannot load SQLite extensions, and the
saved-answer search loads sqlite-vec into this same connection.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import apsw

from bridge.paths import PRIVATE_FILE, private_file
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.schema import APPLICATION_ID, MIGRATIONS

DB_FILENAME = "relay.db"
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000

Row = dict[str, Any]


def store_error(path: Path | str, exc: BaseException) -> RelayError:
    """A plain message naming the file, for any apsw failure."""
    if isinstance(exc, apsw.CorruptError | apsw.NotADBError):
        return RelayError(
            ErrorCode.STORE_FAILED,
            f"{path} is damaged or not a database ({exc}). Relay left it untouched; "
            "restore it from a backup or move it away to start afresh.",
        )
    if isinstance(exc, apsw.BusyError | apsw.LockedError):
        return RelayError(
            ErrorCode.STORE_FAILED, f"{path} is busy: another Relay process holds it ({exc})"
        )
    if isinstance(exc, apsw.FullError):
        return RelayError(
            ErrorCode.STORE_FAILED,
            f"the disk holding {path} is full: nothing was saved and nothing stored was changed. "
            "Free some space and try again.",
        )
    folder = Path(path).parent
    if isinstance(exc, apsw.ReadOnlyError | apsw.CantOpenError) and not os.access(folder, os.W_OK):
        return RelayError(
            ErrorCode.STORE_FAILED,
            f"Relay cannot write to its data folder {folder} (read-only, or no permission): "
            "nothing was saved. Make the folder writable or point RELAY_HOME elsewhere.",
        )
    return RelayError(ErrorCode.STORE_FAILED, f"{path}: {exc}")


@contextmanager
def guarded(path: Path | str) -> Iterator[None]:
    """Turn database errors into RelayError(E_STORE_FAILED) that names the file."""
    try:
        yield
    except apsw.Error as exc:
        raise store_error(path, exc) from exc


def _check_header(path: Path) -> None:
    # A file SQLite would reject, or worse, treat as empty: refuse before SQLite touches it.
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if size == 0:
        return
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_MAGIC))
    if header != SQLITE_MAGIC:
        raise RelayError(
            ErrorCode.STORE_FAILED,
            f"{path} is not a Relay database (not an SQLite file). Relay left it untouched; "
            "move it away or point RELAY_HOME elsewhere.",
        )


def _make_private(path: Path) -> None:
    """The database holds the person's profile and answers: 0600. SQLite gives its -wal and -shm
    files the main file's mode, so creating the main file 0600 first covers them too."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    except OSError:
        return  # SQLite reports an unusable path with a clearer message
    for suffix in ("", "-wal", "-shm"):
        private_file(path.with_name(path.name + suffix))


def _pragma_int(conn: apsw.Connection, name: str) -> int:
    return int(scalar(conn, f"PRAGMA {name}"))


def open_db(
    path: Path,
    *,
    migrations: Sequence[tuple[int, str]] = MIGRATIONS,
    upto: int | None = None,
) -> apsw.Connection:
    """Open (creating if absent) and migrate Relay's database; refuse foreign or newer files.

    `upto` stops migrating at that version (import uses it to load an older export first).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _check_header(path)
    _make_private(path)
    latest = migrations[-1][0] if migrations else 0
    target = latest if upto is None else upto
    try:
        conn = apsw.Connection(
            str(path), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        )
    except apsw.Error as exc:
        raise store_error(path, exc) from exc
    try:
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        _check_identity(conn, path, latest)
        conn.execute("PRAGMA foreign_keys = ON")
        # FULL: a commit the caller saw is on disk, even if the machine loses power right after.
        conn.execute("PRAGMA synchronous = FULL")
        # Deleted rows are overwritten, so `forget` leaves no readable remains in the file.
        conn.execute("PRAGMA secure_delete = ON")
        mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchall()[0][0]).lower()
        if mode != "wal":
            raise RelayError(ErrorCode.STORE_FAILED, f"{path}: cannot switch to WAL ({mode})")
        migrate(conn, path, migrations, target)
    except apsw.Error as exc:
        conn.close()
        raise store_error(path, exc) from exc
    except RelayError:
        conn.close()
        raise
    return conn


def _check_identity(conn: apsw.Connection, path: Path, latest: int) -> None:
    app_id = _pragma_int(conn, "application_id")
    version = _pragma_int(conn, "user_version")
    tables = int(scalar(conn, "SELECT count(*) FROM sqlite_schema"))
    if app_id != APPLICATION_ID and not (app_id == 0 and version == 0 and tables == 0):
        raise RelayError(
            ErrorCode.STORE_FAILED,
            f"{path} is an SQLite database that Relay did not create. Relay left it untouched; "
            "move it away or point RELAY_HOME elsewhere.",
        )
    if version > latest:
        raise RelayError(
            ErrorCode.STORE_FAILED,
            f"{path} was written by a newer Relay (database version {version}; this Relay "
            f"knows up to version {latest}). Update Relay; the file was left unchanged.",
        )


def migrate(
    conn: apsw.Connection, path: Path, migrations: Sequence[tuple[int, str]], target: int
) -> int:
    """Run every step above the file's version up to `target`; returns the version reached."""
    current = _pragma_int(conn, "user_version")
    if current >= target:
        return current
    with transaction(conn):
        # Re-read under the write lock: another process may have migrated meanwhile.
        current = _pragma_int(conn, "user_version")
        for version, sql in migrations:
            if current < version <= target:
                conn.execute(sql)
                current = version
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {current}")
    return current


@contextmanager
def transaction(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """A write transaction. Top level: BEGIN IMMEDIATE (takes the write lock up front, so the
    busy timeout applies instead of a failed read-to-write upgrade); nested: a savepoint."""
    if conn.in_transaction:
        with conn:
            yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def query(conn: apsw.Connection, sql: str, params: Sequence[Any] = ()) -> list[Row]:
    """Rows as dicts keyed by column name."""
    cursor = conn.cursor()
    cursor.execute(sql, tuple(params))
    names: list[str] | None = None
    out: list[Row] = []
    for row in cursor:
        if names is None:
            names = [column[0] for column in cursor.get_description()]
        out.append(dict(zip(names, row, strict=True)))
    return out


def scalar(conn: apsw.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    rows = conn.execute(sql, tuple(params)).fetchall()
    return rows[0][0] if rows else None


def vec_path() -> str:
    """sqlite-vec's loadable library, as `sqlite_vec.loadable_path()` names it (no suffix): found
    without importing the package, whose `__init__` imports Python's sqlite3 module, which Relay
    does not use (the store is apsw) and the desktop build leaves out."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise RelayError(ErrorCode.STORE_FAILED, "cannot load sqlite-vec: it is not installed")
    return os.path.join(next(iter(spec.submodule_search_locations)), "vec0")


def load_vec(conn: apsw.Connection) -> str:
    """Load sqlite-vec into this connection; returns its version."""
    try:
        conn.enable_load_extension(True)
        conn.load_extension(vec_path())
    except apsw.Error as exc:
        raise RelayError(ErrorCode.STORE_FAILED, f"cannot load sqlite-vec: {exc}") from exc
    finally:
        conn.enable_load_extension(False)
    return str(scalar(conn, "SELECT vec_version()"))


def integrity_ok(conn: apsw.Connection) -> bool:
    rows = conn.execute("PRAGMA integrity_check").fetchall()
    return len(rows) == 1 and rows[0][0] == "ok"
