"""Where Relay keeps its state: one data folder, `RELAY_HOME` or the platform's user data folder."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def relay_home() -> Path:
    env = os.environ.get("RELAY_HOME")
    home = Path(env).expanduser() if env else Path(platformdirs.user_data_dir("Relay", "Relay"))
    home.mkdir(parents=True, exist_ok=True)
    return home


def log_dir() -> Path:
    path = relay_home() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def repo_root() -> Path | None:
    """The source checkout this package runs from, if any (the extension and demo live there)."""
    here = Path(__file__).resolve().parent.parent
    return here if (here / "extension" / "manifest.json").is_file() else None
