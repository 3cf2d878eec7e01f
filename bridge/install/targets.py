"""Where one registration goes: a manifest file, plus a registry key on Windows, plus a launcher
for a Flatpak browser; or why a browser here cannot have one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from bridge.identity import HOST_NAME
from bridge.install.browsers import (
    Browser,
    any_present,
    flatpak_present,
    is_present,
    manifest_dir,
    snap_present,
)
from bridge.install.machine import Machine

MANIFEST_FILENAME = f"{HOST_NAME}.json"
LAUNCHER_FILENAME = "relay-bridge-flatpak.sh"

Kind = Literal["native", "flatpak", "snap"]

SNAP_BLOCKED = (
    "{label} is installed as a Snap, and a Snap's confinement does not let Chromium-based "
    "browsers start a program outside it, so the Relay extension cannot reach the bridge there. "
    "Use a non-Snap build instead (for example Google Chrome's or Chromium's .deb or Flatpak, "
    "or Firefox, whose Snap reaches the bridge through the desktop portal)."
)
ABSENT = (
    "{label} is not installed here (no profile folder or program found): nothing written. "
    "Install it (and open it once), then run `relay install --browser {name}` again."
)


@dataclass(frozen=True)
class Target:
    browser: Browser
    manifest_path: Path
    # HKCU-relative key whose default value is the manifest path (Windows only).
    registry_key: str | None = None
    user_data_dir: Path | None = None
    kind: Kind = "native"
    # Flatpak: the script the manifest names, which starts the host outside the sandbox.
    launcher_path: Path | None = None
    # Set when nothing can be written: the browser is missing, or its sandbox forbids hosts.
    blocked: Literal["absent", "unsupported"] | None = None
    note: str = ""

    @property
    def label(self) -> str:
        suffix = {"native": "", "flatpak": " (Flatpak)", "snap": " (Snap)"}[self.kind]
        return self.browser.label + suffix

    @property
    def app_id(self) -> str | None:
        return self.browser.flatpak_id if self.kind == "flatpak" else None

    def describe(self) -> str:
        if self.registry_key:
            return f"HKCU\\{self.registry_key} -> {self.manifest_path}"
        return str(self.manifest_path)


def browser_target(browser: Browser, machine: Machine, kind: Kind = "native") -> Target:
    if kind == "flatpak":
        assert browser.flatpak_id is not None and browser.flatpak_hosts is not None
        app = machine.home / ".var" / "app" / browser.flatpak_id
        folder = app.joinpath(*browser.flatpak_hosts.split("/"))
        return Target(browser=browser, manifest_path=folder / MANIFEST_FILENAME, kind=kind,
                      launcher_path=app / "data" / "relay" / LAUNCHER_FILENAME)
    path = manifest_dir(browser, machine) / MANIFEST_FILENAME
    key = f"{browser.windows_key}\\{HOST_NAME}" if machine.system == "windows" else None
    if kind == "snap" and browser.family == "chromium":
        assert browser.snap is not None
        return Target(browser=browser, manifest_path=machine.home / "snap" / browser.snap,
                      kind=kind, blocked="unsupported",
                      note=SNAP_BLOCKED.format(label=browser.label))
    # Firefox as a Snap: the desktop portal reads the usual per-user folder.
    return Target(browser=browser, manifest_path=path, registry_key=key, kind=kind)


def installed_targets(browser: Browser, machine: Machine) -> list[Target]:
    """One target per way the browser is installed here (native, Flatpak, Snap)."""
    targets: list[Target] = []
    native = is_present(browser, machine)
    if native:
        targets.append(browser_target(browser, machine))
    # Before the Flatpak's portal folder: a Firefox Snap reads that same folder, and the one row
    # it makes must not be labelled as a native Firefox.
    if snap_present(browser, machine) and not (native and browser.family == "firefox"):
        targets.append(browser_target(browser, machine, "snap"))
    if flatpak_present(browser, machine):
        targets.append(browser_target(browser, machine, "flatpak"))
        if browser.family == "firefox" and not native:
            # Newer Firefox Flatpaks reach hosts through the desktop portal too, which reads
            # the usual per-user folder.
            targets.append(browser_target(browser, machine))
    unique: dict[Path, Target] = {}
    for target in targets:
        unique.setdefault(target.manifest_path, target)
    return list(unique.values())


def still_installed(target: Target, machine: Machine) -> bool:
    """Whether the browser install this target belongs to is (still) here."""
    if target.user_data_dir is not None:
        return True
    if target.kind == "flatpak":
        return flatpak_present(target.browser, machine)
    if target.kind == "snap" or target.browser.family == "firefox":
        # Firefox's per-user folder serves its native, Snap and (portal) Flatpak installs.
        return any_present(target.browser, machine)
    return is_present(target.browser, machine)


def absent_target(browser: Browser, machine: Machine) -> Target:
    """A browser named on the command line that is not installed: reported, never written."""
    target = browser_target(browser, machine)
    return Target(browser=browser, manifest_path=target.manifest_path,
                  registry_key=target.registry_key, blocked="absent",
                  note=ABSENT.format(label=browser.label, name=browser.name))


def profile_target(browser: Browser, user_data_dir: Path) -> Target:
    """A Chromium started with `--user-data-dir DIR` reads `DIR/NativeMessagingHosts/`."""
    if browser.family != "chromium":
        raise ValueError(f"--user-data-dir is for Chromium-family browsers, not {browser.name}")
    path = user_data_dir / "NativeMessagingHosts" / MANIFEST_FILENAME
    return Target(browser=browser, manifest_path=path, user_data_dir=user_data_dir)
