"""Loading the rules data (`rules/*.toml`) once, from the checkout or installed package data.

Each file's parse is kept beside it in `__pycache__`, as Python keeps a module's bytecode: a cold
bridge's first plan reads every pattern file, and parsing their TOML took it tens of milliseconds
where loading the kept parse takes one or two. The kept parse names the file's content (its
SHA-256), so an edited file is parsed again. A bridge writes none where Python writes no bytecode
(PYTHONDONTWRITEBYTECODE) or where the folder is read-only; `keep_parsed` writes them all.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import marshal
import os
import sys
import threading
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

KEPT_FOLDER = "__pycache__"


def rules_dir() -> Path:
    """The `rules/` data folder: the repo root's, else one installed next to this package."""
    here = Path(__file__).resolve()
    candidates = [here.parents[2] / "rules", here.parent / "data", here.parents[1] / "rules_data"]
    for path in candidates:
        if (path / "fields").is_dir():
            return path
    raise FileNotFoundError(
        "rules data folder not found (looked in: " + ", ".join(map(str, candidates)) + ")"
    )


@cache
def load_toml(relative: str) -> dict[str, Any]:
    return _load(rules_dir() / relative, keep=not sys.dont_write_bytecode)


@cache
def list_toml(folder: str) -> tuple[str, ...]:
    """Relative paths of the TOML files in one data folder, sorted so loading is deterministic."""
    base = rules_dir() / folder
    return tuple(f"{folder}/{p.name}" for p in sorted(base.glob("*.toml")))


def keep_parsed() -> int:
    """Parse every data file and keep each parse, whatever PYTHONDONTWRITEBYTECODE says (for a
    build, and for benchmarks that start bridges as an installed Relay does); returns how many
    were kept."""
    root = rules_dir()
    paths = sorted(root.rglob("*.toml"))
    for path in paths:
        _load(path, keep=True)
    return sum(1 for path in paths if kept_path(path).is_file())


def kept_path(path: Path) -> Path:
    """Where a data file's parse is kept (named for this Python: marshal's format is its own)."""
    return path.parent / KEPT_FOLDER / f"{path.name}.{sys.implementation.cache_tag}.marshal"


def _load(path: Path, *, keep: bool) -> dict[str, Any]:
    source = path.read_bytes()
    digest = hashlib.sha256(source).digest()
    kept = kept_path(path)
    try:
        kept_digest, data = marshal.loads(kept.read_bytes())
        if kept_digest == digest and isinstance(data, dict):
            return data
    except (OSError, EOFError, ValueError, TypeError):
        pass  # none kept yet, or unreadable: parsed below
    data = tomllib.loads(source.decode("utf-8"))
    if keep:
        _keep(kept, digest, data)
    return data


def _keep(kept: Path, digest: bytes, data: dict[str, Any]) -> None:
    """Write the parse next to its file; a folder that cannot be written only means the next
    bridge parses again."""
    try:
        blob = marshal.dumps((digest, data))
    except ValueError:  # a value marshal cannot write (a TOML date): parsed every time
        return
    # Its own name per writer: two bridges (or two threads of one) may keep the same file at once.
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        kept.parent.mkdir(exist_ok=True)
        partial.write_bytes(blob)
        os.replace(partial, kept)  # whole or not at all, for a bridge reading it meanwhile
    except OSError as exc:
        log.debug("parse of %s not kept: %s", kept.name, exc)
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
