"""Small helpers shared by the store modules: clock, ids, fingerprints, JSON text."""

from __future__ import annotations

import hashlib
import json
import uuid
from decimal import ROUND_HALF_UP, Decimal
from typing import Any


def new_run_id() -> str:
    return f"run-{uuid.uuid4().hex[:16]}"


def canonical_json(value: Any) -> str:
    """Deterministic JSON text: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(value: Any) -> str:
    """sha256 of the canonical JSON of a value: equal content, equal fingerprint."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def dumps(value: Any) -> str:
    return canonical_json(value)


def loads(text: str | None, default: Any = None) -> Any:
    return default if text is None or text == "" else json.loads(text)


def to_e4(cents: Decimal | int | float | str) -> int:
    """Cents (to four decimals) as an integer count of ten-thousandths of a cent: exact sums."""
    value = Decimal(str(cents)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    return int(value * 10_000)


def format_e4(e4: int) -> str:
    """Ten-thousandths of a cent as a cents string with four decimals ("12.3456")."""
    sign = "-" if e4 < 0 else ""
    e4 = abs(int(e4))
    return f"{sign}{e4 // 10_000}.{e4 % 10_000:04d}"


def request_key(kind: str, request_id: str, payload: Any) -> str:
    """An idempotency key that is safe even when a client reuses request ids (a per-connection
    counter restarting at r-1): a true retry carries the same payload, so it gets the same key."""
    return f"{kind}:{request_id}:{fingerprint(payload)[:32]}"
