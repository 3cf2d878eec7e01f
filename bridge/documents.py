"""The person's resumes and cover letters: several per profile, one default each, and the one
chosen for a particular job.

Files the console adds live in `RELAY_HOME/documents/<profile>/<kind>/`. The profile's
`application.documents.<kind>` names the default (relative to the profile's folder when it is
inside it). The choice for one job is kept in the store (`document_choices`), keyed by the job
page's address without its query, so the next Fill on that page attaches it.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from bridge.paths import private_dir, private_file
from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from bridge.store import Store

log = logging.getLogger(__name__)

Kind = Literal["resume", "coverLetter"]
KINDS: tuple[Kind, ...] = ("resume", "coverLetter")
OLD_CHOICES = "choices.json"  # where Relay before store version 5 kept the per-job choices


def safe_name(name: str, fallback: str = "document") -> str:
    """A file name with no folders and nothing a file system would refuse."""
    cleaned = re.sub(r"[^\w.\- ]+", "_", name.replace("\\", "/").rsplit("/", 1)[-1]).strip(" .")
    return cleaned or fallback


def folder(home: Path, profile: str) -> Path:
    return private_dir(home / "documents" / safe_name(profile, "profile"))


def job_key(url: str) -> str:
    """The job page's address as a key: scheme, host and path, no query or fragment."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # e.g. a broken IPv6 host
        return ""
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def ref_for(home: Path, profile: str, base_dir: Path, kind: Kind, name: str) -> str:
    """What the profile stores to name the file: relative to its folder when it is inside."""
    path = folder(home, profile) / kind / safe_name(name)
    try:
        return path.relative_to(base_dir).as_posix()
    except ValueError:
        return str(path)


def resolve(base_dir: Path, ref: str) -> Path | None:
    path = (base_dir / ref).resolve()
    return path if path.is_file() else None


def add(home: Path, profile: str, kind: Kind, name: str, data: bytes) -> str:
    """Store a file under the profile; returns its (safe) file name."""
    target = private_dir(folder(home, profile) / kind) / safe_name(name)
    target.write_bytes(data)
    private_file(target)
    return target.name


def listing(home: Path, profile: str, base_dir: Path, defaults: dict[str, str]) -> dict[str, Any]:
    """Each kind's files: `name`, `ref` (what the profile or a job choice stores), `default`."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        default = defaults.get(kind) or ""
        rows: list[dict[str, Any]] = []
        kind_dir = folder(home, profile) / kind
        files = sorted(p for p in kind_dir.iterdir() if p.is_file()) if kind_dir.is_dir() else []
        for path in files:
            ref = ref_for(home, profile, base_dir, kind, path.name)
            rows.append({"name": path.name, "ref": ref, "default": ref == default,
                         "size": path.stat().st_size})
        if default and not any(row["default"] for row in rows):
            # A default from an imported profile, kept where it was.
            found = resolve(base_dir, default)
            rows.insert(0, {"name": Path(default).name, "ref": default, "default": True,
                            "size": found.stat().st_size if found else 0})
        out[kind] = rows
    return out


def choose(store: Store, profile: str, url: str, kind: Kind, ref: str) -> str:
    """Remember `ref` (or "" for the default) as the file for this job; returns the job key."""
    key = job_key(url)
    if not key:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "url: not a web page address")
    store.choose_document(profile, key, kind, ref)
    return key


def chosen(store: Store, profile: str, url: str, kind: Kind) -> str:
    """The file chosen for this job, or "" (the profile's default)."""
    key = job_key(url)
    return store.chosen_document(profile, key, kind) if key else ""


def adopt_old_choices(home: Path, store: Store) -> int:
    """Move the per-job choices an older Relay kept in `documents/<profile>/choices.json` into
    the store, then remove the file. Returns how many were moved."""
    if not any((home / "documents").glob(f"*/{OLD_CHOICES}")):
        return 0  # the usual case: nothing to move
    moved = 0
    for info in store.list_profiles():
        path = home / "documents" / safe_name(info.name, "profile") / OLD_CHOICES
        if not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("%s: not read (%s); its per-job choices are dropped", path, exc)
            data = {}
        if isinstance(data, dict):
            entries = {job: kinds for job, kinds in data.items()
                       if isinstance(job, str) and isinstance(kinds, dict)}
            moved += store.adopt_document_choices(info.name, entries)
        path.unlink(missing_ok=True)
    return moved
