"""The installer scripts for the platforms this machine cannot run: their structure, the shell
scripts through shellcheck, and the Windows installer's registry layout applied to the registry
stand-in and checked by `relay doctor`'s own code."""

from __future__ import annotations

import importlib.util
import os
import plistlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path, PureWindowsPath
from types import ModuleType

import pytest

from bridge.identity import BRIDGE_VERSION, HOST_NAME
from bridge.install import manifest
from bridge.install.browsers import BROWSERS
from bridge.install.doctor import diagnose
from bridge.install.machine import Machine
from bridge.install.registry import MemoryRegistry
from bridge.install.state import InstallState
from tests.conftest import REPO

PACKAGING = REPO / "packaging"
ISS = PACKAGING / "windows" / "relay.iss"
SHELL_SCRIPTS = [REPO / "dev", *sorted((PACKAGING / "linux").glob("*.sh")),
                 PACKAGING / "macos" / "build_pkg.sh",
                 PACKAGING / "macos" / "scripts" / "postinstall"]


def test_shell_scripts_pass_shellcheck() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: ./dev setup installs it"
    done = subprocess.run([shellcheck, *map(str, SHELL_SCRIPTS)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout


def test_shell_scripts_are_executable() -> None:
    for script in SHELL_SCRIPTS:
        assert script.stat().st_mode & 0o111, script


# --- Windows -----------------------------------------------------------------------------------

def iss_sections() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    for line in ISS.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if re.fullmatch(r"\[\w+\]", stripped):
            current = stripped[1:-1]
            sections[current] = []
        elif current:
            sections[current].append(stripped)
    return sections


def iss_entry(line: str) -> dict[str, str]:
    return {k.strip(): v.strip().strip('"')
            for k, v in (part.split(":", 1) for part in line.split("; ") if ":" in part)}


def iss_define(name: str) -> str:
    found = re.search(rf'#define {name} "([^"]*)"', ISS.read_text(encoding="utf-8"))
    assert found, name
    return found.group(1)


def test_iss_is_per_user_and_versioned_like_the_bridge() -> None:
    setup = dict(line.split("=", 1) for line in iss_sections()["Setup"])
    assert setup["PrivilegesRequired"] == "lowest"
    assert setup["DefaultDirName"].startswith("{localappdata}")
    assert iss_define("AppVersion") == BRIDGE_VERSION
    assert iss_define("HostName") == HOST_NAME


def test_iss_registry_keys_cover_every_browser_and_are_removed_on_uninstall() -> None:
    keys = {}
    for line in iss_sections()["Registry"]:
        entry = iss_entry(line)
        if "NativeMessagingHosts" not in entry["Subkey"]:
            continue
        assert entry["Root"] == "HKCU" and entry["ValueName"] == ""
        assert "uninsdeletekey" in entry["Flags"]
        keys[entry["Subkey"].replace("{#HostName}", HOST_NAME)] = entry["ValueData"]
    expected = {f"{b.windows_key}\\{HOST_NAME}": b.family for b in BROWSERS}
    assert set(keys) == set(expected)
    for key, family in expected.items():
        assert keys[key] == f"{{app}}\\{{#HostName}}.{family}.json"


def test_iss_ships_the_manifests_it_points_to_and_they_match_the_bridges() -> None:
    files = [iss_entry(line)["Source"] for line in iss_sections()["Files"]]
    for family in ("chromium", "firefox"):
        name = f"{HOST_NAME}.{family}.json"
        assert "{#HostName}." + f"{family}.json" in files
        shipped = (PACKAGING / "windows" / name).read_bytes()
        assert shipped == manifest.render(manifest.build(family, PureWindowsPath("relay.exe")))
    assert (PACKAGING / "windows" / "installed-by").is_file()
    assert any("uninstall" in line for line in iss_sections()["UninstallRun"])


def test_iss_layout_on_the_registry_stand_in_passes_doctor(tmp_path: Path) -> None:
    """What the installer writes, laid out on a Windows stand-in, is what browsers need."""
    home = tmp_path / "home"
    local = home / "AppData" / "Local"
    app = local / "Programs" / "Relay"
    app.mkdir(parents=True)
    (app / "relay.exe").write_text("")
    (app / "relay.exe").chmod(0o755)
    for family in ("chromium", "firefox"):
        name = f"{HOST_NAME}.{family}.json"
        shutil.copy(PACKAGING / "windows" / name, app / name)
    registry = MemoryRegistry({"software": {}})
    for line in iss_sections()["Registry"]:
        entry = iss_entry(line)
        if "NativeMessagingHosts" in entry["Subkey"]:
            # This machine's paths stand in for Windows ones: `{app}\\file` becomes `app/file`.
            value = entry["ValueData"].replace("{#HostName}", HOST_NAME).replace(
                "{app}\\", f"{app}/")
            registry.write_default(entry["Subkey"].replace("{#HostName}", HOST_NAME), value)
    env = {"LOCALAPPDATA": str(local), "APPDATA": str(home / "AppData" / "Roaming")}
    machine = Machine("windows", home, env)
    for browser in BROWSERS:  # each browser used once
        folder = (home / "AppData" / ("Roaming" if browser.family == "firefox" else "Local")
                  ).joinpath(*browser.windows_dir.split("/"))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "Local State").write_text("")
    report = diagnose(machine, InstallState(), registry, app / "relay.exe")
    assert report.ok, report
    assert {b.browser: b.status for b in report.browsers} == {b.name: "ok" for b in BROWSERS}
    assert {b.host_path for b in report.browsers} == {str(app / "relay.exe")}


# --- macOS -------------------------------------------------------------------------------------

def test_macos_app_layout_and_package_files() -> None:
    plist = plistlib.loads((PACKAGING / "macos" / "Info.plist").read_bytes())
    assert plist["CFBundleExecutable"] == "relay" and plist["CFBundlePackageType"] == "APPL"
    assert plist["CFBundleShortVersionString"] == "@VERSION@"
    dist = ET.parse(PACKAGING / "macos" / "distribution.xml").getroot()
    (ref,) = [r for r in dist.iter("pkg-ref") if r.text]
    assert ref.text == "relay-component.pkg" and ref.get("id") == "dev.relay.bridge"
    script = (PACKAGING / "macos" / "build_pkg.sh").read_text()
    assert "pkgbuild" in script and "productbuild" in script and "relay-component.pkg" in script
    assert "Contents/MacOS" in script and "Contents/Info.plist" in script
    postinstall = (PACKAGING / "macos" / "scripts" / "postinstall").read_text()
    assert '"$relay" install' in postinstall and "sudo -u" in postinstall


# --- the spec's hook for extra data -------------------------------------------------------------

def test_spec_has_the_extra_data_hook_and_the_lock_pins_every_package() -> None:
    spec = (PACKAGING / "relay.spec").read_text()
    assert "EXTRA_DATA_PACKAGES" in spec
    lock = (PACKAGING / "requirements.lock").read_text()
    pinned = re.findall(r"^([a-z0-9_.-]+)==\S+ \\$", lock, flags=re.M)
    assert {"litellm", "pyinstaller", "pydantic", "apsw", "sqlite-vec", "tomlkit"} <= set(pinned)
    assert "/opt/" not in lock and "file://" not in lock, "no machine-specific paths"
    for name in pinned:
        block = lock.split(f"\n{name}==", 1)[1].split("\n\n", 1)[0]
        assert "--hash=sha256:" in block, name


@pytest.mark.parametrize("name", ["install.sh", "uninstall.sh"])
def test_linux_scripts_need_no_root(name: str) -> None:
    text = (PACKAGING / "linux" / name).read_text()
    assert "sudo" not in text and "/usr/" not in text and "/etc/" not in text


def test_the_command_line_runs_without_what_the_desktop_build_leaves_out(tmp_path: Path) -> None:
    """The desktop build has no Chromium driver (bridge.driver) and no Playwright: every command
    but `relay fill`/`demo` must import without them (`relay uninstall` in the build once failed
    on `relay history`'s import of the fill report)."""
    blocked = ("bridge.driver", "playwright")
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {blocked!r} or name.startswith('bridge.driver'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from bridge.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("RELAY_")}
    env["RELAY_HOME"] = str(tmp_path)
    for argv in (["history"], ["config", "list"], ["doctor", "--no-start", "--json"]):
        done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True,
                              text=True, env=env, cwd=REPO, timeout=120, check=False)
        assert "ModuleNotFoundError" not in done.stderr, (argv, done.stderr[-2000:])


def _check_build() -> ModuleType:
    """packaging/check_build.py (packaging/ is not a package: its name is PyPI's `packaging`)."""
    spec = importlib.util.spec_from_file_location("check_build", PACKAGING / "check_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _host_without(folder: Path, blocked: tuple[str, ...]) -> Path:
    """The venv's bridge as one program a browser can start, with `blocked` made unimportable
    as if a build had left them out."""
    program = folder / "relay"
    program.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name in {blocked!r}:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from bridge.host import main\n"
        "sys.exit(main())\n")
    program.chmod(0o755)
    return program


def test_the_build_check_passes_a_bridge_that_reaches_the_model(tmp_path: Path) -> None:
    check = _check_build()
    check.check_model_path(_host_without(tmp_path, ()))


def test_the_build_check_fails_a_build_without_a_module_litellm_imports(tmp_path: Path) -> None:
    """The desktop build once left out Hugging Face's tokenizers, which `import litellm` needs:
    every model-backed Fill said "litellm not installed". The build's own check stops such a
    build and names the module."""
    check = _check_build()
    with pytest.raises(check.BuildCheckFailed, match="litellm not installed") as failed:
        check.check_model_path(_host_without(tmp_path, ("tokenizers",)))
    assert "No module named 'tokenizers'" in str(failed.value)
