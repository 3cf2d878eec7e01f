"""Where Relay keeps its state: one data folder, `RELAY_HOME` or the platform's user data folder.

The folder holds the person's profile, answers and logs, so it is private: created 0700 (files in
it 0600), and a folder or file found more open than that is tightened. On Windows the user's profile
folder is already private and POSIX modes mean little, so nothing is changed there.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import platformdirs

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def _tighten(path: Path, mode: int) -> None:
    if os.name == "nt":
        return
    try:
        current = stat.S_IMODE(path.stat().st_mode)
        if current & 0o077:
            path.chmod(current & mode)
    except OSError:
        pass  # not ours to change (another owner): `relay doctor` reports it


def private_dir(path: Path) -> Path:
    """Create the folder 0700 (parents as usual) or tighten an existing one; returns it."""
    path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    _tighten(path, PRIVATE_DIR)
    return path


def private_file(path: Path) -> Path:
    """Tighten a file Relay keeps to 0600 (a missing file is left missing)."""
    if path.exists():
        _tighten(path, PRIVATE_FILE)
    return path


def relay_home() -> Path:
    env = os.environ.get("RELAY_HOME")
    home = Path(env).expanduser() if env else default_home()
    return private_dir(home)


def default_home() -> Path:
    """The data folder when RELAY_HOME is not set (as for a bridge the browser starts)."""
    return Path(platformdirs.user_data_dir("Relay", "Relay"))


def log_dir() -> Path:
    return private_dir(relay_home() / "logs")


def repo_root() -> Path | None:
    """The source checkout this package runs from, if any (the extension and demo live there)."""
    here = Path(__file__).resolve().parent.parent
    return here if (here / "extension" / "manifest.json").is_file() else None


def bundle_root() -> Path | None:
    """The desktop build's folder (the one holding the `relay` program), when running from it."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve().parent
    return None


def extension_dir() -> Path | None:
    """The unpacked extension: beside the desktop build's program, or in the source checkout."""
    for root in (bundle_root(), repo_root()):
        if root is not None and (root / "extension" / "manifest.json").is_file():
            return root / "extension"
    return None
