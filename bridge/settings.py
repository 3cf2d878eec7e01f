"""Relay's settings: `RELAY_HOME/config.toml`, then the environment, which wins.

A bridge the browser starts sees the browser's environment, not a shell's: whatever it must know
lives in the settings file (`relay config set KEY VALUE`). Environment variables still override
the file, for tests and power users. API keys are never settings: they live in the OS keyring
(`relay key set PROVIDER`); `key_provider` only names which keyring entry holds the key.

`config.toml`, every part optional:

    profile = "/home/ada/relay/profile.json"   # fill from this file, not the stored profile
    api_base = "http://127.0.0.1:11434/v1"      # one OpenAI-compatible server for every tier
    key_provider = "openrouter"                 # keyring entry (default: the fast model's provider)
    [models]
    fast = "openrouter/deepseek/deepseek-v4-flash"
    general = "openrouter/z-ai/glm-4.7"
    heavy = ""                                   # off
    [limits]
    cap_per_fill_usd = 0.02
    cap_per_day_usd = 0.50
    timeout_s = 30
    [prices."openrouter/z-ai/glm-4.7"]           # per million tokens; overrides litellm's map
    input_per_mtok = 0.40
    output_per_mtok = 1.75
    [serve]
    port = 8765                                  # `relay serve`; unset: a free port
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bridge import config_file

# Setting -> the environment variable that overrides it.
ENV_OVERRIDES: dict[str, str] = {
    "profile": "RELAY_PROFILE",
    "api_base": "RELAY_LLM_API_BASE",
    "models.fast": "RELAY_MODEL_FAST",
    "models.general": "RELAY_MODEL_GENERAL",
    "models.heavy": "RELAY_MODEL_HEAVY",
}
KEY_ENV = "RELAY_LLM_API_KEY"  # overrides the keyring, never stored in a file
SECRET_WORDS = ("key", "token", "secret", "password")


class SettingsError(Exception):
    pass


class Price(BaseModel):
    """US dollars per million tokens."""

    model_config = ConfigDict(extra="forbid")

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


class Models(BaseModel):
    """A litellm model string per tier; unset means Relay's default, "" means off."""

    model_config = ConfigDict(extra="forbid")

    fast: str | None = None
    general: str | None = None
    heavy: str | None = None


class Limits(BaseModel):
    """Caps and timings of model calls; unset means Relay's default."""

    model_config = ConfigDict(extra="forbid")

    cap_per_fill_usd: float | None = Field(default=None, ge=0)
    cap_per_day_usd: float | None = Field(default=None, ge=0)
    near_cap_ratio: float | None = Field(default=None, gt=0, le=1)
    timeout_s: float | None = Field(default=None, gt=0)
    retries: int | None = Field(default=None, ge=0, le=5)
    backoff_s: float | None = Field(default=None, ge=0)
    max_consecutive_errors: int | None = Field(default=None, ge=1)
    confidence_bar: float | None = Field(default=None, ge=0, le=1)
    max_regenerations: int | None = Field(default=None, ge=0, le=2)
    max_output_tokens: int | None = Field(default=None, ge=64)
    resume_chars: int | None = Field(default=None, ge=0)
    job_text_chars: int | None = Field(default=None, ge=0)


class Serve(BaseModel):
    """`relay serve`, the loopback HTTP API."""

    model_config = ConfigDict(extra="forbid")

    port: int | None = Field(default=None, ge=0, le=65535)  # unset or 0: a free port


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    profile: Path | None = None
    api_base: str = ""
    key_provider: str = Field(default="", pattern=r"^[a-z0-9_.-]*$")
    models: Models = Field(default_factory=Models)
    limits: Limits = Field(default_factory=Limits)
    prices: dict[str, Price] = Field(default_factory=dict)
    serve: Serve = Field(default_factory=Serve)

    @field_validator("profile")
    @classmethod
    def _absolute(cls, value: Path | None) -> Path | None:
        if value is not None and not value.expanduser().is_absolute():
            raise ValueError("must be an absolute path (a browser starts the bridge elsewhere)")
        return value.expanduser() if value is not None else None

    @field_validator("api_base")
    @classmethod
    def _url(cls, value: str) -> str:
        value = value.strip()
        if value and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value


def load(path: Path | None = None) -> Settings:
    """The settings file, checked. Raises SettingsError naming what is wrong."""
    path = path or config_file.config_path()
    try:
        return Settings.model_validate(config_file.read(path))
    except config_file.ConfigFileError as exc:
        raise SettingsError(str(exc)) from exc
    except ValidationError as exc:
        raise SettingsError(f"{path}: {describe(exc)}") from exc


def describe(exc: ValidationError) -> str:
    """Pydantic's errors as one plain line per problem."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = f"unknown setting {where!r}" + (
                "; API keys are kept only in the OS keyring: relay key set PROVIDER"
                if any(word in where.lower() for word in SECRET_WORDS)
                else ""
            )
            parts.append(message)
        else:
            parts.append(f"{where}: {message}")
    return "; ".join(parts)


# -- `relay config`: the keys a person sets from the command line -------------------------------

@dataclass(frozen=True)
class Key:
    name: str
    help: str


KEYS: tuple[Key, ...] = (
    Key("profile", "profile file to fill from instead of the stored profile (absolute path)"),
    Key("models.fast", "model for field mapping (a litellm model string; empty = off)"),
    Key("models.general", "model for drafting open answers"),
    Key("models.heavy", "model for hard cases such as cover letters (empty = off)"),
    Key("api_base", "one OpenAI-compatible server for every tier (http://…)"),
    Key("key_provider", "keyring entry that holds the API key (relay key set PROVIDER)"),
    *(Key(f"limits.{name}", "model-call limit") for name in Limits.model_fields),
    Key("serve.port", "port of `relay serve`, the loopback HTTP API (unset or 0: a free one)"),
)
KEY_NAMES = tuple(k.name for k in KEYS)


def file_value(settings: Settings, name: str) -> Any:
    value: Any = settings
    for part in name.split("."):
        value = getattr(value, part)
    return value


def candidate(path: Path, name: str, raw: str | None) -> Settings:
    """The settings as they would be with `name` set to `raw` (None: unset); raises
    SettingsError when the result is not valid."""
    if name not in KEY_NAMES:
        hint = ("; API keys are kept only in the OS keyring: relay key set PROVIDER"
                if any(word in name.lower() for word in SECRET_WORDS) else "")
        raise SettingsError(f"unknown setting {name!r}{hint}; known: {', '.join(KEY_NAMES)}")
    try:
        data = config_file.read(path)
    except config_file.ConfigFileError as exc:
        raise SettingsError(str(exc)) from exc
    *tables, leaf = name.split(".")
    container = data
    for table in tables:
        container = container.setdefault(table, {})
    if raw is None:
        container.pop(leaf, None)
    else:
        container[leaf] = raw
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(describe(exc)) from exc


def stored_form(settings: Settings, name: str) -> Any:
    """The checked value as TOML stores it (paths as text, numbers as numbers)."""
    value = file_value(settings, name)
    return str(value) if isinstance(value, Path) else value
