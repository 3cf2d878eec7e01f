"""Register the bridge with one throwaway Chromium profile folder (what `relay fill` launches)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

from bridge.identity import HOST_DESCRIPTION, HOST_NAME, allowed_chrome_origins


def bridge_executable(scratch: Path) -> Path:
    """The installed `relay-bridge`, or a small launcher for this interpreter when there is none."""
    suffix = ".exe" if os.name == "nt" else ""
    beside = Path(sys.executable).parent / f"relay-bridge{suffix}"
    if beside.is_file():
        return beside
    found = shutil.which("relay-bridge")
    if found:
        return Path(found)
    launcher = scratch / "relay-bridge"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m bridge.host "$@"\n')
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    return launcher


def register_in_user_data_dir(user_data_dir: Path, host_path: Path) -> Path:
    folder = user_data_dir / "NativeMessagingHosts"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / f"{HOST_NAME}.json"
    manifest.write_text(
        json.dumps(
            {
                "name": HOST_NAME,
                "description": HOST_DESCRIPTION,
                "path": str(host_path.resolve()),
                "type": "stdio",
                "allowed_origins": allowed_chrome_origins(),
            },
            indent=2,
        )
    )
    return manifest
