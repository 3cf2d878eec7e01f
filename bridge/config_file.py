"""The settings file, `RELAY_HOME/config.toml`, as plain data (no validation here).

Read with the standard library's `tomllib`, quick enough for the host's first reply; written with
`tomlkit`, so comments and layout a person wrote by hand survive `relay config set`.
`bridge.settings` gives the values their meaning and checks them.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bridge.paths import private_file, relay_home

CONFIG_FILENAME = "config.toml"


class ConfigFileError(Exception):
    pass


def config_path(home: Path | None = None) -> Path:
    return (home or relay_home()) / CONFIG_FILENAME


def read(path: Path) -> dict[str, Any]:
    """The file's tables as dicts; {} when there is no file. Raises ConfigFileError."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigFileError(f"{path}: {exc}") from exc


def profile_override(env: Mapping[str, str] | None = None, home: Path | None = None) -> Path | None:
    """The profile file to fill from instead of the stored profile: RELAY_PROFILE, else the
    file's `profile`. Read without validation (no pydantic) so the host's first reply is quick;
    `relay config set` refuses a relative path, and one written by hand is ignored."""
    env = os.environ if env is None else env
    if env.get("RELAY_PROFILE"):
        return Path(env["RELAY_PROFILE"])
    try:
        value = read(config_path(home)).get("profile")
    except ConfigFileError:
        return None
    if isinstance(value, str) and Path(value).expanduser().is_absolute():
        return Path(value).expanduser()
    return None


def write_value(path: Path, dotted: str, value: Any) -> None:
    """Set `a.b` = value, creating tables as needed, keeping the rest of the file as it is."""
    _edit(path, dotted, value)


def remove_value(path: Path, dotted: str) -> bool:
    """Remove `a.b`; True when it was there. Tables left empty are removed too."""
    return _edit(path, dotted, None)


def _edit(path: Path, dotted: str, value: Any) -> bool:
    import tomlkit

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        raise ConfigFileError(f"{path}: {exc}") from exc
    try:
        document = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise ConfigFileError(f"{path}: {exc}") from exc
    *tables, name = dotted.split(".")
    container: Any = document
    parents: list[tuple[Any, str]] = []
    for table in tables:
        if table not in container:
            if value is None:
                return False
            container[table] = tomlkit.table()
        parents.append((container, table))
        container = container[table]
    found = name in container
    if value is None:
        if not found:
            return False
        del container[name]
        for parent, table in reversed(parents):
            if len(parent[table]) == 0:
                del parent[table]
    else:
        container[name] = value
    _write_atomic(path, tomlkit.dumps(document))
    return found


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    private_file(tmp)
    os.replace(tmp, path)
