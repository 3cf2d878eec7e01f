"""`install` and `uninstall`: write or remove manifests and registry keys, keeping the record.

Relay never overwrites or deletes something it did not write unless told to (`force`), and says
so instead; that is what the state record is for.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from bridge.install import flatpak, manifest
from bridge.install.browsers import BROWSERS, by_name
from bridge.install.machine import Machine
from bridge.install.registry import Registry, parents
from bridge.install.state import InstallState, Registration
from bridge.install.targets import Target, absent_target, installed_targets, profile_target

Status = Literal[
    "written", "unchanged", "refused", "removed", "left", "gone", "absent", "unsupported"]


class InstallError(Exception):
    pass


@dataclass(frozen=True)
class Outcome:
    browser: str
    location: str
    status: Status
    message: str


def select_targets(
    machine: Machine, names: Sequence[str], user_data_dir: Path | None
) -> list[Target]:
    """The browsers named, or those present on the machine; or the one profile folder given."""
    try:
        browsers = [by_name(name) for name in dict.fromkeys(names)]
    except KeyError as exc:
        raise InstallError(exc.args[0]) from exc
    if user_data_dir is not None:
        if len(browsers) > 1:
            raise InstallError("--user-data-dir takes a single --browser (one profile folder)")
        if not user_data_dir.is_absolute():
            raise InstallError(f"--user-data-dir must be an absolute path, got {user_data_dir}")
        try:
            return [profile_target(browsers[0] if browsers else by_name("chromium"), user_data_dir)]
        except ValueError as exc:
            raise InstallError(str(exc)) from exc
    if browsers:
        # A browser named but not installed is reported, never given folders of its own.
        return [t for b in browsers for t in installed_targets(b, machine) or
                [absent_target(b, machine)]]
    found = [t for b in BROWSERS for t in installed_targets(b, machine)]
    if not found:
        raise InstallError(
            "no supported browser found on this machine; name one with --browser "
            "(chrome, chromium, edge, brave, vivaldi, firefox)")
    return found


def _missing_dirs(folder: Path) -> list[Path]:
    """The folder and its ancestors that do not exist yet, outermost first."""
    missing: list[Path] = []
    for candidate in [folder, *folder.parents]:
        if candidate.exists():
            break
        missing.append(candidate)
    return list(reversed(missing))


def _file_is_ours(path: Path, new: bytes, recorded: Registration | None) -> bool:
    if not path.exists():
        return True
    current = path.read_bytes()
    if current == new:
        return True
    return recorded is not None and manifest.digest(current) == recorded.manifest_sha256


def install_target(
    target: Target,
    host_path: Path,
    state: InstallState,
    registry: Registry | None,
    force: bool = False,
    machine: Machine | None = None,
) -> Outcome:
    name, where = target.browser.name, target.describe()
    if target.blocked is not None:
        return Outcome(name, where, target.blocked, target.note)
    launcher = target.launcher_path
    named = launcher if launcher is not None else host_path
    data = manifest.render(manifest.build(target.browser.family, named))
    recorded = state.find(target.manifest_path, target.registry_key)
    path = target.manifest_path

    if not force and not _file_is_ours(path, data, recorded):
        return Outcome(name, where, "refused",
                       f"{path} exists and was not written by Relay (or was changed since); "
                       "left it alone. Re-run with --force to replace it.")
    script = b""
    if launcher is not None:
        script = flatpak.render_launcher(host_path, target.app_id or "")
        ours = launcher.exists() is False or launcher.read_bytes() == script or (
            recorded is not None
            and manifest.digest(launcher.read_bytes()) == recorded.launcher_sha256)
        if not force and not ours:
            return Outcome(name, str(launcher), "refused",
                           f"{launcher} exists and was not written by Relay; left it alone. "
                           "Re-run with --force to replace it.")
    key_value = str(path)
    if target.registry_key is not None:
        if registry is None:
            raise InstallError("registering on Windows needs registry access")
        current = registry.read_default(target.registry_key)
        ours = current in (None, key_value) or (
            recorded is not None and current == recorded.registry_value)
        if not force and not ours:
            return Outcome(name, where, "refused",
                           f"HKCU\\{target.registry_key} already points to {current}; left it "
                           "alone. Re-run with --force to replace it.")

    created_dirs = _missing_dirs(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    unchanged = path.exists() and path.read_bytes() == data
    if not unchanged:
        manifest.write_atomic(path, data)
    if launcher is not None:
        created_dirs += [d for d in _missing_dirs(launcher.parent) if d not in created_dirs]
        launcher.parent.mkdir(parents=True, exist_ok=True)
        if not (launcher.exists() and launcher.read_bytes() == script):
            unchanged = False
            manifest.write_atomic(launcher, script, mode=0o755)

    created_keys: list[str] = []
    if target.registry_key is not None and registry is not None:
        # `Software` itself always exists on a real machine and is never Relay's to remove.
        created_keys = [k for k in parents(target.registry_key)[1:] if not registry.exists(k)]
        if registry.read_default(target.registry_key) != key_value:
            unchanged = False
            registry.write_default(target.registry_key, key_value)

    state.upsert(Registration(
        browser=name,
        manifest_path=str(path),
        manifest_sha256=manifest.digest(data),
        host_path=str(host_path),
        user_data_dir=str(target.user_data_dir) if target.user_data_dir else None,
        registry_key=target.registry_key,
        registry_value=key_value if target.registry_key else None,
        kind=target.kind,
        launcher_path=str(launcher) if launcher else None,
        launcher_sha256=manifest.digest(script) if launcher else None,
        created_dirs=[str(d) for d in created_dirs],
        created_keys=created_keys,
    ))
    message = "already registered" if unchanged else f"registered {target.label}"
    if target.app_id and machine is not None and not flatpak.may_start_host_programs(
            machine, target.app_id):
        message += ("; it runs in a Flatpak sandbox and may not start the bridge yet: allow it "
                    f"once with `{flatpak.grant_command(target.app_id)}`")
    if target.kind == "snap":
        message += "; the first Fill asks you to allow Relay (the desktop portal's prompt)"
    return Outcome(name, where, "unchanged" if unchanged else "written", message)


def _remove_created_dirs(folders: list[str]) -> list[str]:
    """Remove folders Relay created, deepest first, when empty; return those still there."""
    for folder in sorted(set(folders), key=len, reverse=True):
        try:
            os.rmdir(folder)  # only succeeds when empty: other files there are not ours
        except OSError:
            pass
    return [f for f in dict.fromkeys(folders) if Path(f).exists()]


def _remove_created_keys(keys: list[str], registry: Registry) -> list[str]:
    for key in sorted(set(keys), key=len, reverse=True):
        if registry.exists(key) and registry.is_empty(key):
            registry.delete(key)
    return [k for k in dict.fromkeys(keys) if registry.exists(k)]


def _hand_over(folders: list[str], keys: list[str], remaining: list[Registration]) -> None:
    """Folders/keys still needed by another registration become that one's to clean up later."""
    for registration in remaining:
        for folder in folders:
            if (Path(registration.manifest_path).is_relative_to(folder)
                    and folder not in registration.created_dirs):
                registration.created_dirs.append(folder)
        own_key = (registration.registry_key or "").lower()
        for key in keys:
            if own_key.startswith(key.lower() + "\\") and key not in registration.created_keys:
                registration.created_keys.append(key)


def uninstall_registration(
    registration: Registration, registry: Registry | None
) -> list[Outcome]:
    name = registration.browser
    outcomes: list[Outcome] = []
    key = registration.registry_key
    if key is not None:
        where = f"HKCU\\{key}"
        if registry is None:
            raise InstallError("unregistering on Windows needs registry access")
        current = registry.read_default(key)
        if not registry.exists(key):
            outcomes.append(Outcome(name, where, "gone", "registry key was already removed"))
        elif current != registration.registry_value:
            outcomes.append(Outcome(name, where, "left",
                                    f"registry key now points to {current}, not what Relay "
                                    "wrote; left it in place"))
        else:
            try:
                registry.delete(key)
                outcomes.append(Outcome(name, where, "removed", "registry key removed"))
            except OSError as exc:
                outcomes.append(Outcome(name, where, "left", f"could not remove key: {exc}"))

    path = Path(registration.manifest_path)
    outcomes.append(_remove_file(name, path, registration.manifest_sha256, "manifest"))
    if registration.launcher_path and registration.launcher_sha256:
        outcomes.append(_remove_file(name, Path(registration.launcher_path),
                                     registration.launcher_sha256, "launcher"))
    return outcomes


def _remove_file(browser: str, path: Path, sha256: str, what: str) -> Outcome:
    if not path.exists():
        return Outcome(browser, str(path), "gone", f"{what} was already removed")
    if manifest.digest(path.read_bytes()) != sha256:
        return Outcome(browser, str(path), "left",
                       f"{what} was changed since Relay wrote it; left it in place "
                       "(delete it yourself if you no longer want it)")
    path.unlink()
    return Outcome(browser, str(path), "removed", f"{what} removed")


def install(
    machine: Machine,
    state: InstallState,
    registry: Registry | None,
    host_path: Path,
    names: Sequence[str] = (),
    user_data_dir: Path | None = None,
    force: bool = False,
) -> list[Outcome]:
    targets = select_targets(machine, names, user_data_dir)
    return [install_target(t, host_path, state, registry, force, machine) for t in targets]


def uninstall(
    state: InstallState, registry: Registry | None, names: Sequence[str] = ()
) -> list[Outcome]:
    """Remove what the record lists (for the named browsers only, when names are given)."""
    chosen = [r for r in state.registrations if not names or r.browser in names]
    outcomes: list[Outcome] = []
    for registration in chosen:
        outcomes.extend(uninstall_registration(registration, registry))
        # Dropped either way: what was left in place is no longer Relay's to manage.
        state.registrations.remove(registration)
    # Folders and keys last: several registrations may share one Relay created.
    folders = _remove_created_dirs([d for r in chosen for d in r.created_dirs])
    keys: list[str] = []
    if registry is not None:
        keys = _remove_created_keys([k for r in chosen for k in r.created_keys], registry)
    _hand_over(folders, keys, state.registrations)
    return outcomes
