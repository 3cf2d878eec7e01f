"""Model tiers, keys, prices and caps: defaults, then the settings file (`RELAY_HOME/config.toml`,
see `bridge.settings`), then the environment (`RELAY_MODEL_*`, `RELAY_LLM_API_KEY`,
`RELAY_LLM_API_BASE`). Other tools set those names, so they never change.

The API key is in the OS keyring under service `relay-llm`, user = the `key_provider` setting, else
the fast model's provider prefix (`relay key set openrouter`); `RELAY_LLM_API_KEY` overrides it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bridge.settings import KEY_ENV, Settings, SettingsError
from bridge.settings import Price as Price  # re-exported: the model layer names prices here
from bridge.settings import load as load_settings

log = logging.getLogger(__name__)

KEYRING_SERVICE = "relay-llm"


class Tier(StrEnum):
    FAST = "fast"  # field mapping, classification
    GENERAL = "general"  # open answers
    HEAVY = "heavy"  # hard cases (long answers); optional


# Cheaper first: the order a tier falls back in as a cap nears.
DOWNGRADE: dict[Tier, Tier | None] = {
    Tier.HEAVY: Tier.GENERAL,
    Tier.GENERAL: Tier.FAST,
    Tier.FAST: None,
}


DEFAULT_MODELS: dict[Tier, str] = {
    Tier.FAST: "openrouter/deepseek/deepseek-v4-flash",
    Tier.GENERAL: "openrouter/z-ai/glm-4.7",
    Tier.HEAVY: "",  # off unless the person sets one
}

# Relay's own prices for models litellm's bundled map does not know (its map has no openrouter/*).
RELAY_PRICES: dict[str, Price] = {
    "openrouter/deepseek/deepseek-v4-flash": Price(input_per_mtok=0.098, output_per_mtok=0.196),
    "openrouter/z-ai/glm-4.7": Price(input_per_mtok=0.40, output_per_mtok=1.75),
    "openrouter/xiaomi/mimo-v2.6-pro": Price(input_per_mtok=0.435, output_per_mtok=0.87),
}


class LlmConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    models: dict[Tier, str] = Field(default_factory=lambda: dict(DEFAULT_MODELS))
    api_key: str = Field(default="", repr=False)
    api_base: str = ""
    # Where the key came from, for reports ("env", "keyring", "none"); never the key itself.
    key_source: str = "none"
    key_provider: str = ""  # the keyring entry looked up (or that would be)
    prices: dict[str, Price] = Field(default_factory=dict)  # per-model overrides
    cap_per_fill_usd: float = Field(default=0.02, ge=0)
    cap_per_day_usd: float = Field(default=0.50, ge=0)
    # Spent share of a cap from which calls start one tier lower.
    near_cap_ratio: float = Field(default=0.8, gt=0, le=1)
    timeout_s: float = Field(default=30.0, gt=0)
    retries: int = Field(default=2, ge=0, le=5)
    backoff_s: float = Field(default=0.5, ge=0)
    max_consecutive_errors: int = Field(default=3, ge=1)
    confidence_bar: float = Field(default=0.75, ge=0, le=1)
    max_regenerations: int = Field(default=2, ge=0, le=2)
    max_output_tokens: int = Field(default=1200, ge=64)
    resume_chars: int = Field(default=2000, ge=0)  # resume text sent with a request, at most
    job_text_chars: int = Field(default=2000, ge=0)

    @property
    def enabled(self) -> bool:
        # A local OpenAI-compatible server (Ollama, vLLM) needs no key; a cloud provider does.
        return bool(self.api_key or self.api_base)

    def model_for(self, tier: Tier) -> str:
        return self.models.get(tier, "")

    def disabled_reason(self) -> str:
        return (
            "rules-only: no model configured "
            "(no API key: `relay key set PROVIDER` or RELAY_LLM_API_KEY)"
        )


def provider_of(model: str) -> str:
    """The litellm provider prefix of a model string ("openrouter/x/y" -> "openrouter")."""
    return model.split("/", 1)[0] if "/" in model else "openai"


# The keyring's answer per provider, for this process: a plan reads the configuration several
# times, and each keychain lookup is a round trip to the desktop's secret service. Relay's own key
# commands (bridge.llm.keys) forget it when they store or remove a key.
_KEYS: dict[str, str] = {}
_KEYS_LOCK = threading.Lock()


def _keyring_key(provider: str) -> str:
    with _KEYS_LOCK:
        if provider not in _KEYS:
            found = _ask_keyring(provider)
            if found is None:
                return ""  # asked again next time: the keychain may be unlocked by then
            _KEYS[provider] = found
        return _KEYS[provider]


def forget_keyring_keys() -> None:
    """The next configuration asks the keyring again (a key was stored or removed)."""
    with _KEYS_LOCK:
        _KEYS.clear()


def _ask_keyring(provider: str) -> str | None:
    """The stored key ("" when none is), or None when the keyring could not be asked."""
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:
        return ""
    try:
        secret = keyring.get_password(KEYRING_SERVICE, provider)
    except (KeyringError, RuntimeError) as exc:
        # No secure backend on this machine (headless Linux): the key must come from the env.
        log.info("no keyring backend: %s", exc)
        return None
    return secret or ""


def load_config(
    env: Mapping[str, str] | None = None,
    path: Path | None = None,
    *,
    use_keyring: bool = True,
) -> LlmConfig:
    """The model configuration a Fill uses. A broken settings file is logged and ignored (the
    defaults apply; `relay doctor` names the problem)."""
    env = os.environ if env is None else env
    try:
        settings = load_settings(path)
    except SettingsError as exc:
        log.warning("ignoring the settings file: %s", exc)
        settings = Settings()
    return from_settings(settings, env, use_keyring=use_keyring)


def from_settings(
    settings: Settings, env: Mapping[str, str], *, use_keyring: bool = True
) -> LlmConfig:
    models = dict(DEFAULT_MODELS)
    for tier in Tier:
        file_model = getattr(settings.models, tier.value)
        if file_model is not None:
            models[tier] = file_model.strip()
        env_model = env.get(f"RELAY_MODEL_{tier.value.upper()}")
        if env_model is not None:
            models[tier] = env_model.strip()
    api_base = env.get("RELAY_LLM_API_BASE", settings.api_base).strip()
    provider = settings.key_provider or provider_of(models[Tier.FAST])
    api_key = env.get(KEY_ENV, "").strip()
    key_source = "env" if api_key else "none"
    if not api_key and use_keyring:
        api_key = _keyring_key(provider)
        key_source = "keyring" if api_key else "none"
    limits = settings.limits.model_dump(exclude_none=True)
    try:
        return LlmConfig(
            models=models,
            api_key=api_key,
            api_base=api_base,
            key_source=key_source,
            key_provider=provider,
            prices=dict(settings.prices),
            **limits,
        )
    except ValidationError as exc:
        log.warning("llm config invalid, using defaults: %s", exc)
        return LlmConfig(models=models, api_key=api_key, api_base=api_base,
                         key_source=key_source, key_provider=provider)
