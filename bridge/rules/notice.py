"""Notice periods: "4 weeks" read as days, and the option of the same (or nearest) length."""

from __future__ import annotations

import re

from bridge.forms import FieldOption
from bridge.rules.options import option_text, real_options
from bridge.rules.text import fold

_UNITS = {
    "day": 1,
    "days": 1,
    "tag": 1,
    "tage": 1,
    "jour": 1,
    "jours": 1,
    "dia": 1,
    "dias": 1,
    "dag": 1,
    "dagen": 1,
    "week": 7,
    "weeks": 7,
    "woche": 7,
    "wochen": 7,
    "semaine": 7,
    "semaines": 7,
    "semana": 7,
    "semanas": 7,
    "weken": 7,
    "wk": 7,
    "wks": 7,
    "month": 30,
    "months": 30,
    "monat": 30,
    "monate": 30,
    "monaten": 30,
    "mois": 30,
    "mes": 30,
    "meses": 30,
    "maand": 30,
    "maanden": 30,
}
_NOW = (
    "immediately",
    "immediate",
    "now",
    "asap",
    "none",
    "no notice",
    "sofort",
    "immediatement",
    "inmediato",
    "inmediatamente",
    "imediatamente",
    "imediato",
    "direct",
    "per direct",
)
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "a": 1, "an": 1}


def to_days(text: str) -> tuple[float, float] | None:
    t = fold(text)
    if any(re.search(rf"\b{w}\b", t) for w in _NOW):
        return (0, 0)
    nums = []
    for m in re.finditer(
        r"(\d+(?:\.\d+)?|one|two|three|four|six|an?)\s*(?:-|to|bis|a|tot)?\s*(\d+)?\s*([a-z]+)", t
    ):
        unit = _UNITS.get(m.group(3))
        if unit is None:
            continue
        lo = float(_WORDS.get(m.group(1), 0) or m.group(1))
        hi = float(m.group(2)) if m.group(2) else lo
        nums.append((lo * unit, hi * unit))
    if not nums:
        return None
    lo, hi = nums[0]
    if re.search(r"\+|more than|over|or more|mehr als|plus de|mas de|mais de|meer dan", t):
        hi = float("inf")
    if re.search(r"less than|under|within|up to|weniger als|moins de|menos de|minder dan", t):
        lo = 0
    return (lo, hi)


def pick_notice(options: list[FieldOption], notice: str) -> FieldOption | None:
    want = to_days(notice)
    if want is None:
        return None
    days = want[0]
    best: tuple[float, FieldOption] | None = None
    for o in real_options(options):
        rng = to_days(option_text(o))
        if rng is None:
            continue
        if rng[0] <= days <= rng[1]:
            dist = 0.0
        else:
            dist = min(abs(days - rng[0]), abs(days - rng[1]))
        if dist <= 3 and (best is None or dist < best[0]):
            best = (dist, o)
    return best[1] if best else None
