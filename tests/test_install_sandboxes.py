"""Flatpak and Snap browsers on Linux, packaged (system-wide) manifests, and doctor starting the
registered host exactly as a browser does. Real files in temp folders; no real Flatpak or Snap."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from bridge.identity import HOST_NAME
from bridge.install import actions, flatpak, manifest
from bridge.install.doctor import diagnose
from bridge.install.machine import Machine
from bridge.install.state import InstallState
from tests.conftest import REPO, SAMPLE_PROFILE

FILE = f"{HOST_NAME}.json"


def no_binaries(_name: str) -> str | None:
    return None


class Linux:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.sys = root / "sysroot"
        self.home.mkdir()
        self.machine = Machine("linux", self.home, {}, no_binaries, root=self.sys)
        self.state = InstallState()
        self.host = root / "bin" / "relay"
        self.host.parent.mkdir()
        self.host.write_text("#!/bin/sh\nexit 0\n")
        self.host.chmod(0o755)

    def flatpak(self, app_id: str) -> Path:
        folder = self.home / ".var" / "app" / app_id
        folder.mkdir(parents=True)
        return folder

    def snap(self, name: str) -> Path:
        folder = self.home / "snap" / name / "common"
        folder.mkdir(parents=True)
        return folder

    def files(self) -> dict[str, bytes | None]:
        return {str(p.relative_to(self.root)): p.read_bytes() if p.is_file() else None
                for p in sorted(self.root.rglob("*")) if not p.is_relative_to(self.host.parent)}


@pytest.fixture
def linux(tmp_path: Path) -> Linux:
    return Linux(tmp_path)


def test_flatpak_and_snap_browsers_are_found_and_registered(linux: Linux) -> None:
    linux.flatpak("com.google.Chrome")
    linux.flatpak("com.brave.Browser")
    linux.snap("firefox")
    linux.snap("chromium")
    before = linux.files()

    outcomes = {(o.browser, o.status): o for o in actions.install(
        linux.machine, linux.state, None, linux.host)}
    assert set(outcomes) == {("chrome", "written"), ("brave", "written"),
                             ("firefox", "written"), ("chromium", "unsupported")}

    # Flatpak: the manifest in the app's own folder names a launcher that leaves the sandbox.
    chrome_dir = linux.home / ".var/app/com.google.Chrome/config/google-chrome/NativeMessagingHosts"
    data = json.loads((chrome_dir / FILE).read_text())
    launcher = Path(data["path"])
    assert launcher.is_relative_to(linux.home / ".var/app/com.google.Chrome")
    assert os.access(launcher, os.X_OK)
    script = launcher.read_text()
    assert f"exec flatpak-spawn --host {linux.host} \"$@\"" in script
    assert "--talk-name=org.freedesktop.Flatpak com.google.Chrome" in outcomes[
        ("chrome", "written")].message
    brave = linux.home / ".var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser"
    assert (brave / "NativeMessagingHosts" / FILE).is_file()

    # Firefox as a Snap: the desktop portal reads the usual per-user folder.
    firefox = json.loads((linux.home / ".mozilla/native-messaging-hosts" / FILE).read_text())
    assert firefox["path"] == str(linux.host)
    assert "portal" in outcomes[("firefox", "written")].message

    # Chromium as a Snap cannot start hosts: told plainly, and nothing written for it.
    message = outcomes[("chromium", "unsupported")].message
    assert "Snap" in message and "cannot reach the bridge" in message and "instead" in message
    assert not list((linux.home / "snap").rglob(FILE))

    actions.uninstall(linux.state, None)
    assert linux.files() == before


def test_doctor_on_sandboxed_browsers(linux: Linux) -> None:
    linux.flatpak("com.google.Chrome")
    linux.snap("chromium")
    actions.install(linux.machine, linux.state, None, linux.host)
    report = diagnose(linux.machine, linux.state, None, linux.host)
    entries = {b.label: b for b in report.browsers}
    chrome, chromium = entries["Google Chrome (Flatpak)"], entries["Chromium (Snap)"]
    assert [p.code for p in chrome.problems] == ["sandbox_blocks_host"]
    assert chrome.problems[0].fix == flatpak.grant_command("com.google.Chrome")
    assert chrome.status == "problem" and chrome.host_path == str(linux.host)
    assert chromium.status == "cannot connect"
    assert not report.ok

    # Once the person grants the permission (a user override), Chrome's Flatpak is fine.
    overrides = linux.home / ".local/share/flatpak/overrides"
    overrides.mkdir(parents=True)
    (overrides / "com.google.Chrome").write_text(
        "[Session Bus Policy]\norg.freedesktop.Flatpak=talk\n")
    report = diagnose(linux.machine, linux.state, None, linux.host)
    chrome = next(b for b in report.browsers if b.kind == "flatpak")
    assert chrome.problems == [] and chrome.status == "ok"


def test_a_firefox_snap_beside_its_flatpak_is_not_called_native(linux: Linux) -> None:
    """The Snap and the Flatpak's desktop portal both read ~/.mozilla: one row, the Snap's."""
    linux.flatpak("org.mozilla.firefox")
    linux.snap("firefox")
    actions.install(linux.machine, linux.state, None, linux.host)
    report = diagnose(linux.machine, linux.state, None, linux.host)
    labels = sorted(b.label for b in report.browsers)
    assert labels == ["Firefox (Flatpak)", "Firefox (Snap)"]
    assert {r.kind for r in linux.state.registrations} == {"flatpak", "snap"}


def test_flatpak_permission_from_the_apps_metadata_and_later_overrides(linux: Linux) -> None:
    meta = linux.sys / "var/lib/flatpak/app/org.chromium.Chromium/current/active"
    meta.mkdir(parents=True)
    (meta / "metadata").write_text("[Session Bus Policy]\norg.freedesktop.Flatpak=talk\n")
    assert flatpak.may_start_host_programs(linux.machine, "org.chromium.Chromium")
    user = linux.home / ".local/share/flatpak/overrides"
    user.mkdir(parents=True)
    (user / "org.chromium.Chromium").write_text(
        "[Session Bus Policy]\norg.freedesktop.Flatpak=none\n")
    assert not flatpak.may_start_host_programs(linux.machine, "org.chromium.Chromium")


def test_snap_only_chromium_named_explicitly(linux: Linux) -> None:
    linux.snap("chromium")
    before = linux.files()
    (outcome,) = actions.install(linux.machine, linux.state, None, linux.host, ["chromium"])
    assert outcome.status == "unsupported"
    assert linux.files() == before and linux.state.registrations == []


def test_a_snap_wrapper_on_path_is_not_a_native_install(linux: Linux) -> None:
    snap_bin = linux.sys / "snap" / "bin"
    snap_bin.mkdir(parents=True)
    (snap_bin / "chromium").write_text("")
    machine = Machine("linux", linux.home, {}, lambda name: str(snap_bin / name)
                      if name == "chromium" else None, root=linux.sys)
    with pytest.raises(actions.InstallError, match="no supported browser"):
        actions.install(machine, linux.state, None, linux.host)


def test_upgrade_rewrites_manifests_and_launchers(linux: Linux) -> None:
    linux.flatpak("com.google.Chrome")
    (linux.home / ".config" / "chromium").mkdir(parents=True)
    (linux.home / ".config" / "chromium" / "Local State").write_text("{}")
    actions.install(linux.machine, linux.state, None, linux.host)
    newer = linux.root / "v2" / "relay"
    newer.parent.mkdir()
    newer.write_bytes(linux.host.read_bytes())
    newer.chmod(0o755)
    statuses = {o.status for o in actions.install(linux.machine, linux.state, None, newer)}
    assert statuses == {"written"}
    native = json.loads((linux.home / ".config/chromium/NativeMessagingHosts" / FILE).read_text())
    assert native["path"] == str(newer)
    launcher = next(r for r in linux.state.registrations if r.kind == "flatpak").launcher_path
    assert launcher is not None and str(newer) in Path(launcher).read_text()
    assert {r.host_path for r in linux.state.registrations} == {str(newer)}


def test_doctor_reads_a_packaged_system_wide_manifest(linux: Linux) -> None:
    (linux.home / ".mozilla" / "firefox").mkdir(parents=True)
    (linux.home / ".mozilla" / "firefox" / "profiles.ini").write_text("")
    system = linux.sys / "usr/lib/mozilla/native-messaging-hosts"
    system.mkdir(parents=True)
    (system / FILE).write_bytes(manifest.render(manifest.build("firefox", linux.host)))
    report = diagnose(linux.machine, linux.state, None, linux.host, ["firefox"])
    (firefox,) = report.browsers
    assert report.ok and firefox.registered and firefox.location == str(system / FILE)


# --- doctor starts the host as the browser does ---------------------------------------------------

def recording_host(folder: Path, log: Path) -> Path:
    """The real bridge behind a script that records the arguments it was started with."""
    host = folder / "relay-bridge"
    host.write_text(f'#!/bin/sh\necho "$@" > {log}\nexec {sys.executable} -m bridge.host "$@"\n')
    host.chmod(host.stat().st_mode | stat.S_IXUSR)
    return host


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX launcher scripts")
def test_doctor_starts_each_host_with_the_browsers_arguments(linux: Linux) -> None:
    (linux.home / ".config" / "vivaldi" / "Default").mkdir(parents=True)
    (linux.home / ".mozilla" / "firefox").mkdir(parents=True)
    (linux.home / ".mozilla" / "firefox" / "profiles.ini").write_text("")
    chrome_log, firefox_log = linux.root / "chrome.args", linux.root / "firefox.args"
    chrome_host = recording_host(linux.host.parent, chrome_log)
    firefox_dir = linux.root / "ffbin"
    firefox_dir.mkdir()
    firefox_host = recording_host(firefox_dir, firefox_log)
    actions.install(linux.machine, linux.state, None, chrome_host, ["vivaldi"])
    actions.install(linux.machine, linux.state, None, firefox_host, ["firefox"])
    env = {**os.environ, "PYTHONPATH": str(REPO), "RELAY_PROFILE": str(SAMPLE_PROFILE)}
    report = diagnose(linux.machine, linux.state, None, chrome_host, start_hosts=True, env=env)
    entries = {b.browser: b for b in report.browsers}
    assert entries["vivaldi"].host_started and "answers hello" in entries["vivaldi"].host_message
    assert chrome_log.read_text().split() == ["chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"]
    manifest_path = linux.home / ".mozilla/native-messaging-hosts" / FILE
    assert firefox_log.read_text().split() == [str(manifest_path), "relay@relay.dev"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX launcher scripts")
def test_doctor_reports_a_host_that_does_not_start(linux: Linux) -> None:
    (linux.home / ".config" / "vivaldi" / "Default").mkdir(parents=True)
    broken = linux.host.parent / "broken"
    broken.write_text("#!/bin/sh\necho 'no module named bridge' >&2\nexit 1\n")
    broken.chmod(0o755)
    actions.install(linux.machine, linux.state, None, broken, ["vivaldi"])
    report = diagnose(linux.machine, linux.state, None, broken, start_hosts=True)
    (vivaldi,) = report.browsers
    assert not report.ok and vivaldi.host_started is False and vivaldi.status == "problem"
    (failure,) = [p for p in vivaldi.problems if p.code == "host_failed"]
    assert "exited with status 1" in failure.message and "no module named bridge" in failure.message
