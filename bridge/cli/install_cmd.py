"""`relay install`, `relay uninstall`, `relay doctor`: register the native host with browsers."""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path
from typing import Any

from bridge.cli.output import fail
from bridge.install import actions, checks, state
from bridge.install.browsers import BROWSER_NAMES
from bridge.install.doctor import DoctorReport, diagnose
from bridge.install.hostpath import HostPathError, default_host_path, resolve_host_path
from bridge.install.machine import Machine
from bridge.install.registry import Registry, WindowsRegistry
from bridge.paths import default_home, extension_dir, relay_home

OK_STATUSES = {"written", "unchanged", "removed", "gone", "left"}


def _add_browser_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--browser", dest="browsers", action="extend", nargs="+", default=[],
                        choices=BROWSER_NAMES, metavar="NAME", help=help_text)


def _abs_dir(value: str) -> Path:
    return Path(value).expanduser().absolute()


def register(subparsers: Any) -> None:
    names = ", ".join(BROWSER_NAMES)
    install = subparsers.add_parser(
        "install", help="register the Relay bridge with your browsers",
        description="Write the native-messaging host manifest so the Relay extension can start "
                    "the bridge. Without --browser: every supported browser found here.")
    _add_browser_option(install, f"only these browsers ({names})")
    install.add_argument("--user-data-dir", type=_abs_dir, metavar="DIR",
                         help="register into this one Chromium profile folder "
                              "(DIR/NativeMessagingHosts/), as used with --user-data-dir")
    install.add_argument("--host-path", type=Path, metavar="PATH",
                         help="absolute path of the relay-bridge executable "
                              "(default: the one installed with this Relay)")
    install.add_argument("--force", action="store_true",
                         help="replace manifests and registry keys Relay did not write")
    install.set_defaults(func=run_install)

    uninstall = subparsers.add_parser(
        "uninstall", help="remove what `relay install` registered",
        description="Remove the manifests and registry keys Relay wrote, and nothing else.")
    _add_browser_option(uninstall, "only these browsers")
    uninstall.add_argument("--program", action="store_true",
                           help="also remove the Relay program itself (a desktop build put in "
                                "place by install.sh)")
    uninstall.add_argument("--delete-data", action="store_true",
                           help="also delete Relay's data folder: profiles, answers, history, "
                                "settings and logs (cannot be undone)")
    uninstall.set_defaults(func=run_uninstall)

    doctor = subparsers.add_parser(
        "doctor", help="check the browser registration and say how to fix it",
        description="Per browser: what is registered, what is wrong, and the command that "
                    "fixes it. Exits non-zero when something is wrong.")
    _add_browser_option(doctor, "only these browsers")
    doctor.add_argument("--user-data-dir", type=_abs_dir, metavar="DIR",
                        help="check this one Chromium profile folder")
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")
    doctor.add_argument("--no-start", dest="start_hosts", action="store_false",
                        help="do not start the registered bridge to check that it answers")
    doctor.set_defaults(func=run_doctor)


def _registry(machine: Machine) -> Registry | None:
    return WindowsRegistry() if machine.system == "windows" else None


def _state_path() -> Path:
    return relay_home() / state.STATE_FILENAME


def run_install(args: argparse.Namespace) -> int:
    machine = Machine.current()
    path = _state_path()
    try:
        host = resolve_host_path(args.host_path, machine.system)
        record = state.load(path)
    except (HostPathError, state.StateError) as exc:
        return fail(str(exc))
    try:
        outcomes = actions.install(machine, record, _registry(machine), host,
                                   args.browsers, args.user_data_dir, args.force)
    except (actions.InstallError, OSError) as exc:
        return fail(str(exc))
    finally:
        # Saved even after a failure, so uninstall can remove whatever was written before it.
        state.save(path, record)
    for outcome in outcomes:
        print(f"{outcome.browser}: {outcome.message}: {outcome.location}")
    if args.user_data_dir is not None and machine.system == "windows":
        print("note: on Windows, browsers find hosts only through the registry; run "
              "`relay install` without --user-data-dir too")
    failed = [o for o in outcomes if o.status in ("refused", "absent", "unsupported")]
    if any(o.status in ("written", "unchanged") for o in outcomes):
        print(f"host: {host}")
        folder = extension_dir()
        if folder is not None:
            print(f"extension: {folder} (chrome://extensions, Developer mode, Load unpacked)")
        print("Restart the browser (or reload the extension) to connect; `relay doctor` checks "
              "the setup.")
    return 1 if failed else 0


def run_uninstall(args: argparse.Namespace) -> int:
    machine = Machine.current()
    path = _state_path()
    try:
        record = state.load(path)
    except state.StateError as exc:
        return fail(str(exc))
    code = 0
    if not record.registrations:
        print("nothing to unregister: Relay has no record of registering any browser")
    else:
        try:
            outcomes = actions.uninstall(record, _registry(machine), args.browsers)
        except (actions.InstallError, OSError) as exc:
            return fail(str(exc))
        finally:
            state.save(path, record)
        if not outcomes:
            print(f"nothing registered for {', '.join(args.browsers)}")
        for outcome in outcomes:
            print(f"{outcome.browser}: {outcome.message}: {outcome.location}")
        code = 0 if all(o.status in OK_STATUSES for o in outcomes) else 1
    if args.delete_data:
        home = relay_home()
        shutil.rmtree(home)
        print(f"deleted the data folder {home}")
    elif not any(relay_home().iterdir()):
        relay_home().rmdir()  # created only to hold the install record: leave nothing behind
    if args.program:
        from bridge.install.program import ProgramError, remove_program

        try:
            removed = remove_program(machine.home)
        except (ProgramError, OSError) as exc:
            return fail(str(exc))
        for item in removed.paths:
            print(f"removed {item}")
    return code


def format_report(report: DoctorReport) -> str:
    lines = [f"relay-bridge: {report.expected_host or 'not found'}"]
    for problem in report.problems:
        lines += [f"{problem.severity}: {problem.message}", f"  fix: {problem.fix}"]
    for browser in report.browsers:
        scope = f" (profile {browser.user_data_dir})" if browser.user_data_dir else ""
        lines.append(f"{browser.label}{scope}: {browser.status}")
        lines.append(f"  location: {browser.location}")
        if browser.registry_key and browser.manifest_path:
            lines.append(f"  manifest: {browser.manifest_path}")
        if browser.host_path:
            lines.append(f"  host: {browser.host_path}")
        if browser.host_started:
            lines.append(f"  started as the browser starts it: {browser.host_message}")
        for problem in browser.problems:
            lines += [f"  {problem.severity}: {problem.message}", f"    fix: {problem.fix}"]
    for check in report.checks:
        lines.append(f"{check.name}: {check.status}: {check.message}")
        if check.fix and check.status != "ok":
            lines.append(f"  fix: {check.fix}")
    lines.append("all good" if report.ok else "something is wrong: see the fixes above")
    return "\n".join(lines)


def run_doctor(args: argparse.Namespace) -> int:
    machine = Machine.current()
    env = dict(os.environ)
    given = env.get("RELAY_HOME")
    home = Path(given).expanduser() if given else default_home()
    found = [checks.data_folder(home)]  # before anything here creates or tightens it
    try:
        record = state.load(_state_path())
    except state.StateError as exc:
        return fail(str(exc))
    found += [checks.settings_file(home), checks.profile(home, env), checks.model(env),
              *checks.shell_environment(env)]
    report = diagnose(machine, record, _registry(machine), default_host_path(machine.system),
                      args.browsers, args.user_data_dir, start_hosts=args.start_hosts, env=env,
                      checks=found)
    print(report.model_dump_json(indent=2) if args.json else format_report(report))
    return 0 if report.ok else 1
