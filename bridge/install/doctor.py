"""`relay doctor`: per browser, what is registered, what is wrong, and the command that fixes it."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from bridge.install import manifest
from bridge.install.actions import InstallError, select_targets
from bridge.install.browsers import BROWSER_NAMES, by_name, present_browsers
from bridge.install.hostpath import HostPathError, validate_host_path
from bridge.install.machine import Machine, System
from bridge.install.registry import Registry
from bridge.install.state import InstallState
from bridge.install.targets import Target, browser_target

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
    location: str  # where the browser looks: a file, or the registry key on Windows
    manifest_path: str | None  # the manifest the browser would actually read
    registry_key: str | None = None
    user_data_dir: str | None = None
    registered: bool
    written_by_relay: bool
    host_path: str | None = None
    problems: list[Problem] = []


class DoctorReport(BaseModel):
    ok: bool
    expected_host: str | None
    browsers: list[BrowserReport]
    problems: list[Problem] = []  # problems not tied to one browser


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
    """Browsers named; else those present plus everything the record says Relay registered."""
    if names or user_data_dir is not None:
        return select_targets(machine, names, user_data_dir)
    targets = [browser_target(b, machine) for b in present_browsers(machine)]
    for reg in state.registrations:
        if reg.browser not in BROWSER_NAMES:
            continue  # a hand-edited record; nothing doctor can check
        targets.append(Target(
            browser=by_name(reg.browser),
            manifest_path=Path(reg.manifest_path),
            registry_key=reg.registry_key,
            user_data_dir=Path(reg.user_data_dir) if reg.user_data_dir else None,
        ))
    unique: dict[tuple[str, str | None], Target] = {}
    for target in targets:
        unique.setdefault((str(target.manifest_path), target.registry_key), target)
    return list(unique.values())


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
        label=target.browser.label,
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
        problem("missing_manifest", f"not registered: no manifest at {path}",
                severity=missing_severity)
        return report
    try:
        data = path.read_bytes()
    except OSError as exc:
        problem("unreadable_manifest", f"cannot read {path}: {exc}", force=True)
        return report

    report.registered = True
    ours = recorded is not None and manifest.digest(data) == recorded.manifest_sha256
    report.written_by_relay = ours
    parsed, findings = manifest.check_data(data, target.browser.family)
    if parsed is not None and isinstance(parsed.get("path"), str):
        report.host_path = parsed["path"]
    for finding in findings:
        # Install refuses to replace a manifest it did not write, so the fix needs --force.
        problem(finding.code, finding.message, force=not ours)
    host_findings = [f for f in findings if f.code in HOST_CODES]
    if host_ok and expected_host and report.host_path and not host_findings \
            and report.host_path != str(expected_host):
        # Works, but runs another Relay (say, an older venv) than the one doctor belongs to.
        problem("host_differs",
                f"registered host {report.host_path} is not this Relay's {expected_host}",
                severity="warning", force=not ours)
    if recorded is not None and not ours:
        problem("changed_manifest",
                f"{path} was changed since Relay wrote it; `relay uninstall` will leave it",
                severity="warning", force=True)
    return report


def diagnose(
    machine: Machine,
    state: InstallState,
    registry: Registry | None,
    expected_host: Path | None,
    names: Sequence[str] = (),
    user_data_dir: Path | None = None,
) -> DoctorReport:
    problems: list[Problem] = []
    host_ok = False
    if expected_host is None:
        problems.append(Problem(
            code="host_missing", severity="error",
            message="cannot find the relay-bridge executable next to Python or on PATH",
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
    errors = [p for p in problems if p.severity == "error"] + [
        p for r in reports for p in r.problems if p.severity == "error"]
    return DoctorReport(ok=not errors, expected_host=str(expected_host) if expected_host else None,
                        browsers=reports, problems=problems)
