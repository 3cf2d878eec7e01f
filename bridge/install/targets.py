"""Where one registration goes: a manifest file, plus a registry key on Windows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bridge.identity import HOST_NAME
from bridge.install.browsers import Browser, manifest_dir
from bridge.install.machine import Machine

MANIFEST_FILENAME = f"{HOST_NAME}.json"


@dataclass(frozen=True)
class Target:
    browser: Browser
    manifest_path: Path
    # HKCU-relative key whose default value is the manifest path (Windows only).
    registry_key: str | None = None
    user_data_dir: Path | None = None

    def describe(self) -> str:
        if self.registry_key:
            return f"HKCU\\{self.registry_key} -> {self.manifest_path}"
        return str(self.manifest_path)


def browser_target(browser: Browser, machine: Machine) -> Target:
    path = manifest_dir(browser, machine) / MANIFEST_FILENAME
    key = f"{browser.windows_key}\\{HOST_NAME}" if machine.system == "windows" else None
    return Target(browser=browser, manifest_path=path, registry_key=key)


def profile_target(browser: Browser, user_data_dir: Path) -> Target:
    """A Chromium started with `--user-data-dir DIR` reads `DIR/NativeMessagingHosts/`."""
    if browser.family != "chromium":
        raise ValueError(f"--user-data-dir is for Chromium-family browsers, not {browser.name}")
    path = user_data_dir / "NativeMessagingHosts" / MANIFEST_FILENAME
    return Target(browser=browser, manifest_path=path, user_data_dir=user_data_dir)
