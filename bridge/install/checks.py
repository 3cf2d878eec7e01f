"""`relay doctor`'s checks beyond the browsers: what else a Fill needs, and how to fix each."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from bridge.paths import default_home

Status = Literal["ok", "info", "warning", "error"]


class Check(BaseModel):
    name: str
    status: Status
    message: str
    fix: str = ""


def data_folder(home: Path) -> Check:
    """The folder and the files in it that hold personal data must not be readable by others."""
    if os.name == "nt":
        return Check(name="data_folder", status="ok", message=f"{home} (your user folder)")
    if not home.exists():
        return Check(name="data_folder", status="ok",
                     message=f"{home} does not exist yet; Relay creates it private (0700)")
    loose: list[str] = []
    candidates = [home, home / "logs", *home.glob("relay.db*"), *home.glob("logs/*.log*"),
                  home / "config.toml", home / "install-state.json"]
    for path in candidates:
        try:
            info = path.stat()
        except OSError:
            continue
        if stat.S_IMODE(info.st_mode) & 0o077:
            loose.append(f"{path} ({stat.S_IMODE(info.st_mode):04o})")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            loose.append(f"{path} (owned by another user)")
    if loose:
        return Check(name="data_folder", status="error",
                     message="readable by other users: " + ", ".join(loose),
                     fix=f"chmod -R go-rwx {home}  (any relay command also tightens it)")
    return Check(name="data_folder", status="ok", message=f"{home} is private to you")


def shell_environment(env: Mapping[str, str]) -> list[Check]:
    """Settings given only in this shell do not reach the bridge the browser starts."""
    from bridge.settings import ENV_OVERRIDES, KEY_ENV

    checks = []
    for key, var in ENV_OVERRIDES.items():
        if env.get(var):
            checks.append(Check(
                name="environment", status="warning",
                message=f"{var} is set in this shell, but the bridge your browser starts does "
                        "not see this shell's environment",
                fix=f"relay config set {key} VALUE"))
    if env.get(KEY_ENV):
        checks.append(Check(
            name="environment", status="warning",
            message=f"{KEY_ENV} is set in this shell; the browser's bridge will not see it",
            fix="relay key set PROVIDER  (keeps the key in the OS keyring)"))
    home = env.get("RELAY_HOME")
    if home and Path(home).expanduser() != default_home():
        checks.append(Check(
            name="environment", status="warning",
            message=f"RELAY_HOME is set in this shell ({home}); the bridge your browser starts "
                    f"uses {default_home()}",
            fix="unset RELAY_HOME, or move your data to the default folder"))
    return checks


def settings_file(home: Path) -> Check:
    from bridge import settings
    from bridge.config_file import config_path

    path = config_path(home)
    try:
        settings.load(path)
    except settings.SettingsError as exc:
        return Check(name="settings", status="error", message=str(exc),
                     fix=f"fix or remove the line in {path} (relay config unset KEY)")
    where = str(path) if path.exists() else f"{path} (none yet: defaults)"
    return Check(name="settings", status="ok", message=where)


def profile(home: Path, env: Mapping[str, str]) -> Check:
    from bridge.config_file import profile_override
    from bridge.protocol.errors import RelayError

    path = profile_override(env, home)
    try:
        if path is not None:
            from bridge.profile import load_profile

            loaded = load_profile(path)
            where = f"file {path}"
        else:
            from bridge.store import Store

            with Store.open(home) as store:
                stored = store.profile()
                name = store.active_profile_name()
            if stored is None:
                return Check(name="profile", status="error",
                             message="no profile stored: every Fill would stop with "
                                     "E_PROFILE_MISSING",
                             fix="relay profile import my-profile.json")
            loaded, where = stored, f"stored profile {name!r}"
    except RelayError as exc:
        return Check(name="profile", status="error", message=exc.message,
                     fix="relay profile import FILE (or relay config set profile FILE)")
    label = loaded.profile.basics.name or "unnamed"
    return Check(name="profile", status="ok", message=f"{where}: {label}")


def model(env: Mapping[str, str]) -> Check:
    from bridge.llm.config import Tier, load_config

    config = load_config(env)
    models = ", ".join(f"{t.value} {config.model_for(t)}" for t in Tier if config.model_for(t))
    if config.api_base:
        return Check(name="model", status="ok",
                     message=f"{models} through {config.api_base} (key: {config.key_source})")
    if config.key_source == "keyring":
        return Check(name="model", status="ok",
                     message=f"{models}; key in the OS keyring ({config.key_provider})")
    if config.key_source == "env":
        return Check(name="model", status="warning",
                     message=f"{models}; the key comes from RELAY_LLM_API_KEY in this shell only",
                     fix=f"relay key set {config.key_provider}")
    return Check(name="model", status="info",
                 message=f"no model key in the keyring ({config.key_provider}): Relay fills from "
                         "rules and saved answers alone",
                 fix=f"relay key set {config.key_provider}  (optional)")
