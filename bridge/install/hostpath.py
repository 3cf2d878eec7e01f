"""Finding and vetting the `relay-bridge` executable the manifests point at."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from bridge.install.machine import System

HOST_SCRIPT = "relay-bridge"


class HostPathError(Exception):
    pass


def default_host_path(system: System) -> Path | None:
    """The desktop build's own `relay` program (browsers start it with their arguments, which
    make it the host), else the console script installed next to the running interpreter, else
    the one on PATH."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve()
    name = HOST_SCRIPT + (".exe" if system == "windows" else "")
    # Not resolved: a venv's python is a symlink, and the script lives beside the link.
    beside = Path(os.path.abspath(sys.executable)).parent / name
    if beside.is_file():
        return beside
    found = shutil.which(HOST_SCRIPT)
    return Path(found) if found else None


def validate_host_path(path: Path) -> Path:
    if not path.is_absolute():
        raise HostPathError(
            f"host path must be absolute, got {path}; browsers start the host without a "
            "working folder you control")
    if not path.is_file():
        raise HostPathError(f"host executable not found: {path}")
    if not os.access(path, os.X_OK):
        raise HostPathError(f"host is not executable: {path} (try `chmod +x {path}`)")
    return path


def resolve_host_path(given: Path | None, system: System) -> Path:
    if given is not None:
        return validate_host_path(given)
    found = default_host_path(system)
    if found is None:
        raise HostPathError(
            f"cannot find the `{HOST_SCRIPT}` program next to {sys.executable} or on PATH; "
            "reinstall Relay or pass --host-path /absolute/path/to/relay-bridge")
    return validate_host_path(found)
