"""Reading a field's options: placeholders, yes / no, decline, and picking the option that fits."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from rapidfuzz import fuzz

from bridge.forms import FieldOption
from bridge.rules.data import load_toml
from bridge.rules.patterns import contains_words
from bridge.rules.text import fold


@cache
def _phrases(table: str, key: str) -> tuple[tuple[str, ...], ...]:
    doc = load_toml("options/wordings.toml")[table]
    return tuple(tuple(fold(p).split()) for p in doc[key] if fold(p))


def _has_any(text: str, phrases: tuple[tuple[str, ...], ...]) -> bool:
    padded = f" {text} "
    return any(f" {' '.join(p)} " in padded for p in phrases)


def _starts_with_any(text: str, phrases: tuple[tuple[str, ...], ...]) -> bool:
    hay = tuple(text.split())
    return any(hay[: len(p)] == p for p in phrases)


def option_text(opt: FieldOption) -> str:
    return opt.text.strip() or opt.value.strip()


@cache
def _placeholder_texts() -> frozenset[str]:
    return frozenset(" ".join(p) for p in _phrases("placeholder", "phrases"))


def is_placeholder(opt: FieldOption) -> bool:
    return _is_placeholder(opt.value.strip(), opt.text)


@lru_cache(maxsize=8192)
def _is_placeholder(value: str, raw_text: str) -> bool:
    text = fold(raw_text)
    if not text and not value:
        return True
    if not text:
        return False
    if text in _placeholder_texts():
        return True
    # "-- Select --", "Select...", "Please select your country"
    return bool(re.match(r"^(please )?(select|choose)\b", text)) and len(text.split()) <= 5


def is_address_supplement(folded_label: str) -> bool:
    """A label that asks for the street address's continuation (see `address_supplement`)."""
    return " ".join(folded_label.split()) in _supplements()


@cache
def _supplements() -> frozenset[str]:
    return frozenset(" ".join(p) for p in _phrases("address_supplement", "phrases"))


def real_options(options: list[FieldOption]) -> list[FieldOption]:
    return [o for o in options if not is_placeholder(o)]


def is_decline(opt: FieldOption) -> bool:
    return _is_decline_text(option_text(opt))


@lru_cache(maxsize=4096)
def _is_decline_text(text: str) -> bool:
    return _has_any(fold(text), _phrases("decline", "phrases"))


def polarity(opt: FieldOption) -> str | None:
    """ "yes" / "no" / "decline" for an option that reads as one, else None."""
    text = fold(option_text(opt))
    value = fold(opt.value)
    if not text:
        return None
    if is_decline(opt):
        return "decline"
    if _starts_with_any(text, _phrases("no", "words")):
        return "no"
    if _starts_with_any(text, _phrases("yes", "words")):
        return "yes"
    if value in ("true", "yes", "1", "y") and text in ("", value):
        return "yes"
    if value in ("false", "no", "0", "n") and text in ("", value):
        return "no"
    return None


def yes_no_options(options: list[FieldOption]) -> dict[str, FieldOption] | None:
    """The yes and no options of a yes/no question, or None when the options are not that."""
    opts = real_options(options)
    if not 2 <= len(opts) <= 4:
        return None
    found: dict[str, FieldOption] = {}
    for opt in opts:
        pol = polarity(opt)
        if pol is None:
            continue
        if pol in found and pol != "decline":
            return None  # two "yes" options: a choice among answers, not a yes/no
        found.setdefault(pol, opt)
    if "yes" in found and "no" in found:
        return found
    # Two statements where exactly one is negated: "I am authorized…" / "I am not authorized…".
    if len(opts) == 2 and not found:
        negated = [_negated(fold(option_text(o))) for o in opts]
        if negated[0] != negated[1]:
            return (
                {"no": opts[0], "yes": opts[1]} if negated[0] else {"yes": opts[0], "no": opts[1]}
            )
    return None


_NEGATION = (
    ("not",),
    ("no",),
    ("don", "t"),
    ("dont",),
    ("won", "t"),
    ("cannot",),
    ("can", "t"),
    ("never",),
    ("nicht",),
    ("kein",),
    ("keine",),
    ("pas",),
    ("nao",),
    ("niet",),
    ("geen",),
)


def _negated(text: str) -> bool:
    hay = tuple(text.split())
    return any(contains_words(hay, n) for n in _NEGATION)


def pick_text(
    options: list[FieldOption], wanted: list[str], cutoff: float = 88.0
) -> FieldOption | None:
    """The option whose text is the wanted text: exact, then as a whole-word prefix, then fuzzy."""
    opts = real_options(options)
    targets = [fold(w) for w in wanted if fold(w)]
    if not opts or not targets:
        return None
    for t in targets:
        for o in opts:
            if fold(option_text(o)) == t or fold(o.value) == t:
                return o
    # Two-level lists show "Category > Item": the item alone may be the answer.
    for t in targets:
        leaves = [o for o in opts if fold(re.split(r"\s[>»/]\s|:\s", option_text(o))[-1]) == t]
        if len(leaves) == 1:
            return leaves[0]
    for t in targets:
        starts = [o for o in opts if _word_prefix(fold(option_text(o)), t)]
        if len(starts) == 1:
            return starts[0]
    best: tuple[float, FieldOption] | None = None
    second = 0.0
    for o in opts:
        ot = fold(option_text(o))
        score = max(fuzz.ratio(ot, t) for t in targets)
        if best is None or score > best[0]:
            second = best[0] if best else 0.0
            best = (score, o)
        elif score > second:
            second = score
    if best and best[0] >= cutoff and best[0] - second >= 4:
        return best[1]
    return None


def _word_prefix(text: str, prefix: str) -> bool:
    """ "United States (+1)" starts with "united states"; "Mal" does not start "Male"."""
    return (
        text == prefix
        or text.startswith(prefix + " ")
        or (prefix.startswith(text + " ") and len(text) > 3)
    )


def pick_bool(options: list[FieldOption], flag: bool) -> FieldOption | None:
    pairs = yes_no_options(options)
    if not pairs:
        return None
    return pairs["yes" if flag else "no"]


def pick_decline(options: list[FieldOption]) -> FieldOption | None:
    declines = [o for o in real_options(options) if is_decline(o)]
    return declines[0] if declines else None


_NUM = r"(\d+(?:[.,]\d+)?)"


def _numbers_plain(raw: str) -> str:
    """ "$150,000" → "150000", "150k" → "150000", "1.5M" → "1500000" (salary buckets)."""
    raw = re.sub(r"(?<=\d)[,.\u00a0\u202f ](?=\d{3}\b)", "", raw)
    raw = re.sub(r"(\d+(?:\.\d+)?)\s*k\b", lambda m: str(round(float(m.group(1)) * 1000)), raw)
    return re.sub(
        r"(\d+(?:\.\d+)?)\s*m\b", lambda m: str(round(float(m.group(1)) * 1_000_000)), raw
    )


def option_range(text: str) -> tuple[float, float] | None:
    """The numeric range an option stands for: "3-5 years", "10+", "Less than 1"."""
    t = fold(text).replace(" to ", " - ")
    raw = _numbers_plain(text.casefold())
    nums = [float(n.replace(",", ".")) for n in re.findall(_NUM, raw)]
    if not nums:
        if re.search(r"\b(none|no experience|keine|aucune|ninguna|nenhuma|geen)\b", t):
            return (0.0, 0.0)
        return None
    if re.search(
        r"(less than|under|fewer than|below|up to|max|weniger als|moins de|menos de|minder dan|<)",
        raw,
    ):
        lo = 0.0
        hi = nums[0]
        return (
            lo,
            hi - 0.001
            if re.search(r"less|under|fewer|below|weniger|moins|menos|minder|<", raw)
            else hi,
        )
    if (
        re.search(
            r"(\+|or more|more than|over|above|at least|plus|mehr als|plus de|mas de|mais de"
            r"|meer dan|>)",
            raw,
        )
        and len(nums) == 1
    ):
        lo = nums[0]
        strict = re.search(r"more than|over|above|mehr als|plus de|mas de|mais de|meer dan|>", raw)
        return (lo + 0.001 if strict else lo, float("inf"))
    if len(nums) >= 2:
        return (nums[0], nums[1])
    return (nums[0], nums[0])


def pick_number(options: list[FieldOption], number: float) -> FieldOption | None:
    """The bucket option holding `number`; on a shared edge ("3-5", "5-10" for 5) the first wins."""
    hits = []
    for o in real_options(options):
        rng = option_range(option_text(o))
        if rng and rng[0] <= number <= rng[1]:
            hits.append((rng[1] - rng[0], o))
    if not hits:
        return None
    return hits[0][1]
