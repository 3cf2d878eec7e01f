"""`relay config list|get|set|unset|path`: the settings a browser-started bridge reads.

The bridge the browser starts does not see this shell's environment, so what it must know is kept
in `RELAY_HOME/config.toml`. Environment variables still win; `list` says where each value comes
from. API keys are never settings: `relay key set PROVIDER` keeps them in the OS keyring.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from bridge import config_file, settings
from bridge.settings import ENV_OVERRIDES, KEY_NAMES, KEYS, SettingsError


def register(subparsers: Any) -> None:
    config = subparsers.add_parser(
        "config", help="settings the bridge reads (models, profile file, limits)",
        description="Read and change RELAY_HOME/config.toml, the settings the bridge started by "
                    "your browser reads (it does not see this shell's environment). Environment "
                    "variables still override it.")
    verbs = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    lst = verbs.add_parser("list", help="every setting, its value and where it comes from")
    lst.add_argument("--json", action="store_true", help="print JSON")
    lst.set_defaults(func=run_list)
    get = verbs.add_parser("get", help="print one setting's value in force")
    get.add_argument("key", choices=KEY_NAMES, metavar="KEY")
    get.set_defaults(func=run_get)
    set_p = verbs.add_parser("set", help="store a setting (checked before it is written)")
    set_p.add_argument("key", metavar="KEY", help=", ".join(KEY_NAMES))
    set_p.add_argument("value", metavar="VALUE")
    set_p.set_defaults(func=run_set)
    unset = verbs.add_parser("unset", help="remove a setting (back to the default)")
    unset.add_argument("key", metavar="KEY", help=", ".join(KEY_NAMES))
    unset.set_defaults(func=run_unset)
    path = verbs.add_parser("path", help="print where the settings file is")
    path.set_defaults(func=run_path)


def _fail(message: str) -> int:
    print(f"relay config: {message}", file=sys.stderr)
    return 1


def effective(env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every key with the value in force and its source: env VAR, the file, or Relay's default."""
    from bridge.llm.config import DEFAULT_MODELS, LlmConfig, Tier, from_settings, provider_of

    env = dict(os.environ) if env is None else env
    stored = settings.load()
    config = from_settings(stored, env, use_keyring=False)
    rows = []
    for key in KEYS:
        in_file = settings.file_value(stored, key.name)
        var = ENV_OVERRIDES.get(key.name)
        value: Any
        if key.name == "profile":
            value = config_file.profile_override(env)
            default: Any = "(the stored profile: relay profile list)"
        elif key.name.startswith("models."):
            tier = Tier(key.name.split(".", 1)[1])
            value, default = config.model_for(tier), DEFAULT_MODELS[tier]
        elif key.name == "api_base":
            value, default = config.api_base, ""
        elif key.name == "key_provider":
            value = config.key_provider
            default = provider_of(config.model_for(Tier.FAST))
        elif key.name == "serve.port":
            value, default = in_file, "(a free port)"
        else:
            name = key.name.split(".", 1)[1]
            value, default = getattr(config, name), LlmConfig.model_fields[name].default
        # "" is a value for a model (off); for the text settings it means unset.
        in_file_set = in_file is not None and (in_file != "" or key.name.startswith("models."))
        if var and var in env:
            source = f"environment ({var})"
        elif in_file_set:
            source = "config file"
        else:
            source = "default"
            value = default if value in (None, "") else value
        rows.append({"key": key.name, "value": str(value) if isinstance(value, Path) else value,
                     "source": source, "help": key.help})
    return rows


def run_list(args: argparse.Namespace) -> int:
    try:
        rows = effective()
    except SettingsError as exc:
        return _fail(f"{exc}\n  fix: edit the file, or `relay config unset KEY`")
    if args.json:
        print(json.dumps({"file": str(config_file.config_path()), "settings": rows}, indent=2))
        return 0
    print(f"settings file: {config_file.config_path()}")
    width = max(len(r["key"]) for r in rows)
    for row in rows:
        shown = row["value"]
        if shown == "":
            shown = "(off)" if row["key"].startswith("models.") else "(none)"
        print(f"{row['key']:<{width}}  {shown}  [{row['source']}]")
    overridden = [r for r in rows if r["source"].startswith("environment")]
    if overridden:
        print("note: values from the environment apply to commands run from this shell only; the "
              "bridge your browser starts reads the settings file.")
    return 0


def run_get(args: argparse.Namespace) -> int:
    try:
        rows = {r["key"]: r for r in effective()}
    except SettingsError as exc:
        return _fail(str(exc))
    value = rows[args.key]["value"]
    print("" if value is None else value)
    return 0


def _parse_value(key: str, raw: str) -> Any:
    """Numbers for limits (TOML keeps their type), text for everything else."""
    if key.startswith(("limits.", "serve.")):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw  # validation names the problem
    if key == "profile":
        return str(Path(raw).expanduser().absolute())
    return raw


def run_set(args: argparse.Namespace) -> int:
    path = config_file.config_path()
    value = _parse_value(args.key, args.value)
    try:
        checked = settings.candidate(path, args.key, value)
        if args.key == "profile":
            _check_profile(Path(value))
        config_file.write_value(path, args.key, settings.stored_form(checked, args.key))
    except (SettingsError, config_file.ConfigFileError) as exc:
        return _fail(str(exc))
    print(f"{args.key} = {settings.stored_form(checked, args.key)}  ({path})")
    var = ENV_OVERRIDES.get(args.key)
    if var and var in os.environ:
        print(f"note: {var} is set in this shell and wins here; the browser's bridge uses the file")
    return 0


def _check_profile(path: Path) -> None:
    from bridge.profile import load_profile
    from bridge.protocol.errors import RelayError

    try:
        load_profile(path)
    except RelayError as exc:
        raise SettingsError(f"profile: {exc.message}") from exc


def run_unset(args: argparse.Namespace) -> int:
    path = config_file.config_path()
    try:
        settings.candidate(path, args.key, None)
        removed = config_file.remove_value(path, args.key)
    except (SettingsError, config_file.ConfigFileError) as exc:
        return _fail(str(exc))
    print(f"{args.key} {'removed' if removed else 'was not set'} ({path})")
    return 0


def run_path(args: argparse.Namespace) -> int:
    del args
    print(config_file.config_path())
    return 0
