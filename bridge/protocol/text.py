"""Text that can always be encoded: lone UTF-16 surrogates replaced at the bridge's boundaries.

JSON may carry a surrogate escape without its other half (`"\\ud83d"`, what is left when a string is
cut in the middle of an emoji). Python decodes it to a code point that UTF-8 cannot encode, so
hashing, the store, the logs and the framing would fail on it. Every string that enters the bridge
or leaves it passes through here; valid text is returned unchanged.
"""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"
_LONE = re.compile("[\ud800-\udfff]")
# A surrogate escape in JSON text; only then can a decoded value hold a lone surrogate.
_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def has_lone_surrogate(text: str) -> bool:
    return _LONE.search(text) is not None


def well_formed(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD (as JavaScript's toWellFormed does)."""
    return _LONE.sub(REPLACEMENT, text) if _LONE.search(text) else text


def may_hold_surrogates(json_text: str) -> bool:
    """Whether decoding this JSON text can produce lone surrogates (a cheap pre-check)."""
    return _ESCAPE.search(json_text) is not None


def well_formed_json(value: Any) -> Any:
    """A decoded JSON value with every string (keys included) made well formed."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, dict):
        return {well_formed(k): well_formed_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [well_formed_json(v) for v in value]
    return value
