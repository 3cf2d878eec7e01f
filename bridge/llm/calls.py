"""One place that spends money: picks the tier under the caps, answers from the cache when it can,
retries with backoff, stops after consecutive errors, and records every call in the ledger.

A fill's requests may run at once (field answers and a draft, on two threads): each attempt
reserves its estimate (the most it can cost: the whole output allowance) before it is sent, and
the caps count what is spent and what is reserved, so requests in flight together can never
overspend. The ledger records the actual cost once the answer is back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
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
    reserved: float = 0.0  # the estimates of the attempts in flight
    in_flight: int = 0
    _day_spent_at_start: float | None = None
    _cond: threading.Condition = field(default_factory=threading.Condition, repr=False)

    def _day_spent(self) -> float:
        if self._day_spent_at_start is None:
            self._day_spent_at_start = self.ledger.spent_usd_since(_local_midnight())
        return self._day_spent_at_start + self.fill_spent

    def _estimate(self, model: str, messages: list[dict[str, str]]) -> float:
        tokens_in = sum(estimate_tokens(m["content"]) for m in messages) + 200
        price = price_for(model, self.config, client.cost_map())
        return cost_of(price, tokens_in, self.config.max_output_tokens, None)

    def choose_tier(
        self, wanted: Tier, messages: list[dict[str, str]]
    ) -> tuple[Tier, str, float] | None:
        """The tier to use under the caps and its estimate, now reserved (`_settle` gives it
        back); None (and `stopped` says why) when none fits. Near a cap is judged by what is
        spent, fitting by what is spent and reserved. When only the reservations of requests
        in flight change the choice, it waits for them to come back, as one after the other."""
        with self._cond:
            pick, why = self._pick(wanted, messages, self.reserved)
            while self.in_flight and (pick, why) != self._pick(wanted, messages, 0.0):
                self._cond.wait()
                pick, why = self._pick(wanted, messages, self.reserved)
            if pick is None:
                self.stopped = self.stopped or why
                return None
            if pick[0] != wanted:
                self.downgraded.append(f"{wanted.value}→{pick[0].value}")
            self._reserve(pick[2])
            return pick

    def _pick(
        self, wanted: Tier, messages: list[dict[str, str]], reserved: float
    ) -> tuple[tuple[Tier, str, float] | None, str]:
        """The tier that fits beside `reserved`, or None and why none does (no side effects)."""
        cfg = self.config
        fill_left = cfg.cap_per_fill_usd - self.fill_spent - reserved
        day_left = cfg.cap_per_day_usd - self._day_spent() - reserved
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
                    return (tier, model, estimate), ""
            tier = DOWNGRADE[tier]
        return None, _cap_reached(cfg, day_left < fill_left)

    def _reserve(self, estimate: float) -> None:
        self.reserved += estimate
        self.in_flight += 1

    def _settle(self, estimate: float, cost: float) -> None:
        """An attempt is back: its reservation gives way to what it really cost."""
        with self._cond:
            self.reserved = max(self.reserved - estimate, 0.0)
            self.in_flight -= 1
            self.fill_spent += cost
            self._cond.notify_all()

    def _record(self, call: ModelCall) -> None:
        with self._cond:
            self.calls.append(call)
        self.ledger.record_call(call)

    def _retry_reserved(self, model: str, messages: list[dict[str, str]]) -> float | None:
        """Reserve one more attempt of a request, or None: stopped, the estimate no longer fits
        (`stopped` says so), or the errors counted plus the attempts in flight reach the
        consecutive-error stop (requests failing together stop at the same count)."""
        cfg = self.config
        with self._cond:
            if self.stopped or (
                self.consecutive_errors + self.in_flight >= cfg.max_consecutive_errors
            ):
                return None
            estimate = self._estimate(model, messages)
            fill_left = cfg.cap_per_fill_usd - self.fill_spent - self.reserved
            day_left = cfg.cap_per_day_usd - self._day_spent() - self.reserved
            if estimate > min(fill_left, day_left):
                self.stopped = _cap_reached(cfg, day_left < fill_left)
                return None
            self._reserve(estimate)
            return estimate

    def ask(
        self, wanted: Tier, purpose: str, messages: list[dict[str, str]], fmt: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The parsed JSON reply, or None when no call could be made or none succeeded."""
        if self.stopped:
            return None
        chosen = self.choose_tier(wanted, messages)
        if chosen is None:
            return None
        tier, model, estimate = chosen
        key = fingerprint(model, messages, fmt)
        cached = self.ledger.cache_get(key)
        if cached is not None:
            parsed = _parse(cached.text)
            if parsed is not None:
                self._settle(estimate, 0.0)
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
        reserved: float | None = estimate
        for attempt in range(cfg.retries + 1):
            if attempt:
                self.sleep(cfg.backoff_s * 2 ** (attempt - 1))
                reserved = self._retry_reserved(model, messages)
                if reserved is None:
                    break
            assert reserved is not None
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
                self._settle(reserved, 0.0)
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
            self._settle(reserved, cost)
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
            with self._cond:
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
        with self._cond:
            self.consecutive_errors += 1
            if self.consecutive_errors >= self.config.max_consecutive_errors:
                self.stopped = self.stopped or (
                    f"model stopped after {self.consecutive_errors} consecutive errors "
                    f"(last: {kind})"
                )
                return True
            return False


def _cap_reached(cfg: LlmConfig, daily: bool) -> str:
    if daily:
        return f"rules-only: daily model cap ${cfg.cap_per_day_usd:.2f} reached"
    return f"rules-only: per-fill model cap ${cfg.cap_per_fill_usd:.2f} reached"


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
