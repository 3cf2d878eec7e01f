"""One place that spends money: picks the tier under the caps, answers from the cache when it can,
retries with backoff, stops after consecutive errors, and records every call in the ledger.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bridge.llm import client
from bridge.llm.config import DOWNGRADE, LlmConfig, Tier
from bridge.llm.ledger import CachedAnswer, LlmLedger, ModelCall
from bridge.llm.pricing import cost_of, estimate_tokens, price_for

log = logging.getLogger(__name__)

CompleteFn = Callable[..., client.Completion]


def fingerprint(model: str, messages: list[dict[str, str]], fmt: dict[str, Any]) -> str:
    """Question, facts sent and model: the same request gets the same answer from the cache."""
    blob = json.dumps([model, messages, fmt], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _local_midnight() -> datetime:
    now = datetime.now().astimezone()
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


@dataclass
class Caller:
    config: LlmConfig
    ledger: LlmLedger
    run_id: str
    complete: CompleteFn = client.complete
    sleep: Callable[[float], None] = time.sleep
    calls: list[ModelCall] = field(default_factory=list)
    fill_spent: float = 0.0
    consecutive_errors: int = 0
    stopped: str = ""  # why no more calls will be made in this fill ("" while calls may go on)
    problems: list[str] = field(default_factory=list)  # what went wrong, for the status text
    downgraded: list[str] = field(default_factory=list)
    _day_spent_at_start: float | None = None

    def _day_spent(self) -> float:
        if self._day_spent_at_start is None:
            self._day_spent_at_start = self.ledger.spent_usd_since(_local_midnight())
        return self._day_spent_at_start + self.fill_spent

    def _estimate(self, model: str, messages: list[dict[str, str]]) -> float:
        tokens_in = sum(estimate_tokens(m["content"]) for m in messages) + 200
        price = price_for(model, self.config, client.cost_map())
        return cost_of(price, tokens_in, self.config.max_output_tokens, None)

    def choose_tier(self, wanted: Tier, messages: list[dict[str, str]]) -> tuple[Tier, str] | None:
        """The tier to use under the caps, or None (and `stopped` says why) when none fits."""
        cfg = self.config
        fill_left = cfg.cap_per_fill_usd - self.fill_spent
        day_left = cfg.cap_per_day_usd - self._day_spent()
        near = (
            self.fill_spent >= cfg.near_cap_ratio * cfg.cap_per_fill_usd
            or self._day_spent() >= cfg.near_cap_ratio * cfg.cap_per_day_usd
        )
        tier: Tier | None = wanted
        if near and DOWNGRADE[wanted] is not None:
            tier = DOWNGRADE[wanted]
        while tier is not None:
            model = cfg.model_for(tier)
            if model:
                estimate = self._estimate(model, messages)
                if estimate <= min(fill_left, day_left):
                    if tier != wanted:
                        self.downgraded.append(f"{wanted.value}→{tier.value}")
                    return tier, model
            tier = DOWNGRADE[tier]
        if day_left < fill_left:
            self.stopped = f"rules-only: daily model cap ${cfg.cap_per_day_usd:.2f} reached"
        else:
            self.stopped = f"rules-only: per-fill model cap ${cfg.cap_per_fill_usd:.2f} reached"
        return None

    def _record(self, call: ModelCall) -> None:
        self.calls.append(call)
        self.ledger.record_call(call)

    def ask(
        self, wanted: Tier, purpose: str, messages: list[dict[str, str]], fmt: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The parsed JSON reply, or None when no call could be made or none succeeded."""
        if self.stopped:
            return None
        chosen = self.choose_tier(wanted, messages)
        if chosen is None:
            return None
        tier, model = chosen
        key = fingerprint(model, messages, fmt)
        cached = self.ledger.cache_get(key)
        if cached is not None:
            parsed = _parse(cached.text)
            if parsed is not None:
                self._record(
                    ModelCall(
                        run_id=self.run_id,
                        model=model,
                        tier=tier.value,
                        purpose=purpose,
                        cached=True,
                    )
                )
                return parsed
        cfg = self.config
        last_error = ""
        for attempt in range(cfg.retries + 1):
            if attempt:
                self.sleep(cfg.backoff_s * 2 ** (attempt - 1))
            try:
                done = self.complete(
                    model=model,
                    messages=messages,
                    response_format=fmt,
                    api_key=cfg.api_key,
                    api_base=cfg.api_base,
                    timeout_s=cfg.timeout_s,
                    max_tokens=cfg.max_output_tokens,
                )
            except client.CallError as exc:
                last_error = exc.kind
                self._record(
                    ModelCall(
                        run_id=self.run_id,
                        model=model,
                        tier=tier.value,
                        purpose=purpose,
                        ok=False,
                        error=exc.kind,
                    )
                )
                if self._count_error(exc.kind) or not exc.retryable:
                    break
                continue
            price = price_for(model, cfg, client.cost_map())
            cost = cost_of(price, done.tokens_in, done.tokens_out, done.reported_cost)
            self.fill_spent += cost
            parsed = _parse(done.text)
            self._record(
                ModelCall(
                    run_id=self.run_id,
                    model=model,
                    tier=tier.value,
                    purpose=purpose,
                    tokens_in=done.tokens_in,
                    tokens_out=done.tokens_out,
                    cost_usd=cost,
                    ok=parsed is not None,
                    error="" if parsed is not None else "malformed JSON",
                    duration_ms=done.duration_ms,
                )
            )
            if parsed is None:
                last_error = "malformed JSON"
                if self._count_error(last_error):
                    break
                continue
            self.consecutive_errors = 0
            self.ledger.cache_put(
                key,
                CachedAnswer(
                    model=model,
                    text=done.text,
                    tokens_in=done.tokens_in,
                    tokens_out=done.tokens_out,
                ),
            )
            return parsed
        if last_error:
            self.problems.append(f"{purpose} failed ({last_error})")
        return None

    def _count_error(self, kind: str) -> bool:
        """Count one error; True when this fill must stop calling the model."""
        self.consecutive_errors += 1
        if self.consecutive_errors >= self.config.max_consecutive_errors:
            self.stopped = (
                f"model stopped after {self.consecutive_errors} consecutive errors (last: {kind})"
            )
            return True
        return False


def _parse(text: str) -> dict[str, Any] | None:
    text = text.strip()
    if text.startswith("```"):
        # Some servers wrap JSON in a fence despite the schema.
        text = text.strip("`").removeprefix("json").strip()
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(parsed, dict) or not isinstance(parsed.get("fields"), dict):
        return None
    return parsed
