"""The person's resumes and cover letters: several per profile, one default each, and the one
chosen for a particular job.

Files the console adds live in `RELAY_HOME/documents/<profile>/<kind>/`. The profile's
`application.documents.<kind>` names the default (relative to the profile's folder when it is
inside it). The choice for one job is kept beside the files (`choices.json`), keyed by the job
page's address without its query, so the next Fill on that page attaches it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from bridge.paths import private_dir, private_file
from bridge.protocol.errors import ErrorCode, RelayError

Kind = Literal["resume", "coverLetter"]
KINDS: tuple[Kind, ...] = ("resume", "coverLetter")
CHOICES = "choices.json"
MAX_CHOICES = 500  # jobs remembered per profile; the oldest go first


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


def _choices_path(home: Path, profile: str) -> Path:
    return folder(home, profile) / CHOICES


def _read_choices(home: Path, profile: str) -> dict[str, dict[str, str]]:
    path = _choices_path(home, profile)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def choose(home: Path, profile: str, url: str, kind: Kind, ref: str) -> str:
    """Remember `ref` (or "" for the default) as the file for this job; returns the job key."""
    key = job_key(url)
    if not key:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "url: not a web page address")
    choices = _read_choices(home, profile)
    entry = choices.pop(key, {})
    if ref:
        entry[kind] = ref
    else:
        entry.pop(kind, None)
    if entry:
        choices[key] = entry  # newest last
    while len(choices) > MAX_CHOICES:
        choices.pop(next(iter(choices)))
    path = _choices_path(home, profile)
    path.write_text(json.dumps(choices, indent=1), encoding="utf-8")
    private_file(path)
    return key


def chosen(home: Path, profile: str, url: str, kind: Kind) -> str:
    """The file chosen for this job, or "" (the profile's default)."""
    key = job_key(url)
    if not key:
        return ""
    return _read_choices(home, profile).get(key, {}).get(kind, "")
