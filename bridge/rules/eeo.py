"""EEO answers: the profile's wording and the form's options read into shared categories."""

from __future__ import annotations

from functools import cache, lru_cache

from bridge.forms import FieldOption
from bridge.rules.data import load_toml
from bridge.rules.options import is_decline, option_text, real_options
from bridge.rules.text import fold

# Per category: (" padded phrase ", word count) to match, and padded phrases that veto it.
Table = dict[str, tuple[tuple[tuple[str, int], ...], tuple[str, ...]]]


def _padded(raw: list[str]) -> list[tuple[str, int]]:
    words = [fold(p).split() for p in raw]
    return [(f" {' '.join(w)} ", len(w)) for w in words if w]


@cache
def _tables() -> dict[str, Table]:
    doc = load_toml("options/eeo.toml")
    out: dict[str, Table] = {}
    for topic, cats in doc.items():
        table: Table = {}
        for cat, spec in cats.items():
            match = tuple(_padded(spec.get("match", [])))
            exclude = tuple(p for p, _n in _padded(spec.get("exclude", [])))
            table[f"{topic}.{cat}"] = (match, exclude)
        out[topic] = table
    return out


@lru_cache(maxsize=4096)
def category(topic: str, text: str) -> str | None:
    """The one category of `topic` that `text` reads as; None when none or several fit."""
    folded = fold(text)
    if not folded:
        return None
    padded = f" {folded} "
    table = _tables().get(topic, {})
    # Longest matching phrase wins, so "not a protected veteran" beats "protected veteran".
    best: tuple[int, str] | None = None
    tie = False
    for cat, (match, exclude) in table.items():
        if any(e in padded for e in exclude):
            continue
        lengths = [n for p, n in match if p in padded]
        if not lengths:
            continue
        length = max(lengths)
        if best is None or length > best[0]:
            best, tie = (length, cat), False
        elif length == best[0]:
            tie = True
    return None if best is None or tie else best[1]


def pick(topic: str, wanted: str, options: list[FieldOption]) -> FieldOption | None:
    """The option of the wanted category (or the decline option when `wanted` is "decline")."""
    opts = real_options(options)
    if wanted == "decline":
        declines = [o for o in opts if is_decline(o)]
        return declines[0] if declines else None
    hits = [o for o in opts if not is_decline(o) and category(topic, option_text(o)) == wanted]
    return hits[0] if len(hits) == 1 else None


def options_topic(options: list[FieldOption]) -> str | None:
    """Which EEO topic a list of options is about, when the options alone tell it."""
    opts = [o for o in real_options(options) if not is_decline(o)]
    if not 2 <= len(opts) <= 20:
        return None  # EEO lists are short; a long list (schools, years) is something else
    for topic in ("race", "veteran", "gender"):
        cats = [category(topic, option_text(o)) for o in opts]
        known = [c for c in cats if c]
        if topic == "race" and len(set(known)) >= 3:
            return "race"
        if (
            topic == "veteran"
            and any(c == "veteran.protected" for c in known)
            and any(c == "veteran.not" for c in known)
        ):
            return "veteran"
        if topic == "gender" and {"gender.female", "gender.male"} <= set(known) and len(opts) <= 6:
            return "gender"
    return None
