"""`relay install` / `uninstall` / `doctor`: every browser on every OS, into temp folders.

The Windows registry goes through the in-memory stand-in; everything else is real files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bridge.cli import install_cmd
from bridge.identity import FIREFOX_ADDON_IDS, HOST_NAME, allowed_chrome_origins
from bridge.install import actions, manifest, state
from bridge.install.browsers import BROWSER_NAMES, Family, by_name, profile_root
from bridge.install.doctor import DoctorReport, diagnose
from bridge.install.hostpath import HostPathError, resolve_host_path
from bridge.install.machine import Machine, System
from bridge.install.registry import MemoryRegistry, WindowsRegistry
from bridge.install.state import InstallState

REPO = Path(__file__).resolve().parents[1]
SYSTEMS: tuple[System, ...] = ("linux", "darwin", "windows")
FILE = f"{HOST_NAME}.json"

# Written out independently of bridge/install/browsers.py, from the browsers' documentation.
LINUX = {
    "chrome": ".config/google-chrome/NativeMessagingHosts",
    "chromium": ".config/chromium/NativeMessagingHosts",
    "edge": ".config/microsoft-edge/NativeMessagingHosts",
    "brave": ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "vivaldi": ".config/vivaldi/NativeMessagingHosts",
    "firefox": ".mozilla/native-messaging-hosts",
}
DARWIN = {
    "chrome": "Library/Application Support/Google/Chrome/NativeMessagingHosts",
    "chromium": "Library/Application Support/Chromium/NativeMessagingHosts",
    "edge": "Library/Application Support/Microsoft Edge/NativeMessagingHosts",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "vivaldi": "Library/Application Support/Vivaldi/NativeMessagingHosts",
    "firefox": "Library/Application Support/Mozilla/NativeMessagingHosts",
}
WINDOWS_KEYS = {
    "chrome": r"Software\Google\Chrome\NativeMessagingHosts",
    "chromium": r"Software\Chromium\NativeMessagingHosts",
    "edge": r"Software\Microsoft\Edge\NativeMessagingHosts",
    "brave": r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts",
    "vivaldi": r"Software\Vivaldi\NativeMessagingHosts",
    "firefox": r"Software\Mozilla\NativeMessagingHosts",
}


# A file each browser writes into its profile folder on first start (what "installed" looks like).
USED_MARKER = {"chromium": "Local State", "firefox": "profiles.ini"}


class World:
    """One fake machine: a temp home, an env, a registry stand-in, a host executable, a record.

    `present`: the browsers installed (used once) on it; all of them unless told otherwise."""

    def __init__(self, root: Path, system: System, which: Callable[[str], str | None],
                 present: tuple[str, ...] = BROWSER_NAMES) -> None:
        self.root = root
        self.home = root / "home"
        self.home.mkdir()
        env = {}
        if system == "windows":
            env = {"APPDATA": str(self.home / "AppData" / "Roaming"),
                   "LOCALAPPDATA": str(self.home / "AppData" / "Local")}
        self.machine = Machine(system=system, home=self.home, env=env, which=which,
                               root=root / "sysroot")
        for name in present:
            self.use_browser(name)
        # HKCU\Software always exists on a real machine.
        self.registry = MemoryRegistry({"software": {}})
        self.host = root / "bin" / "relay-bridge"
        self.host.parent.mkdir()
        self.host.write_text("#!/bin/sh\n")
        self.host.chmod(0o755)
        self.state = InstallState()

    def use_browser(self, name: str) -> Path:
        """Give the browser a profile folder it has written to, as a used install has."""
        browser = by_name(name)
        folder = profile_root(browser, self.machine)
        if browser.family == "firefox" and self.machine.system == "linux":
            folder = folder / "firefox"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / USED_MARKER[browser.family]).write_text("")
        return folder

    @property
    def reg(self) -> MemoryRegistry | None:
        return self.registry if self.machine.system == "windows" else None

    def install(self, *names: str, user_data_dir: Path | None = None,
                force: bool = False) -> list[actions.Outcome]:
        return actions.install(self.machine, self.state, self.reg, self.host, names,
                               user_data_dir, force)

    def uninstall(self, *names: str) -> list[actions.Outcome]:
        return actions.uninstall(self.state, self.reg, names)

    def doctor(self, *names: str, user_data_dir: Path | None = None) -> DoctorReport:
        return diagnose(self.machine, self.state, self.reg, self.host, names, user_data_dir)

    def snapshot(self) -> dict[str, bytes | None]:
        """Every file and folder under the root (except the host), with file contents."""
        out: dict[str, bytes | None] = {}
        for path in sorted(self.root.rglob("*")):
            out[str(path.relative_to(self.root))] = path.read_bytes() if path.is_file() else None
        return out

    def manifest_path(self, name: str) -> Path:
        if self.machine.system == "linux":
            return self.home / LINUX[name] / FILE
        if self.machine.system == "darwin":
            return self.home / DARWIN[name] / FILE
        key = f"{WINDOWS_KEYS[name]}\\{HOST_NAME}"
        value = self.registry.read_default(key)
        assert value is not None, f"registry key missing: {key}"
        return Path(value)


def no_binaries(_name: str) -> str | None:
    return None


@pytest.fixture(params=SYSTEMS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    return World(tmp_path, request.param, no_binaries)


def assert_manifest(path: Path, browser: str, host: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["name"] == HOST_NAME
    assert data["type"] == "stdio"
    assert data["path"] == str(host)
    assert Path(data["path"]).is_absolute()
    if browser == "firefox":
        assert data["allowed_extensions"] == list(FIREFOX_ADDON_IDS)
        assert "allowed_origins" not in data
    else:
        assert data["allowed_origins"] == allowed_chrome_origins()
        assert all(o.startswith("chrome-extension://") and o.endswith("/")
                   for o in data["allowed_origins"])
        assert "allowed_extensions" not in data


# --- install and uninstall, every browser on every OS -------------------------------------------

@pytest.mark.parametrize("browser", BROWSER_NAMES)
def test_install_then_uninstall_each_browser(world: World, browser: str) -> None:
    before_files, before_reg = world.snapshot(), dict(world.registry.keys)

    outcomes = world.install(browser)
    assert [o.status for o in outcomes] == ["written"]
    path = world.manifest_path(browser)
    assert_manifest(path, browser, world.host)
    if world.machine.system == "windows":
        # The file sits in Relay's own folder, not in the browser's profile.
        assert path.is_relative_to(world.home / "AppData" / "Local" / "Relay")
    assert [r.browser for r in world.state.registrations] == [browser]

    removed = world.uninstall()
    assert {o.status for o in removed} == {"removed"}
    assert world.snapshot() == before_files
    assert world.registry.keys == before_reg
    assert world.state.registrations == []


def test_install_all_browsers_then_uninstall_leaves_no_trace(world: World) -> None:
    # The browsers' own profile folders (made by World) must survive uninstall.
    world.registry.write_default(r"Software\Google\Chrome\Other", "unrelated")
    before_files, before_reg = world.snapshot(), dict(world.registry.keys)

    outcomes = world.install(*BROWSER_NAMES)
    assert [o.status for o in outcomes] == ["written"] * len(BROWSER_NAMES)
    for name in BROWSER_NAMES:
        assert_manifest(world.manifest_path(name), name, world.host)

    # A second install changes nothing and still remembers what the first one created.
    assert {o.status for o in world.install(*BROWSER_NAMES)} == {"unchanged"}
    world.uninstall()
    assert world.snapshot() == before_files
    assert world.registry.keys == before_reg


def test_uninstall_one_browser_keeps_the_others(world: World) -> None:
    before_files, before_reg = world.snapshot(), dict(world.registry.keys)
    world.install("chrome", "edge", "firefox")
    world.uninstall("chrome")
    assert sorted(r.browser for r in world.state.registrations) == ["edge", "firefox"]
    assert_manifest(world.manifest_path("firefox"), "firefox", world.host)
    assert_manifest(world.manifest_path("edge"), "edge", world.host)
    # Folders shared with chrome (Windows: Relay's own folder) are cleaned up by the last one out.
    world.uninstall("firefox")
    world.uninstall()
    assert world.snapshot() == before_files
    assert world.registry.keys == before_reg


def test_state_record_round_trips(tmp_path: Path) -> None:
    w = World(tmp_path, "windows", no_binaries)
    w.install("edge")
    record = tmp_path / "rh" / state.STATE_FILENAME
    state.save(record, w.state)
    loaded = state.load(record)
    assert loaded == w.state
    assert loaded.registrations[0].registry_key == rf"{WINDOWS_KEYS['edge']}\{HOST_NAME}"
    state.save(record, InstallState())
    assert not record.exists(), "an empty record is removed, not left behind"
    record.write_text("{not json")
    with pytest.raises(state.StateError):
        state.load(record)


# --- --user-data-dir ------------------------------------------------------------------------------

def test_user_data_dir(world: World) -> None:
    profile = world.root / "profile"
    profile.mkdir()
    before = world.snapshot()
    outcomes = world.install("chromium", user_data_dir=profile)
    assert [o.status for o in outcomes] == ["written"]
    path = profile / "NativeMessagingHosts" / FILE
    assert_manifest(path, "chromium", world.host)
    # Nothing else written: not in home, not in the registry.
    written = set(world.snapshot()) - set(before)
    assert written == {"profile/NativeMessagingHosts", f"profile/NativeMessagingHosts/{FILE}"}
    assert world.registry.keys == {"software": {}}

    report = world.doctor("chromium", user_data_dir=profile)
    assert report.ok, report
    world.uninstall()
    assert world.snapshot() == before


def test_user_data_dir_defaults_to_chromium_and_rejects_bad_input(tmp_path: Path) -> None:
    w = World(tmp_path, "linux", no_binaries)
    profile = tmp_path / "p"
    w.install(user_data_dir=profile)
    assert w.state.registrations[0].browser == "chromium"
    assert (profile / "NativeMessagingHosts" / FILE).is_file()
    with pytest.raises(actions.InstallError, match="Chromium-family"):
        w.install("firefox", user_data_dir=profile)
    with pytest.raises(actions.InstallError, match="single"):
        w.install("chrome", "edge", user_data_dir=profile)
    with pytest.raises(actions.InstallError, match="absolute"):
        w.install("chrome", user_data_dir=Path("relative"))


# --- which browsers, without --browser ------------------------------------------------------------

@pytest.fixture(params=SYSTEMS)
def bare(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    """A machine with no browser installed."""
    return World(tmp_path, request.param, no_binaries, present=())


def test_no_browser_found_is_a_clear_error(bare: World) -> None:
    with pytest.raises(actions.InstallError, match="no supported browser"):
        bare.install()
    with pytest.raises(actions.InstallError, match="unknown browser"):
        bare.install("netscape")


def test_detects_browsers_by_profile_folder(bare: World) -> None:
    folder = {
        "linux": bare.home / ".config" / "vivaldi",
        "darwin": bare.home / "Library" / "Application Support" / "Vivaldi",
        "windows": bare.home / "AppData" / "Local" / "Vivaldi" / "User Data",
    }[bare.machine.system]
    folder.mkdir(parents=True)
    # An empty folder (or one holding only a hosts folder Relay made) is not a used browser.
    (folder / "NativeMessagingHosts").mkdir()
    with pytest.raises(actions.InstallError, match="no supported browser"):
        bare.install()
    (folder / "Local State").write_text("{}")
    outcomes = bare.install()
    assert [o.browser for o in outcomes] == ["vivaldi"]


def test_named_browser_that_is_not_installed_gets_no_folders(bare: World) -> None:
    bare.use_browser("firefox")
    before_files, before_reg = bare.snapshot(), dict(bare.registry.keys)
    outcomes = bare.install("edge", "firefox")
    assert [(o.browser, o.status) for o in outcomes] == [("edge", "absent"), ("firefox", "written")]
    assert "not installed" in outcomes[0].message
    assert not any("edge" in p.lower() for p in set(bare.snapshot()) - set(before_files))
    assert not any("edge" in k for k in set(bare.registry.keys) - set(before_reg))
    report = bare.doctor("edge")
    (entry,) = report.browsers
    assert not report.ok and entry.status == "not installed" and not entry.installed
    assert [p.code for p in entry.problems] == ["browser_not_installed"]


def test_linux_honours_xdg_config_home_for_chromium_family(tmp_path: Path) -> None:
    w = World(tmp_path, "linux", no_binaries, present=())
    xdg = tmp_path / "xdg"
    w.machine = Machine("linux", w.home, {"XDG_CONFIG_HOME": str(xdg)}, no_binaries)
    w.use_browser("brave")
    w.use_browser("firefox")
    w.install("brave", "firefox")
    assert (xdg / "BraveSoftware" / "Brave-Browser" / "NativeMessagingHosts" / FILE).is_file()
    assert (w.home / ".mozilla" / "native-messaging-hosts" / FILE).is_file()


def test_detects_browsers_by_binary_and_app_bundle(tmp_path: Path) -> None:
    def which(name: str) -> str | None:
        return "/usr/bin/firefox" if name == "firefox" else None

    (tmp_path / "l").mkdir()
    linux = World(tmp_path / "l", "linux", which, present=())
    assert [o.browser for o in linux.install()] == ["firefox"]

    (tmp_path / "m").mkdir()
    mac = World(tmp_path / "m", "darwin", no_binaries, present=())
    apps = tmp_path / "m" / "Applications"
    (apps / "Brave Browser.app").mkdir(parents=True)
    mac.machine = Machine("darwin", mac.home, {}, no_binaries, app_roots=(apps,))
    assert [o.browser for o in mac.install()] == ["brave"]


# --- never touch what is not ours -----------------------------------------------------------------

def test_foreign_manifest_is_refused_then_replaced_with_force(world: World) -> None:
    foreign = b'{"name": "dev.relay.bridge", "path": "/opt/other"}\n'
    if world.machine.system == "windows":
        folder = world.home / "AppData" / "Local" / "Relay" / "NativeMessagingHosts" / "chrome"
    else:
        folder = world.home / (LINUX if world.machine.system == "linux" else DARWIN)["chrome"]
    target = folder / FILE
    target.parent.mkdir(parents=True)
    target.write_bytes(foreign)

    outcomes = world.install("chrome")
    assert [o.status for o in outcomes] == ["refused"]
    assert "--force" in outcomes[0].message
    assert target.read_bytes() == foreign
    assert world.state.registrations == []

    assert [o.status for o in world.install("chrome", force=True)] == ["written"]
    assert_manifest(world.manifest_path("chrome"), "chrome", world.host)


def test_foreign_registry_value_is_refused(tmp_path: Path) -> None:
    w = World(tmp_path, "windows", no_binaries)
    key = rf"{WINDOWS_KEYS['edge']}\{HOST_NAME}"
    w.registry.write_default(key, r"C:\elsewhere\host.json")
    outcomes = w.install("edge")
    assert [o.status for o in outcomes] == ["refused"]
    assert w.registry.read_default(key) == r"C:\elsewhere\host.json"
    assert not list(w.home.rglob(FILE)), "nothing written when refused"
    assert not (w.home / "AppData" / "Local" / "Relay").exists()


def test_uninstall_leaves_changed_manifest_and_foreign_neighbours(world: World) -> None:
    world.install("chrome", "firefox")
    chrome = world.manifest_path("chrome")
    neighbour = chrome.parent / "com.other.host.json"
    neighbour.write_text('{"name": "com.other.host"}')
    firefox = world.manifest_path("firefox")
    firefox.write_text('{"name": "dev.relay.bridge", "edited": "by someone else"}')

    outcomes = {o.location: o for o in world.uninstall()}
    assert outcomes[str(firefox)].status == "left"
    assert "changed" in outcomes[str(firefox)].message
    assert firefox.is_file()
    assert outcomes[str(chrome)].status == "removed"
    assert not chrome.exists()
    assert neighbour.is_file() and chrome.parent.is_dir()
    assert world.state.registrations == []


def test_uninstall_leaves_registry_key_pointing_elsewhere(tmp_path: Path) -> None:
    w = World(tmp_path, "windows", no_binaries)
    w.install("vivaldi")
    key = rf"{WINDOWS_KEYS['vivaldi']}\{HOST_NAME}"
    w.registry.write_default(key, r"D:\someone\else.json")
    outcomes = {o.location: o.status for o in w.uninstall()}
    assert outcomes[f"HKCU\\{key}"] == "left"
    assert w.registry.read_default(key) == r"D:\someone\else.json"


def test_uninstall_when_already_removed_by_hand(world: World) -> None:
    world.install("edge")
    path = world.manifest_path("edge")
    path.unlink()
    statuses = {o.status for o in world.uninstall()}
    assert "gone" in statuses and "left" not in statuses


# --- host executable ------------------------------------------------------------------------------

def test_host_path_must_be_absolute_and_executable(tmp_path: Path) -> None:
    exe = tmp_path / "relay-bridge"
    exe.write_text("#!/bin/sh\n")
    with pytest.raises(HostPathError, match="not executable"):
        resolve_host_path(exe, "linux")
    exe.chmod(0o755)
    assert resolve_host_path(exe, "linux") == exe
    with pytest.raises(HostPathError, match="absolute"):
        resolve_host_path(Path("relay-bridge"), "linux")
    with pytest.raises(HostPathError, match="not found"):
        resolve_host_path(tmp_path / "missing", "linux")


def test_default_host_is_the_console_script_beside_python() -> None:
    found = resolve_host_path(None, "linux")
    assert found.is_absolute()
    assert found.name == "relay-bridge"


# --- doctor ---------------------------------------------------------------------------------------

def codes(report: DoctorReport, browser: str) -> dict[str, str]:
    for entry in report.browsers:
        if entry.browser == browser and entry.user_data_dir is None:
            return {p.code: p.fix for p in entry.problems}
    raise AssertionError(f"{browser} not in report")


def test_doctor_healthy(world: World) -> None:
    world.install("chrome", "firefox")
    report = world.doctor()
    assert report.ok
    entries = {b.browser: b for b in report.browsers}
    assert entries["chrome"].registered and entries["chrome"].written_by_relay
    assert entries["firefox"].host_path == str(world.host)


def test_doctor_nothing_registered_is_an_error(bare: World) -> None:
    report = bare.doctor()
    assert not report.ok
    assert report.problems[0].code == "no_browser"
    bare.use_browser("edge")
    report = bare.doctor("edge")
    assert not report.ok
    assert codes(report, "edge") == {"missing_manifest": "relay install --browser edge"}


def test_doctor_unused_browser_is_only_a_warning(bare: World) -> None:
    bare.use_browser("firefox")
    bare.install("firefox")
    bare.use_browser("chromium")
    report = bare.doctor()
    assert report.ok
    chromium = next(b for b in report.browsers if b.browser == "chromium")
    assert [(p.code, p.severity) for p in chromium.problems] == [("missing_manifest", "warning")]
    assert chromium.status == "not registered"


def test_doctor_missing_manifest(world: World) -> None:
    world.install("brave")
    world.manifest_path("brave").unlink()
    report = world.doctor()
    assert not report.ok
    assert codes(report, "brave") == {"missing_manifest": "relay install --browser brave"}


def test_doctor_missing_registry_key(tmp_path: Path) -> None:
    w = World(tmp_path, "windows", no_binaries)
    w.install("chrome")
    w.registry.delete(rf"{WINDOWS_KEYS['chrome']}\{HOST_NAME}")
    report = w.doctor()
    assert not report.ok
    assert "missing_manifest" in codes(report, "chrome")
    assert "registry key" in report.browsers[0].problems[0].message


def test_doctor_host_not_executable(world: World) -> None:
    world.install("vivaldi")
    world.host.chmod(0o644)
    report = world.doctor()
    assert not report.ok
    found = codes(report, "vivaldi")
    assert "host_not_executable" in found
    # Relay's own host is broken too, so the fix must name a host path explicitly.
    assert "--host-path" in found["host_not_executable"]
    assert report.problems and report.problems[0].code == "host_not_executable"


def test_doctor_host_deleted(world: World) -> None:
    world.install("edge")
    world.host.unlink()
    assert "host_missing" in codes(world.doctor(), "edge")


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (lambda m: m.update(allowed_origins=["chrome-extension://aaaa/"]), "wrong_allowed_origin"),
        (lambda m: m.update(name="com.example.other"), "name_mismatch"),
        (lambda m: m.update(type="socket"), "wrong_type"),
        (lambda m: m.update(path="relay-bridge"), "host_not_absolute"),
    ],
)
def test_doctor_detects_edited_chromium_manifest(
    world: World, edit: Callable[[dict[str, object]], None], code: str
) -> None:
    world.install("chromium")
    path = world.manifest_path("chromium")
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    report = world.doctor()
    assert not report.ok
    found = codes(report, "chromium")
    if code == "host_not_absolute" and world.machine.system == "windows":
        code = "host_missing"  # Windows allows a path relative to the manifest: none there
    assert code in found
    # Install refuses to replace a changed file, so the fix carries --force.
    assert found[code] == "relay install --browser chromium --force"
    assert "changed_manifest" in found


def test_doctor_wrong_firefox_addon_id(world: World) -> None:
    world.install("firefox")
    path = world.manifest_path("firefox")
    data = json.loads(path.read_text())
    data["allowed_extensions"] = ["someone@else"]
    path.write_text(json.dumps(data))
    assert "wrong_allowed_origin" in codes(world.doctor(), "firefox")


def test_doctor_warns_when_another_host_is_registered(world: World) -> None:
    other = world.root / "bin" / "old-relay-bridge"
    other.write_text("#!/bin/sh\n")
    other.chmod(0o755)
    actions.install(world.machine, world.state, world.reg, other, ["edge"])
    report = world.doctor()
    assert report.ok, "a working older host is a warning, not an error"
    entry = next(b for b in report.browsers if b.browser == "edge")
    assert [(p.code, p.severity, p.fix) for p in entry.problems] == [
        ("host_differs", "warning", "relay install --browser edge")]


def test_doctor_invalid_json(world: World) -> None:
    world.install("chrome")
    world.manifest_path("chrome").write_text('{"name": "dev.relay.bridge",')
    report = world.doctor()
    assert not report.ok
    assert "invalid_json" in codes(report, "chrome")


def test_doctor_fix_actually_fixes(world: World) -> None:
    world.install("chrome")
    path = world.manifest_path("chrome")
    path.write_text("[]")
    fix = codes(world.doctor(), "chrome")["invalid_json"]
    assert fix.endswith("--force")
    world.install("chrome", force=True)
    assert world.doctor().ok


def test_manifest_check_accepts_what_build_writes(tmp_path: Path) -> None:
    exe = tmp_path / "h"
    exe.write_text("")
    exe.chmod(0o755)
    families: tuple[Family, ...] = ("chromium", "firefox")
    for family in families:
        data = manifest.render(manifest.build(family, exe))
        parsed, findings = manifest.check_data(data, family)
        assert parsed is not None and findings == []


# --- the command line -----------------------------------------------------------------------------

def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="relay")
    install_cmd.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def test_cli_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    home, relay_home = tmp_path / "home", tmp_path / "rh"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("RELAY_HOME", str(relay_home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("RELAY_PROFILE", str(REPO / "demo" / "profile" / "sample.json"))
    if sys.platform == "win32":
        pytest.skip("drives the real machine's layout; Linux/macOS only")
    (home / ".mozilla" / "firefox").mkdir(parents=True)
    (home / ".config" / "microsoft-edge").mkdir(parents=True)
    (home / ".config" / "microsoft-edge" / "Local State").write_text("{}")

    assert run_cli("install", "--browser", "firefox", "edge") == 0
    assert (relay_home / state.STATE_FILENAME).is_file()
    capsys.readouterr()
    assert run_cli("doctor", "--browser", "firefox", "edge", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert {b["browser"] for b in report["browsers"]} == {"firefox", "edge"}

    assert run_cli("install", "--browser", "chrome", "--host-path", "relative/host") == 1
    assert "absolute" in capsys.readouterr().err

    assert run_cli("uninstall") == 0
    assert not (relay_home / state.STATE_FILENAME).exists()
    assert list(home.rglob(FILE)) == []
    assert run_cli("doctor", "--browser", "firefox") == 1
    assert "relay install --browser firefox" in capsys.readouterr().out


def relay_script() -> Path:
    beside = Path(sys.executable).parent / "relay"
    return beside if beside.exists() else REPO / ".venv" / "bin" / "relay"


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX venv layout")
def test_real_relay_console_script(tmp_path: Path) -> None:
    relay = relay_script()
    assert relay.exists(), "the relay console script is not installed: run ./dev setup"
    home, relay_home, profile = tmp_path / "home", tmp_path / "rh", tmp_path / "profile"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "RELAY_HOME": str(relay_home),
           "RELAY_PROFILE": str(REPO / "demo" / "profile" / "sample.json")}
    env.pop("XDG_CONFIG_HOME", None)

    def relay_run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(relay), *argv], env=env, capture_output=True, text=True,
                              timeout=120, check=False)

    done = relay_run("install", "--browser", "chromium", "--user-data-dir", str(profile))
    assert done.returncode == 0, done.stderr
    written = profile / "NativeMessagingHosts" / FILE
    data = json.loads(written.read_text())
    assert data["allowed_origins"] == allowed_chrome_origins()
    host = Path(data["path"])
    assert host.is_absolute() and host.name == "relay-bridge" and os.access(host, os.X_OK)
    assert list(home.rglob("*")) == [], "--user-data-dir writes nothing into home"

    done = relay_run("doctor", "--browser", "chromium", "--user-data-dir", str(profile), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["ok"] is True

    done = relay_run("uninstall")
    assert done.returncode == 0, done.stderr
    assert not written.exists() and not written.parent.exists()
    assert list(relay_home.iterdir()) == [] or not (relay_home / state.STATE_FILENAME).exists()


@pytest.mark.skipif(sys.platform != "win32", reason="the real registry exists only on Windows")
def test_windows_registry_round_trip() -> None:
    registry = WindowsRegistry()
    key = r"Software\RelayTest\NativeMessagingHosts\dev.relay.test"
    registry.write_default(key, r"C:\x.json")
    try:
        assert registry.read_default(key) == r"C:\x.json"
    finally:
        registry.delete(key)
        for parent in (r"Software\RelayTest\NativeMessagingHosts", r"Software\RelayTest"):
            registry.delete(parent)
    assert not registry.exists(key)
