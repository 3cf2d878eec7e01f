"""Hostile inputs for the protocol: what `tests/test_fuzz_protocol.py` (a fast slice, with
hypothesis) and `bench/fuzz.py` (the long run) send to the bridge.

Payloads are built from each request model's own field names, so they reach past the envelope into
validation, the store and the engine: wrong types, integers past 64 bits, NaN and Infinity (Python
writes and reads them, JSON has no such numbers), lone surrogates, emoji, megabyte strings, deep
nesting, and nearly valid requests.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel

from bridge.actions.registry import ACTIONS

HOSTILE_STRINGS = [
    "",
    "\ud800",
    "a\udfffb",
    "😀" * 3,
    "\x00",
    "\u202e",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "x" * 70,
    "run-" + "0" * 16,
    "f1",
]
HOSTILE_INTS = [0, -1, 1, 2**31, 2**63, -(2**63) - 1, 2**64, 10**30]


def model_fields(kind: str) -> list[str]:
    import importlib

    module = importlib.import_module(ACTIONS[kind])
    model = getattr(module, "PAYLOAD_MODEL", None)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return list(model.model_fields)
    return []


def _field_names() -> list[str]:
    from bridge.forms import ApplyResult, BlockedAttempt, FieldOption, FormField, FrameSnapshot

    names: set[str] = set()
    for model in (FormField, FrameSnapshot, ApplyResult, BlockedAttempt, FieldOption):
        names.update(model.model_fields)
    return sorted(names)


NESTED_NAMES = _field_names()


def value(rng: random.Random, depth: int = 0) -> Any:
    """One JSON value, hostile more often than not."""
    roll = rng.random()
    if depth > 4 or roll < 0.25:
        return rng.choice([*HOSTILE_STRINGS, rng.choice(HOSTILE_STRINGS) * rng.randint(1, 200)])
    if roll < 0.4:
        return rng.choice([*HOSTILE_INTS, rng.randint(-10 ** 6, 10 ** 6)])
    if roll < 0.5:
        return rng.choice([None, True, False, 1.5, float(10**300), float("nan"), float("-inf")])
    if roll < 0.75:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = NESTED_NAMES + HOSTILE_STRINGS
    return {rng.choice(keys): value(rng, depth + 1) for _ in range(rng.randint(0, 6))}


def payload(rng: random.Random, kind: str) -> dict[str, Any]:
    fields = model_fields(kind)
    out: dict[str, Any] = {}
    for name in fields:
        if rng.random() < 0.6:
            out[name] = value(rng)
    if "frames" in fields and rng.random() < 0.5:
        out["frames"] = [
            {"frame": value(rng), "fields": [
                {name: value(rng) for name in rng.sample(NESTED_NAMES, rng.randint(1, 8))}
                | {"id": f"f{i}"}
                for i in range(rng.randint(0, 5))
            ]}
            for _ in range(rng.randint(0, 3))
        ]
    return out


def strict_json(body: bytes) -> Any:
    """A frame body as the browser parses it: NaN and Infinity are not JSON."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(body, parse_constant=refuse)


def frame_body(rng: random.Random) -> bytes:
    """The body of one frame: mostly well-formed JSON requests, some broken bytes."""
    kinds = sorted(ACTIONS)
    roll = rng.random()
    message: Any = {
        "v": 1 if rng.random() < 0.9 else value(rng),
        "id": f"fz-{rng.randint(0, 10**9)}" if rng.random() < 0.9 else value(rng),
        "type": rng.choice(kinds) if rng.random() < 0.9 else value(rng),
        "payload": {},
    }
    message["payload"] = (
        payload(rng, message["type"])
        if isinstance(message["type"], str) and message["type"] in ACTIONS
        else value(rng)
    )
    text = json.dumps(message, ensure_ascii=rng.random() < 0.5)
    raw = text.encode("utf-8", "surrogatepass")  # raw surrogates make invalid UTF-8: also a case
    if roll < 0.05:
        return raw[: rng.randint(0, len(raw))]  # truncated JSON
    if roll < 0.08:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    if roll < 0.1:
        return ("[" * rng.randint(500, 5000)).encode()
    if roll < 0.12:
        return text.replace(":1,", ":" + "9" * 5000 + ",", 1).encode("utf-8", "surrogatepass")
    return raw
