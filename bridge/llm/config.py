"""Model tiers, keys, prices and caps: defaults, then `llm.toml` under relay_home(), then the
environment (`RELAY_MODEL_*`, `RELAY_LLM_API_KEY`, `RELAY_LLM_API_BASE`). Other tools set those
names, so they never change.

`llm.toml`, every part optional:

    api_base = "http://127.0.0.1:11434/v1"      # one OpenAI-compatible server for every tier
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

The API key is in the OS keyring under service `relay-llm`, user = the fast model's provider
prefix (`relay key set openrouter`); `RELAY_LLM_API_KEY` overrides it.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bridge.paths import relay_home

log = logging.getLogger(__name__)

CONFIG_FILE = "llm.toml"
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


class Price(BaseModel):
    """US dollars per million tokens."""

    model_config = ConfigDict(extra="forbid")

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


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


def _read_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        log.warning("ignoring %s: %s", path, exc)
        return {}


def _keyring_key(provider: str) -> str:
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
        return ""
    return secret or ""


def load_config(
    env: Mapping[str, str] | None = None,
    path: Path | None = None,
    *,
    use_keyring: bool = True,
) -> LlmConfig:
    env = os.environ if env is None else env
    data = _read_file(path if path is not None else relay_home() / CONFIG_FILE)
    models = dict(DEFAULT_MODELS)
    for tier in Tier:
        file_model = data.get("models", {}).get(tier.value)
        if isinstance(file_model, str):
            models[tier] = file_model
        env_model = env.get(f"RELAY_MODEL_{tier.value.upper()}")
        if env_model is not None:
            models[tier] = env_model.strip()
    limits = data.get("limits", {})
    kwargs: dict[str, Any] = {k: v for k, v in limits.items() if k in LlmConfig.model_fields}
    api_base = env.get("RELAY_LLM_API_BASE", data.get("api_base", "")).strip()
    api_key = env.get("RELAY_LLM_API_KEY", "").strip()
    key_source = "env" if api_key else "none"
    if not api_key and use_keyring:
        api_key = _keyring_key(provider_of(models[Tier.FAST]))
        key_source = "keyring" if api_key else "none"
    try:
        prices = {name: Price.model_validate(p) for name, p in data.get("prices", {}).items()}
        return LlmConfig(
            models=models,
            api_key=api_key,
            api_base=api_base,
            key_source=key_source,
            prices=prices,
            **kwargs,
        )
    except ValidationError as exc:
        log.warning("llm config invalid, using defaults: %s", exc)
        return LlmConfig(models=models, api_key=api_key, api_base=api_base, key_source=key_source)
