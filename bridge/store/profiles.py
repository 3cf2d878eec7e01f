"""Stored profiles: several by name, one active. The imported file's text is kept exactly as read;
the person's later edits are a JSON merge patch stored beside it, never written into it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import apsw
from pydantic import BaseModel

from bridge.clock import now_iso
from bridge.profile import LoadedProfile, parse_profile
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.db import query, transaction
from bridge.store.util import dumps, fingerprint

MAX_PROFILE_BYTES = 5 * 1024 * 1024


class ProfileInfo(BaseModel):
    name: str
    active: bool
    source_path: str
    imported_at: str
    updated_at: str
    fingerprint: str
    has_edits: bool


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge key by key, `null` removes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def compose_patches(first: Any, second: Any) -> Any:
    """One patch with the effect of `first` then `second`; unlike merge_patch it keeps the nulls,
    which must still remove keys from the original."""
    if not isinstance(second, dict):
        return second
    if not isinstance(first, dict):
        return merge_patch(first, second)
    result = dict(first)
    for key, value in second.items():
        result[key] = compose_patches(first[key], value) if key in first else value
    return result


def _read_file(path: Path) -> str:
    path = path.expanduser()
    if not path.is_file():
        raise RelayError(ErrorCode.PROFILE_MISSING, f"profile file not found: {path}")
    if path.stat().st_size > MAX_PROFILE_BYTES:
        raise RelayError(ErrorCode.PROFILE_INVALID, f"{path}: larger than 5 MiB")
    try:
        # newline="" keeps CRLF and every other byte as the person wrote it.
        with path.open(encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise RelayError(ErrorCode.PROFILE_INVALID, f"{path}: cannot read: {exc}") from exc


def _parse_text(text: str, origin: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RelayError(ErrorCode.PROFILE_INVALID, f"{origin}: not valid JSON: {exc}") from exc


def _effective(row: dict[str, Any]) -> tuple[Any, LoadedProfile]:
    origin = f"profile {row['name']!r}"
    raw = merge_patch(_parse_text(row["original"], origin), json.loads(row["edits"]))
    return raw, parse_profile(raw, Path(row["base_dir"]), origin=origin)


def _row(conn: apsw.Connection, name: str) -> dict[str, Any]:
    rows = query(conn, "SELECT * FROM profiles WHERE name = ?", (name,))
    if not rows:
        raise RelayError(ErrorCode.PROFILE_MISSING, f"no stored profile named {name!r}")
    return rows[0]


def import_profile(conn: apsw.Connection, path: Path, name: str | None = None) -> tuple[str, bool]:
    """Validate and store a profile file. Returns (name, replaced). A profile imported again under
    the same name gets the new original; the person's edits stay. The first profile is active."""
    path = path.expanduser().resolve()
    text = _read_file(path)
    return import_text(conn, text, name or path.stem, source_path=str(path), base_dir=path.parent)


def import_text(
    conn: apsw.Connection, text: str, name: str, *, source_path: str, base_dir: Path
) -> tuple[str, bool]:
    """Store a profile's text under `name` (see import_profile); `base_dir` is where its relative
    document paths resolve."""
    raw = _parse_text(text, source_path)
    parse_profile(raw, base_dir, origin=source_path)
    name = name.strip()
    if not name or len(name) > 100:
        raise RelayError(ErrorCode.PROFILE_INVALID, "a profile name must be 1 to 100 characters")
    now = now_iso()
    with transaction(conn):
        existing = query(conn, "SELECT edits FROM profiles WHERE name = ?", (name,))
        if existing:
            # The edits must still make a valid profile over the new original.
            merged = merge_patch(raw, json.loads(existing[0]["edits"]))
            parse_profile(merged, base_dir, origin=f"profile {name!r} with your edits")
            conn.execute(
                "UPDATE profiles SET source_path = ?, base_dir = ?, original = ?, updated_at = ?"
                " WHERE name = ?",
                (source_path, str(base_dir), text, now, name),
            )
        else:
            has_active = conn.execute("SELECT 1 FROM profiles WHERE active = 1").fetchall()
            conn.execute(
                "INSERT INTO profiles(name, source_path, base_dir, original, edits, active,"
                " imported_at, updated_at) VALUES (?, ?, ?, ?, '{}', ?, ?, ?)",
                (name, source_path, str(base_dir), text, 0 if has_active else 1, now, now),
            )
    return name, bool(existing)


def effective_raw(conn: apsw.Connection, name: str) -> dict[str, Any]:
    """The named profile as a document: the original with the person's edits laid over it."""
    raw, _ = _effective(_row(conn, name))
    return dict(raw)


def set_edits(conn: apsw.Connection, name: str, patch: dict[str, Any]) -> LoadedProfile:
    """Lay a merge patch over the profile's current edits; the result must validate."""
    with transaction(conn):
        row = _row(conn, name)
        edits = compose_patches(json.loads(row["edits"]), patch)
        candidate = dict(row, edits=dumps(edits))
        _, loaded = _effective(candidate)
        conn.execute(
            "UPDATE profiles SET edits = ?, updated_at = ? WHERE name = ?",
            (dumps(edits), now_iso(), name),
        )
    return loaded


def use_profile(conn: apsw.Connection, name: str) -> None:
    with transaction(conn):
        _row(conn, name)
        conn.execute("UPDATE profiles SET active = 0 WHERE active = 1")
        conn.execute("UPDATE profiles SET active = 1 WHERE name = ?", (name,))


def remove_profile(conn: apsw.Connection, name: str) -> None:
    with transaction(conn):
        _row(conn, name)
        conn.execute("DELETE FROM profiles WHERE name = ?", (name,))


def list_profiles(conn: apsw.Connection) -> list[ProfileInfo]:
    out = []
    for row in query(conn, "SELECT * FROM profiles ORDER BY name"):
        raw = merge_patch(_parse_text(row["original"], row["name"]), json.loads(row["edits"]))
        out.append(
            ProfileInfo(
                name=row["name"],
                active=bool(row["active"]),
                source_path=row["source_path"],
                imported_at=row["imported_at"],
                updated_at=row["updated_at"],
                fingerprint=fingerprint(raw),
                has_edits=row["edits"] != "{}",
            )
        )
    return out


def active_name(conn: apsw.Connection) -> str | None:
    rows = conn.execute("SELECT name FROM profiles WHERE active = 1").fetchall()
    return str(rows[0][0]) if rows else None


def load(conn: apsw.Connection, name: str | None = None) -> LoadedProfile | None:
    """The named (or active) profile with edits applied, validated; None when none is stored."""
    name = name or active_name(conn)
    if name is None:
        return None
    return _effective(_row(conn, name))[1]


def original_text(conn: apsw.Connection, name: str) -> str:
    return str(_row(conn, name)["original"])


def profile_fingerprint(loaded: LoadedProfile) -> str:
    return fingerprint(loaded.raw)
