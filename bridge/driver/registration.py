"""Register the bridge with one throwaway Chromium profile folder (what `relay fill` launches).

The manifest and the host lookup are `relay install`'s own; only the fallback launcher is ours.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from bridge.identity import HOST_NAME
from bridge.install.hostpath import default_host_path
from bridge.install.machine import current_system
from bridge.install.manifest import build, render, write_atomic


def bridge_executable(scratch: Path) -> Path:
    """The installed `relay-bridge`, or a small launcher for this interpreter when there is none."""
    installed = default_host_path(current_system())
    if installed is not None:
        return installed
    launcher = scratch / "relay-bridge"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m bridge.host "$@"\n')
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    return launcher


def register_in_user_data_dir(user_data_dir: Path, host_path: Path) -> Path:
    folder = user_data_dir / "NativeMessagingHosts"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / f"{HOST_NAME}.json"
    write_atomic(manifest, render(build("chromium", host_path.absolute())))
    return manifest
