"""Build the Linux desktop release: the PyInstaller one-folder build, the tarball and the .deb.

Run by `./dev bundle` with the build environment's Python (installed from
packaging/requirements.lock). Writes into dist/:
  relay/                                  the program folder (relay, _internal/, extension/, ...)
  relay-VERSION-linux-ARCH.tar.gz         that folder with install.sh and uninstall.sh
  relay_VERSION_ARCH.deb                  /usr/lib/relay, /usr/bin/relay and system-wide manifests

A finished build is cached under the build cache, keyed on everything that goes into it, so an
unchanged tree is not built twice.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bundle_sizes import breakdown, report  # noqa: E402  (packaging/, this script's folder)
from check_build import BuildCheckFailed, check_model_path  # noqa: E402

from bridge.identity import BRIDGE_VERSION, HOST_DESCRIPTION  # noqa: E402
from bridge.install import manifest  # noqa: E402
from bridge.install.browsers import BROWSERS  # noqa: E402
from bridge.install.program import INSTALLED_BY  # noqa: E402
from bridge.install.targets import MANIFEST_FILENAME  # noqa: E402

DIST = REPO / "dist"
# What goes into the build: a change to any of these makes a new one.
INPUTS = ("bridge", "rules", "extension", "packaging/relay.spec", "packaging/entrypoints",
          "packaging/linux", "packaging/requirements.lock", "packaging/build.py",
          "packaging/litellm_modules.txt", "packaging/unimportable.py", "packaging/stubs",
          "packaging/encoder_weights.py")
DEB_PREFIX = Path("/usr/lib/relay")


def inputs_key() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for name in INPUTS:
        root = REPO / name
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in files:
            digest.update(str(path.relative_to(REPO)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def arch() -> str:
    machine = platform.machine().lower()
    return {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "arm64"}.get(machine, machine)


def deb_arch() -> str:
    return {"x86_64": "amd64", "arm64": "arm64"}.get(arch(), arch())


def pyinstaller(work: Path, out: Path) -> None:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_MODE": "PRODUCTION"}
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--workpath", str(work), "--distpath", str(out), str(REPO / "packaging" / "relay.spec")],
        check=True, env=env, cwd=REPO)


def assemble(program: Path) -> None:
    """Add what the person needs beside the program: the extension and the install scripts."""
    shutil.copytree(REPO / "extension", program / "extension",
                    ignore=shutil.ignore_patterns("README.md"))
    for script in ("install.sh", "uninstall.sh"):
        shutil.copy2(REPO / "packaging" / "linux" / script, program / script)
    (program / "README.txt").write_text(
        f"Relay {BRIDGE_VERSION}\n\n"
        "Install for this user (no root needed):  ./install.sh\n"
        "Check that everything a Fill needs is in place:  relay doctor\n"
        "Remove it again:  ~/.local/lib/relay/uninstall.sh  (add --delete-data to remove your "
        "data too)\n\nDetails: docs/install.md in Relay's source, or `relay --help`.\n",
        encoding="utf-8")


def tarball(program: Path) -> Path:
    name = f"relay-{BRIDGE_VERSION}-linux-{arch()}"
    target = DIST / f"{name}.tar.gz"

    def normalise(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    # Level 6: nearly the size of 9 (the default) in a fraction of the time.
    with tarfile.open(target, "w:gz", compresslevel=6) as tar:
        tar.add(program, arcname=name, filter=normalise)
    return target


def glibc_needed(program: Path) -> str:
    """The newest glibc symbol version any of the program's binaries asks for: a system with an
    older glibc cannot start it. (PyInstaller copies the build machine's libpython and libstdc++,
    so this is about the build machine's glibc.)"""
    newest = (2, 0)
    for path in program.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        with path.open("rb") as file:
            if file.read(4) != b"\x7fELF":
                continue
        symbols = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True,
                                 check=True).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", symbols):
            newest = max(newest, (int(major), int(minor)))
    return f"{newest[0]}.{newest[1]}"


def deb(program: Path, scratch: Path, glibc: str) -> Path:
    """The program in /usr/lib/relay, `relay` on PATH, and manifests for every user in the
    system-wide folders the browsers read (dpkg removes exactly these again)."""
    root = scratch / "deb"
    shutil.rmtree(root, ignore_errors=True)
    lib = root / DEB_PREFIX.relative_to("/")
    shutil.copytree(program, lib, symlinks=True)
    for script in ("install.sh", "uninstall.sh"):
        (lib / script).unlink()  # per-user scripts: the package manager installs and removes
    (lib / INSTALLED_BY).write_text("the relay .deb package\n", encoding="utf-8")
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / "relay").symlink_to("../lib/relay/relay")
    host = DEB_PREFIX / "relay"
    for browser in BROWSERS:
        if browser.linux_system_dir is None:
            continue
        folder = root / browser.linux_system_dir.lstrip("/")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / MANIFEST_FILENAME).write_bytes(
            manifest.render(manifest.build(browser.family, host)))
    size_kb = sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) // 1024
    control = root / "DEBIAN" / "control"
    control.parent.mkdir()
    control.write_text(
        "Package: relay\n"
        f"Version: {BRIDGE_VERSION}\n"
        f"Architecture: {deb_arch()}\n"
        "Maintainer: Relay <relay@relay.dev>\n"
        f"Installed-Size: {size_kb}\n"
        f"Depends: libc6 (>= {glibc})\n"
        "Section: web\n"
        "Priority: optional\n"
        f"Description: {HOST_DESCRIPTION}\n"
        " Relay fills in job applications in your own browser from your own profile and\n"
        " leaves the final Submit click to you. This package installs the bridge for every\n"
        " user and registers it with Chrome, Chromium, Edge and Firefox; run\n"
        " `relay install` once to register Brave, Vivaldi and Flatpak browsers too.\n",
        encoding="utf-8")
    target = DIST / f"relay_{BRIDGE_VERSION}_{deb_arch()}.deb"
    # gzip: every dpkg reads it, and it compresses in seconds where xz took minutes.
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(root),
                    str(target)], check=True, stdout=subprocess.DEVNULL)
    return target


def check(program: Path) -> None:
    """Stop the build unless the program's model-backed Fill works (packaging/check_build.py)."""
    try:
        check_model_path(program / "relay")
    except BuildCheckFailed as exc:
        sys.exit(f"bundle: the build is broken, the model path does not work: {exc}")
    print("bundle: checked: the program reaches a model and reports its errors")


def cpu_seconds() -> float:
    """User and system CPU time of this script and the programs it ran (PyInstaller, dpkg-deb):
    what a build costs, whatever else shares the machine."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True, help="build cache folder")
    parser.add_argument("--no-deb", action="store_true", help="skip the .deb (no dpkg-deb)")
    args = parser.parse_args()
    started = time.perf_counter()
    key = inputs_key()
    cached = args.cache / f"program-{key}"
    program = DIST / "relay"
    reused = cached.is_dir()
    if reused:
        print(f"bundle: unchanged sources, reusing {cached}")
        check(cached)
    else:
        work = args.cache / "pyinstaller"
        out = args.cache / f"out-{key}"
        shutil.rmtree(out, ignore_errors=True)
        pyinstaller(work, out)
        assemble(out / "relay")
        check(out / "relay")  # a build that fails is not kept
        for old in args.cache.glob("program-*"):
            shutil.rmtree(old, ignore_errors=True)  # one finished build is enough to keep
        (out / "relay").rename(cached)
        shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(program, ignore_errors=True)
    DIST.mkdir(exist_ok=True)
    shutil.copytree(cached, program, symlinks=True)
    made = [program, tarball(program)]
    glibc = glibc_needed(program)
    if not args.no_deb and shutil.which("dpkg-deb"):
        made.append(deb(program, args.cache, glibc))
    packages = breakdown(program)
    size = sum(packages.values())  # a library linked twice (numpy's OpenBLAS) counted once
    info = {"version": BRIDGE_VERSION, "key": key, "unpacked_bytes": size, "glibc": glibc,
            "seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds": round(cpu_seconds(), 1), "rebuilt": not reused,
            "artifacts": [str(p.relative_to(REPO)) for p in made], "packages": packages}
    (DIST / "bundle.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    for path in made:
        print(f"bundle: {path.relative_to(REPO)}")
    print("bundle: size by package\n" + "\n".join(report(packages)))
    print(f"bundle: runs on Linux with glibc {glibc} or newer")
    print(f"bundle: {size / 1e6:.0f} MB unpacked, {info['seconds']} s, "
          f"{info['cpu_seconds']} s of CPU ({'rebuilt' if not reused else 'cached build'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
