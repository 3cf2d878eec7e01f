"""`settings.set`: one of the console's settings into `RELAY_HOME/config.toml`, checked the same
way as `relay config set` before it is written; `null` removes it (Relay's default again)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime

# What the console may change; the rest stays with `relay config`.
ConsoleKey = Literal[
    "limits.cap_per_fill_usd", "limits.cap_per_day_usd", "models.fast", "models.general",
    "models.heavy", "api_base", "key_provider",
]


class SettingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: ConsoleKey
    value: float | Annotated[str, Field(max_length=500)] | None = None


PAYLOAD_MODEL = SettingRequest


def parse(payload: dict[str, Any]) -> SettingRequest:
    return validate_payload(SettingRequest, payload)


def handle(runtime: Runtime, payload: SettingRequest, request: Request) -> dict[str, Any]:
    from bridge import config_file, settings

    path = config_file.config_path(runtime.home)
    value: Any = payload.value
    if isinstance(value, str) and payload.key.startswith("limits."):
        value = value.strip()
    try:
        checked = settings.candidate(path, payload.key, value)
        if value is None:
            config_file.remove_value(path, payload.key)
        else:
            config_file.write_value(path, payload.key, settings.stored_form(checked, payload.key))
    except (settings.SettingsError, config_file.ConfigFileError) as exc:
        raise RelayError(ErrorCode.BAD_PAYLOAD, str(exc)) from exc
    except UnicodeEncodeError as exc:  # a lone surrogate cannot be written as UTF-8
        raise RelayError(ErrorCode.BAD_PAYLOAD, "value: not writable text") from exc
    scope = "unset" if value is None else "set"
    runtime.store().audit(actor=runtime.door, action="settings.set",
                          payload={"key": payload.key, "scope": scope})
    stored = None if value is None else settings.stored_form(checked, payload.key)
    return {"key": payload.key, "value": stored}
