"""The record of what `relay install` wrote, so `relay uninstall` removes exactly that."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, ValidationError

from bridge.paths import private_file

STATE_FILENAME = "install-state.json"


class Registration(BaseModel):
    """One browser (or one Chromium profile folder) registered by Relay."""

    browser: str
    manifest_path: str
    manifest_sha256: str  # what Relay wrote; a different hash means someone changed it
    host_path: str
    user_data_dir: str | None = None
    registry_key: str | None = None  # HKCU-relative
    registry_value: str | None = None
    kind: str = "native"  # "native", "flatpak" or "snap"
    # Flatpak: the launcher script the manifest names, and what Relay wrote into it.
    launcher_path: str | None = None
    launcher_sha256: str | None = None
    # Folders and registry keys that did not exist before; removed on uninstall if empty.
    created_dirs: list[str] = []
    created_keys: list[str] = []

    def same_place(self, other: Registration) -> bool:
        return (self.manifest_path, self.registry_key) == (other.manifest_path, other.registry_key)


class InstallState(BaseModel):
    version: int = 1
    registrations: list[Registration] = []

    def upsert(self, registration: Registration) -> None:
        previous = [r for r in self.registrations if r.same_place(registration)]
        # A reinstall keeps the folders/keys an earlier install created, so uninstall cleans them.
        for old in previous:
            registration.created_dirs = _merge(old.created_dirs, registration.created_dirs)
            registration.created_keys = _merge(old.created_keys, registration.created_keys)
        self.registrations = [r for r in self.registrations if not r.same_place(registration)]
        self.registrations.append(registration)

    def find(self, manifest_path: Path, registry_key: str | None) -> Registration | None:
        for registration in self.registrations:
            if (registration.manifest_path == str(manifest_path)
                    and registration.registry_key == registry_key):
                return registration
        return None


def _merge(first: list[str], second: list[str]) -> list[str]:
    return first + [item for item in second if item not in first]


class StateError(Exception):
    pass


def load(path: Path) -> InstallState:
    if not path.exists():
        return InstallState()
    try:
        return InstallState.model_validate_json(path.read_bytes())
    except (ValidationError, ValueError) as exc:
        raise StateError(f"cannot read {path}: {exc}") from exc


def save(path: Path, state: InstallState) -> None:
    if not state.registrations:
        # Nothing registered: leave no record behind either.
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state.model_dump(), indent=2) + "\n", encoding="utf-8")
    private_file(tmp)
    os.replace(tmp, path)
