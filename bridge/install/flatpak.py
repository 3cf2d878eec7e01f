"""Flatpak browsers: the launcher that starts the bridge outside the sandbox, and whether the
browser is allowed to do that.

A Flatpak browser can only start programs inside its sandbox. `flatpak-spawn --host` (part of
every Flatpak runtime) starts one outside, but only for an app that may talk to
`org.freedesktop.Flatpak` on the session bus, a permission the person grants (it lets the browser
start any program as them, which is why Relay never grants it by itself).
"""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from bridge.install.machine import Machine

TALK_NAME = "org.freedesktop.Flatpak"


def render_launcher(host_path: Path, app_id: str) -> bytes:
    return (
        "#!/bin/sh\n"
        "# Written by `relay install`: this browser runs in a Flatpak sandbox, so the Relay\n"
        "# bridge is started outside it. The browser must be allowed to do that, once:\n"
        f"#   flatpak override --user --talk-name={TALK_NAME} {app_id}\n"
        f'exec flatpak-spawn --host {shlex.quote(str(host_path))} "$@"\n'
    ).encode()


def grant_command(app_id: str) -> str:
    return f"flatpak override --user --talk-name={TALK_NAME} {app_id}"


def may_start_host_programs(machine: Machine, app_id: str) -> bool:
    """True when the app's own metadata or an override lets it talk to org.freedesktop.Flatpak.

    Later files win, as in Flatpak: the app's metadata, then system, then user overrides."""
    files: list[Path] = []
    user, system = machine.flatpak_dirs()
    for base in (system, user):
        files.append(base / "app" / app_id / "current" / "active" / "metadata")
    files += [system / "overrides" / app_id, user / "overrides" / app_id]
    allowed = False
    for path in files:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        try:
            parser.read(path, encoding="utf-8")
        except (OSError, configparser.Error):
            continue
        if parser.has_option("Session Bus Policy", TALK_NAME):
            allowed = parser.get("Session Bus Policy", TALK_NAME).strip() in ("talk", "own")
    return allowed
