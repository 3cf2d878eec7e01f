"""Degree levels: which education is the highest, and which option names the same level."""

from __future__ import annotations

from functools import cache, lru_cache

from bridge.forms import FieldOption
from bridge.profile import Education
from bridge.rules.data import load_toml
from bridge.rules.options import option_text, real_options
from bridge.rules.text import fold


@cache
def _levels() -> tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...]:
    """(level, rank, (" padded phrase ", its word count)…) per degree level."""
    doc = load_toml("options/degrees.toml")
    out = []
    for lv in doc["level"]:
        words = [fold(p).split() for p in lv["match"]]
        phrases = tuple((f" {' '.join(w)} ", len(w)) for w in words if w)
        out.append((str(lv["name"]), int(lv["rank"]), phrases))
    return tuple(out)


@lru_cache(maxsize=4096)
def level(text: str) -> tuple[str, int] | None:
    """The degree level a text names; the longest phrase wins ("master of science" over "ms")."""
    padded = f" {fold(text)} "
    best: tuple[int, str, int] | None = None
    for name, rank, phrases in _levels():
        for needle, size in phrases:
            if needle in padded and (best is None or size > best[0]):
                best = (size, name, rank)
    return (best[1], best[2]) if best else None


def highest_education(entries: list[Education]) -> Education | None:
    if not entries:
        return None
    ranked = [(level(e.studyType or "") or ("", 0))[1] for e in entries]
    return entries[max(range(len(entries)), key=lambda i: (ranked[i], -i))]


def pick_degree(options: list[FieldOption], study_type: str) -> FieldOption | None:
    want = level(study_type)
    if want is None:
        return None
    hits = [o for o in real_options(options) if (level(option_text(o)) or ("", 0))[0] == want[0]]
    return hits[0] if len(hits) >= 1 else None
