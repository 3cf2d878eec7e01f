"""litellm, imported only when a model is needed (it takes seconds and ~200 MB).

Before the import: the local price map (no network fetch) and production mode (no `.env` read from
the working folder). `warm_up()` imports it on a daemon thread so the first fill does not wait.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)

_lock = threading.Lock()
_litellm: ModuleType | None = None


def load() -> ModuleType:
    """litellm, imported once (raises ImportError when it is not installed)."""
    return _load()


def _load() -> ModuleType:
    global _litellm
    with _lock:
        if _litellm is None:
            os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
            os.environ["LITELLM_MODE"] = "PRODUCTION"
            with warnings.catch_warnings():
                # Its import warns about its own pydantic models; nothing the person can act on.
                warnings.simplefilter("ignore")
                import litellm

            # Its pydantic types warn again on first use, from inside every call.
            warnings.filterwarnings(
                "ignore", message=r"Items? .* the `ReadOnly` qualifier", category=UserWarning
            )
            litellm.telemetry = False
            litellm.suppress_debug_info = True
            litellm.drop_params = True  # a provider that lacks a parameter still answers
            # When a reply has no token counts, litellm counts them itself: with tiktoken, not with
            # a tokenizer fetched from the Hugging Face Hub (Cohere, Llama and older Claude
            # models). Nothing is downloaded, and the desktop build leaves that library out.
            litellm.disable_hf_tokenizer_download = True
            _litellm = litellm
        return _litellm


def warm_up() -> threading.Thread:
    """Import litellm off the request path."""
    thread = threading.Thread(target=_load, name="relay-litellm-warmup", daemon=True)
    thread.start()
    return thread


def is_loaded() -> bool:
    return _litellm is not None


def cost_map() -> dict[str, Any]:
    cmap: dict[str, Any] = _load().model_cost
    return cmap


class CallError(Exception):
    """A model call failed; `kind` is short and safe to show ("timeout", "HTTP 500", …)."""

    def __init__(self, kind: str, detail: str = "", *, retryable: bool = True) -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.retryable = retryable


@dataclass
class Completion:
    text: str
    tokens_in: int
    tokens_out: int
    reported_cost: float | None
    duration_ms: float


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception and what caused it, innermost last."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _classify(exc: Exception) -> CallError:
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if "Timeout" in name:
        return CallError("timeout", retryable=True)
    if name in {"AuthenticationError", "PermissionDeniedError"}:
        return CallError("authentication failed", retryable=False)
    if name in {"NotFoundError", "BadRequestError", "UnsupportedParamsError"}:
        return CallError(f"request refused (HTTP {status or '4xx'})", retryable=False)
    if "RateLimit" in name:
        return CallError("rate limited (HTTP 429)")
    if any("Connect" in type(cause).__name__ for cause in _chain(exc)):
        # Before the status: litellm reports a refused connection as a server error (500).
        return CallError("connection failed")
    if isinstance(status, int):
        return CallError(f"HTTP {status}")
    return CallError(name)


def complete(
    *,
    model: str,
    messages: list[dict[str, str]],
    response_format: dict[str, Any],
    api_key: str,
    api_base: str,
    timeout_s: float,
    max_tokens: int,
) -> Completion:
    """One attempt, no retries (the caller owns retry policy and the error count)."""
    litellm = _load()
    kwargs: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "response_format": response_format,
        "timeout": timeout_s,
        "max_tokens": max_tokens,
        "temperature": 0,
        "num_retries": 0,
        "max_retries": 0,
    }
    if api_base:
        # Every tier goes to one OpenAI-compatible server; the model string is sent as it is.
        kwargs["api_base"] = api_base
        kwargs["custom_llm_provider"] = "openai"
        kwargs["model"] = model.removeprefix("openai/")
        kwargs["api_key"] = api_key or "relay-no-key"
    elif api_key:
        kwargs["api_key"] = api_key
    started = time.perf_counter()
    try:
        response = litellm.completion(**kwargs)
    except Exception as exc:  # litellm maps provider errors to many classes; classify by name
        raise _classify(exc) from exc
    duration_ms = (time.perf_counter() - started) * 1000
    try:
        text = response.choices[0].message.content or ""
    except (AttributeError, IndexError) as exc:
        raise CallError("empty response") from exc
    usage = getattr(response, "usage", None)
    tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
    tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
    reported = getattr(usage, "cost", None)  # OpenRouter and gateways report it
    return Completion(
        text=text,
        tokens_in=tokens_in,
        tokens_out=tokens_out,
        reported_cost=float(reported) if isinstance(reported, int | float) else None,
        duration_ms=duration_ms,
    )
