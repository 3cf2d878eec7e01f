"""`relay doctor`: per browser, what is registered, whether the host it names really starts and
answers, what else a Fill needs (profile, model, settings, a private data folder), what is wrong,
and the command that fixes each."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, computed_field

from bridge.install import flatpak, manifest, probe
from bridge.install.actions import InstallError, select_targets
from bridge.install.browsers import (
    BROWSER_NAMES,
    BROWSERS,
    by_name,
    system_manifest_dir,
)
from bridge.install.checks import Check
from bridge.install.hostpath import HostPathError, validate_host_path
from bridge.install.machine import Machine, System
from bridge.install.registry import Registry
from bridge.install.state import InstallState, Registration
from bridge.install.targets import MANIFEST_FILENAME, Target, installed_targets, still_installed

Severity = Literal["error", "warning"]

HOST_CODES = {"host_not_absolute", "host_missing", "host_not_executable"}


class Problem(BaseModel):
    code: str
    severity: Severity
    message: str
    fix: str


class BrowserReport(BaseModel):
    browser: str
    label: str
    kind: str = "native"  # native, flatpak, snap
    installed: bool = True
    location: str  # where the browser looks: a file, or the registry key on Windows
    manifest_path: str | None  # the manifest the browser would actually read
    registry_key: str | None = None
    user_data_dir: str | None = None
    registered: bool
    written_by_relay: bool
    host_path: str | None = None
    # Started as the browser starts it and asked `hello` (None: not tried).
    host_started: bool | None = None
    host_message: str = ""
    problems: list[Problem] = []

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> str:
        """One word for the list: never "ok" for a browser that is not installed or cannot
        connect."""
        if not self.installed:
            return "not installed"
        if any(p.code == "sandbox_unsupported" for p in self.problems):
            return "cannot connect"
        if any(p.severity == "error" for p in self.problems):
            return "problem"
        return "ok" if self.registered else "not registered"


class DoctorReport(BaseModel):
    ok: bool
    expected_host: str | None
    browsers: list[BrowserReport]
    problems: list[Problem] = []  # problems not tied to one browser
    checks: list[Check] = []  # profile, model, settings, data folder, environment


def _quote(arg: str, system: System) -> str:
    if system == "windows":
        return f'"{arg}"' if any(c in arg for c in ' \t&()^') else arg
    return shlex.quote(arg)


def fix_command(target: Target, system: System, force: bool, need_host: bool) -> str:
    parts = ["relay", "install", "--browser", target.browser.name]
    if target.user_data_dir is not None:
        parts += ["--user-data-dir", _quote(str(target.user_data_dir), system)]
    if need_host:
        parts += ["--host-path", "/absolute/path/to/relay-bridge"]
    if force:
        parts.append("--force")
    return " ".join(parts)


def _targets(
    machine: Machine, state: InstallState, names: Sequence[str], user_data_dir: Path | None
) -> list[Target]:
    """Browsers named; else every install found here plus everything the record says Relay
    registered."""
    if names or user_data_dir is not None:
        return select_targets(machine, names, user_data_dir)
    targets = [t for b in BROWSERS for t in installed_targets(b, machine)]
    for reg in state.registrations:
        if reg.browser not in BROWSER_NAMES:
            continue  # a hand-edited record; nothing doctor can check
        targets.append(Target(
            browser=by_name(reg.browser),
            manifest_path=Path(reg.manifest_path),
            registry_key=reg.registry_key,
            user_data_dir=Path(reg.user_data_dir) if reg.user_data_dir else None,
            kind=reg.kind if reg.kind in ("native", "flatpak", "snap") else "native",  # type: ignore[arg-type]
            launcher_path=Path(reg.launcher_path) if reg.launcher_path else None,
        ))
    unique: dict[tuple[str, str | None], Target] = {}
    for target in targets:
        unique.setdefault((str(target.manifest_path), target.registry_key), target)
    return list(unique.values())


def _system_manifest(target: Target, machine: Machine) -> Path | None:
    """A manifest a distribution package put in the system-wide folder, if the user has none."""
    if target.kind != "native" or target.user_data_dir is not None:
        return None
    folder = system_manifest_dir(target.browser, machine)
    found = folder / MANIFEST_FILENAME if folder is not None else None
    return found if found is not None and found.is_file() else None


def diagnose_target(
    target: Target,
    machine: Machine,
    state: InstallState,
    registry: Registry | None,
    host_ok: bool,
    expected: bool = True,
    expected_host: Path | None = None,
) -> BrowserReport:
    """`expected`: a missing registration is an error (else a warning: the browser is merely
    present, and the person may not use Relay there)."""
    recorded = state.find(target.manifest_path, target.registry_key)
    key = target.registry_key
    report = BrowserReport(
        browser=target.browser.name,
        label=target.label,
        kind=target.kind,
        location=f"HKCU\\{key}" if key else str(target.manifest_path),
        manifest_path=str(target.manifest_path),
        registry_key=target.registry_key,
        user_data_dir=str(target.user_data_dir) if target.user_data_dir else None,
        registered=False,
        written_by_relay=False,
    )

    def problem(code: str, message: str, severity: Severity = "error",
                force: bool = False) -> None:
        need_host = code in HOST_CODES and not host_ok
        report.problems.append(Problem(
            code=code, severity=severity, message=message,
            fix=fix_command(target, machine.system, force, need_host)))

    missing_severity: Severity = "error" if expected or recorded is not None else "warning"
    if target.blocked == "absent" or not still_installed(target, machine):
        report.installed = False
        if recorded is None:
            problem("browser_not_installed", target.note or f"{target.label} is not installed here",
                    severity="error" if expected else "warning")
            return report
        problem("browser_not_installed",
                f"Relay registered {target.label} here, but it is no longer installed",
                severity="warning")
        report.problems[-1].fix = f"relay uninstall --browser {target.browser.name}"
    if target.blocked == "unsupported":
        problem("sandbox_unsupported", target.note, severity=missing_severity)
        report.problems[-1].fix = "install a non-Snap build of the browser, or use Firefox"
        return report
    path = target.manifest_path
    if target.registry_key is not None:
        value = registry.read_default(target.registry_key) if registry is not None else None
        if value is None:
            problem("missing_manifest",
                    f"not registered: registry key HKCU\\{target.registry_key} is missing",
                    severity=missing_severity)
            report.manifest_path = None
            return report
        path = Path(value)
        report.manifest_path = value
    if not path.is_file():
        system = _system_manifest(target, machine)
        if system is None:
            problem("missing_manifest", f"not registered: no manifest at {path}",
                    severity=missing_severity)
            return report
        path = system  # installed for everyone by the system package
        report.location = str(system)
        report.manifest_path = str(system)
    try:
        data = path.read_bytes()
    except OSError as exc:
        problem("unreadable_manifest", f"cannot read {path}: {exc}", force=True)
        return report

    report.registered = True
    ours = recorded is not None and manifest.digest(data) == recorded.manifest_sha256
    report.written_by_relay = ours
    base = path.parent if machine.system == "windows" else None
    parsed, findings = manifest.check_data(data, target.browser.family, base)
    if parsed is not None and isinstance(parsed.get("path"), str):
        named = Path(parsed["path"])
        report.host_path = str(base / named if base and not named.is_absolute() else named)
    for finding in findings:
        # Install refuses to replace a manifest it did not write, so the fix needs --force.
        problem(finding.code, finding.message, force=not ours)
    host_findings = [f for f in findings if f.code in HOST_CODES]
    if host_ok and expected_host and report.host_path and not host_findings \
            and target.launcher_path is None \
            and report.host_path != str(expected_host):
        # Works, but runs another Relay (say, an older venv) than the one doctor belongs to.
        problem("host_differs",
                f"registered host {report.host_path} is not this Relay's {expected_host}",
                severity="warning", force=not ours)
    if recorded is not None and not ours:
        problem("changed_manifest",
                f"{path} was changed since Relay wrote it; `relay uninstall` will leave it",
                severity="warning", force=True)
    if target.launcher_path is not None and not host_findings:
        _check_launcher(target, machine, recorded, report, expected_host if host_ok else None)
    return report


def _check_launcher(target: Target, machine: Machine, recorded: Registration | None,
                    report: BrowserReport, expected_host: Path | None) -> None:
    """A Flatpak browser's launcher, and whether the sandbox lets it start the bridge."""
    assert target.launcher_path is not None
    launcher, app_id = target.launcher_path, target.app_id or ""
    if recorded is not None and launcher.is_file():
        if manifest.digest(launcher.read_bytes()) != recorded.launcher_sha256:
            report.problems.append(Problem(
                code="changed_manifest", severity="warning",
                message=f"{launcher} was changed since Relay wrote it",
                fix=fix_command(target, machine.system, True, False)))
        report.host_path = recorded.host_path  # what the launcher starts outside the sandbox
        if expected_host is not None and recorded.host_path != str(expected_host):
            report.problems.append(Problem(
                code="host_differs", severity="warning",
                message=f"the launcher starts {recorded.host_path}, not this Relay's "
                        f"{expected_host}",
                fix=fix_command(target, machine.system, False, False)))
    if not flatpak.may_start_host_programs(machine, app_id):
        report.problems.append(Problem(
            code="sandbox_blocks_host", severity="error",
            message=f"{target.label} runs in a Flatpak sandbox that may not start programs "
                    "outside it, so it cannot start the bridge. Allowing it lets the browser "
                    "start any program as you; if you would rather not, install the browser's "
                    "regular package instead.",
            fix=flatpak.grant_command(app_id)))


def diagnose(
    machine: Machine,
    state: InstallState,
    registry: Registry | None,
    expected_host: Path | None,
    names: Sequence[str] = (),
    user_data_dir: Path | None = None,
    *,
    start_hosts: bool = False,
    env: Mapping[str, str] | None = None,
    checks: Sequence[Check] = (),
) -> DoctorReport:
    """`start_hosts`: also launch each registered host as its browser would and ask `hello`;
    `checks`: results of the other checks (profile, model, ...), folded into `ok`."""
    problems: list[Problem] = []
    host_ok = False
    if expected_host is None:
        problems.append(Problem(
            code="host_missing", severity="error",
            message="cannot find the relay-bridge program next to Python or on PATH",
            fix="reinstall Relay, or pass --host-path /absolute/path/to/relay-bridge to "
                "relay install"))
    else:
        try:
            validate_host_path(expected_host)
            host_ok = True
        except HostPathError as exc:
            problems.append(Problem(code="host_not_executable", severity="error",
                                    message=str(exc),
                                    fix="reinstall Relay, or pass --host-path to relay install"))
    try:
        targets = _targets(machine, state, names, user_data_dir)
    except InstallError as exc:
        problems.append(Problem(code="bad_option", severity="error", message=str(exc),
                                fix="relay doctor --help"))
        targets = []
    else:
        if not targets:
            problems.append(Problem(
                code="no_browser", severity="error",
                message="no supported browser found and nothing registered",
                fix="relay install --browser NAME (chrome, chromium, edge, brave, vivaldi, "
                    "firefox)"))
    # With nothing named and something registered, other browsers found here are optional.
    expected = bool(names) or user_data_dir is not None or not state.registrations
    reports = [diagnose_target(t, machine, state, registry, host_ok, expected, expected_host)
               for t in targets]
    if start_hosts:
        _start_hosts(targets, reports, machine, env)
    errors = [p for p in problems if p.severity == "error"] + [
        p for r in reports for p in r.problems if p.severity == "error"]
    failed_checks = [c for c in checks if c.status == "error"]
    return DoctorReport(ok=not errors and not failed_checks,
                        expected_host=str(expected_host) if expected_host else None,
                        browsers=reports, problems=problems, checks=list(checks))


def _start_hosts(targets: list[Target], reports: list[BrowserReport], machine: Machine,
                 env: Mapping[str, str] | None) -> None:
    """Launch each registered, well-formed host the way its browser does (once per program)."""
    import os

    seen: dict[tuple[str, str], probe.ProbeResult] = {}
    for target, report in zip(targets, reports, strict=True):
        if not report.registered or report.host_path is None or not report.installed:
            continue
        if any(p.code in HOST_CODES or p.code == "invalid_json" for p in report.problems):
            continue
        family = target.browser.family
        manifest_path = Path(report.manifest_path or target.manifest_path)
        key = (report.host_path, family)
        if key not in seen:
            argv = probe.browser_argv(Path(report.host_path), family, manifest_path,
                                      machine.system)
            seen[key] = probe.probe(argv, probe.browser_env(os.environ if env is None else env))
        result = seen[key]
        report.host_started = result.ok
        report.host_message = result.message
        if not result.ok:
            report.problems.append(Problem(
                code="host_failed", severity="error",
                message=f"started as {target.label} starts it, the bridge {result.message}",
                fix="relay doctor after reinstalling Relay; details in RELAY_HOME/logs/bridge.log"))
