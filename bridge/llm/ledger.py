"""What the model layer needs from the store, as a Protocol; the store adapts to it.

`MemoryLedger` is the reference implementation for tests and for runs without a database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from pydantic import BaseModel, Field


class ModelCall(BaseModel):
    """One call to a model (or one answer served from the cache, at zero cost)."""

    run_id: str
    model: str
    tier: str
    purpose: str  # "mapping", "drafting", "regenerate"
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    cached: bool = False
    ok: bool = True
    error: str = ""
    duration_ms: float = 0.0
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))


class CachedAnswer(BaseModel):
    model: str
    text: str
    tokens_in: int = 0
    tokens_out: int = 0


class LlmLedger(Protocol):
    def record_call(self, call: ModelCall) -> None: ...

    def spent_usd_since(self, since: datetime) -> float:
        """Model spend recorded at or after `since` (for the per-day cap)."""
        ...

    def record_audit(self, run_id: str, event: str, detail: dict[str, Any]) -> None: ...

    def cache_get(self, fingerprint: str) -> CachedAnswer | None: ...

    def cache_put(self, fingerprint: str, answer: CachedAnswer) -> None: ...


@dataclass
class MemoryLedger:
    calls: list[ModelCall] = field(default_factory=list)
    audit: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    cache: dict[str, CachedAnswer] = field(default_factory=dict)

    def record_call(self, call: ModelCall) -> None:
        self.calls.append(call)

    def spent_usd_since(self, since: datetime) -> float:
        return sum(c.cost_usd for c in self.calls if c.at >= since)

    def record_audit(self, run_id: str, event: str, detail: dict[str, Any]) -> None:
        self.audit.append((run_id, event, detail))

    def cache_get(self, fingerprint: str) -> CachedAnswer | None:
        return self.cache.get(fingerprint)

    def cache_put(self, fingerprint: str, answer: CachedAnswer) -> None:
        self.cache[fingerprint] = answer
