"""The machine being registered on, as plain values, so tests can run every OS into temp folders."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

System = Literal["linux", "darwin", "windows"]
Which = Callable[[str], str | None]


def current_system() -> System:
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "darwin"
    return "linux"


def _no_binaries(_name: str) -> str | None:
    return None


@dataclass(frozen=True)
class Machine:
    """OS, home folder and environment; `which` finds browser binaries (injectable for tests)."""

    system: System
    home: Path
    env: Mapping[str, str] = field(default_factory=dict)
    which: Which = _no_binaries
    # macOS installs browsers as app bundles rather than binaries on PATH.
    app_roots: tuple[Path, ...] = ()
    # The filesystem root for system-wide places (/snap, /var/lib/flatpak, /etc); tests move it.
    root: Path = Path("/")

    @classmethod
    def current(cls) -> Machine:
        system = current_system()
        home = Path.home()
        roots = (Path("/Applications"), home / "Applications") if system == "darwin" else ()
        return cls(system=system, home=home, env=dict(os.environ), which=shutil.which,
                   app_roots=roots)

    def local_appdata(self) -> Path:
        """Windows `%LOCALAPPDATA%` (falls back to the usual place under home)."""
        value = self.env.get("LOCALAPPDATA")
        return Path(value) if value else self.home / "AppData" / "Local"

    def roaming_appdata(self) -> Path:
        """Windows `%APPDATA%` (falls back to the usual place under home)."""
        value = self.env.get("APPDATA")
        return Path(value) if value else self.home / "AppData" / "Roaming"

    def flatpak_dirs(self) -> tuple[Path, ...]:
        """Flatpak installations: the user's and the system's."""
        data = self.env.get("XDG_DATA_HOME")
        user = Path(data) if data and Path(data).is_absolute() else self.home / ".local" / "share"
        return (user / "flatpak", self.root / "var" / "lib" / "flatpak")

    def xdg_config(self) -> Path:
        """Chromium-family browsers on Linux honour `XDG_CONFIG_HOME`; Firefox does not."""
        value = self.env.get("XDG_CONFIG_HOME")
        return Path(value) if value and Path(value).is_absolute() else self.home / ".config"
