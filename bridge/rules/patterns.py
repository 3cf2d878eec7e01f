"""Scored keyword patterns per profile key and language (data in `rules/fields/*.toml`).

A keyword matches whole words of the folded attribute text: `name` matches "Your name" but never
"username"; a trailing `*` lets it match the start of a word (German compounds: `telefon*`); a
`~` between words stands for one to three words ("years of ~ experience" matches "years of
professional engineering experience"). `exact` keywords must equal the whole attribute text (a
bare `name` attribute).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache

from bridge.rules.data import list_toml, load_toml
from bridge.rules.text import fold

# How much a hit in each attribute counts; labels say most, nearby text least.
ATTR_WEIGHT = {"label": 1.0, "aria": 0.9, "placeholder": 0.8, "name": 0.8, "nearby": 0.45}
DEFAULT_ATTRS_EN = ("label", "aria", "placeholder", "name")
DEFAULT_ATTRS_OTHER = ("label", "aria", "placeholder")
# Attributes whose text an exclude keyword is checked against.
EXCLUDE_ATTRS = ("label", "aria", "placeholder", "name")
# Identity-style keys only trust short texts; a long question merely mentioning "email" is not one.
SHORT_TEXT = 7
# A `~` in a keyword: the words it stands for, at least one and at most this many.
GAP = "~"
GAP_MAX = 3


@dataclass(frozen=True)
class Record:
    key: str
    lang: str
    attrs: tuple[str, ...]
    widgets: frozenset[str]
    not_widgets: frozenset[str]
    score: float
    question: bool  # true: may match long question texts at full weight
    exclude: tuple[tuple[str, ...], ...]
    exact: frozenset[str]


@dataclass(frozen=True)
class Phrase:
    words: tuple[str, ...]
    prefix: bool  # the last word matches as a word start
    record: Record
    after_gap: tuple[str, ...] = ()  # words that follow a gap of 1 to GAP_MAX words


@dataclass
class Index:
    records: list[Record] = field(default_factory=list)
    by_word: dict[str, list[Phrase]] = field(default_factory=dict)
    prefixes: dict[str, list[Phrase]] = field(default_factory=dict)  # by their first 3 letters
    exact: dict[str, list[Record]] = field(default_factory=dict)


@dataclass(frozen=True)
class Hit:
    key: str
    attr: str
    start: int
    end: int
    score: float
    rec: Record


def _words(raw: str) -> tuple[tuple[str, ...], bool]:
    prefix = raw.endswith("*")
    return tuple(fold(raw.rstrip("*")).split()), prefix


def _shared_excludes() -> dict[str, set[tuple[str, ...]]]:
    """Excludes of a key in any language apply to its records in every language."""
    shared: dict[str, set[tuple[str, ...]]] = {}
    for rel in list_toml("fields"):
        for raw in load_toml(rel).get("field", []):
            words = {_words(x)[0] for x in raw.get("exclude", ())}
            shared.setdefault(str(raw["key"]), set()).update(w for w in words if w)
    return shared


@cache
def index() -> Index:
    idx = Index()
    shared = _shared_excludes()
    for rel in list_toml("fields"):
        doc = load_toml(rel)
        lang = str(doc.get("lang", "en"))
        defaults = DEFAULT_ATTRS_EN if lang == "en" else DEFAULT_ATTRS_OTHER
        for raw in doc.get("field", []):
            rec = Record(
                key=str(raw["key"]),
                lang=lang,
                attrs=tuple(raw.get("attrs", defaults)),
                widgets=frozenset(raw.get("widgets", ())),
                not_widgets=frozenset(raw.get("not_widgets", ())),
                score=float(raw.get("score", 1.0)),
                question=bool(raw.get("question", False)),
                exclude=tuple(sorted(shared.get(str(raw["key"]), set()))),
                exact=frozenset(fold(x) for x in raw.get("exact", ())),
            )
            idx.records.append(rec)
            for kw in raw.get("match", ()):
                head, _, tail = str(kw).partition(f" {GAP} ")
                words, prefix = _words(head)
                if not words:
                    continue
                phrase = Phrase(words, prefix and not tail, rec, _words(tail)[0] if tail else ())
                if phrase.prefix and len(words) == 1:
                    idx.prefixes.setdefault(words[0][:3], []).append(phrase)
                else:
                    idx.by_word.setdefault(words[0], []).append(phrase)
            for text in rec.exact:
                idx.exact.setdefault(text, []).append(rec)
    return idx


def contains_words(hay: tuple[str, ...], words: tuple[str, ...], prefix: bool = False) -> bool:
    """Whether `words` occur as consecutive whole words of `hay` (last one as a prefix if asked)."""
    padded = " " + " ".join(hay) + " "
    needle = " " + " ".join(words) + ("" if prefix else " ")
    return needle in padded


def _applies(rec: Record, attr: str, widget: str) -> bool:
    if attr not in rec.attrs:
        return False
    if rec.widgets and widget not in rec.widgets:
        return False
    return widget not in rec.not_widgets


# An open "why …?" question is never a profile field, whatever nouns it mentions.
WHY_WORDS = frozenset(
    {
        "why",
        "warum",
        "weshalb",
        "wieso",
        "pourquoi",
        "porque",
        "por",
        "waarom",
        "describe",
        "explain",
        "tell",
        "beschreiben",
        "decrivez",
        "describa",
    }
)


def scan(
    texts: dict[str, tuple[str, ...]],
    widget: str,
    asks: bool = False,
    label_core: int = -1,
    own_name: tuple[str, ...] | None = None,
) -> list[Hit]:
    """Every pattern hit over a field's folded texts, without excluded and shadowed ones.
    `own_name`: the ids without a repeated block's path, for excludes (features.FieldText)."""
    idx = index()
    hits: list[Hit] = []
    # One padded string of the attributes excludes are checked against ("|" separates them).
    against = {**texts, "name": own_name} if own_name is not None else texts
    excl = " " + " | ".join(" ".join(against.get(a, ())) for a in EXCLUDE_ATTRS) + " "
    for attr, hay in texts.items():
        if not hay:
            continue
        weight = ATTR_WEIGHT.get(attr, 0.5)
        # A label's length is counted without its "(…)" asides: "Name (as on your passport)".
        size = label_core if attr == "label" and label_core >= 0 else len(hay)
        long_text = attr != "name" and (
            size > SHORT_TEXT or (attr in ("label", "aria") and hay[0] in WHY_WORDS)
        )
        if asks and attr in ("label", "aria") and not long_text:
            weight *= 0.8  # "What is your …?" still names the field, a bit less surely
        found: list[Hit] = []
        for rec in idx.exact.get(" ".join(hay), ()):
            if _applies(rec, attr, widget):
                found.append(Hit(rec.key, attr, 0, len(hay), rec.score * weight * 1.1, rec))
        for i, word in enumerate(hay):
            for ph in idx.by_word.get(word, ()):
                n = len(ph.words)
                end = i + n
                if end > len(hay) or not _applies(ph.record, attr, widget):
                    continue
                seg = hay[i:end]
                if seg[:-1] != ph.words[:-1]:
                    continue
                if not (seg[-1].startswith(ph.words[-1]) if ph.prefix else seg[-1] == ph.words[-1]):
                    continue
                if ph.after_gap:
                    end = _past_gap(hay, end, ph.after_gap)
                    if end < 0:
                        continue
                tail = attr == "name" and (end == len(hay) or hay[end] == "|")
                found.append(_hit(ph, attr, i, end, weight, long_text, tail))
            for ph in idx.prefixes.get(word[:3], ()):
                if word.startswith(ph.words[0]) and _applies(ph.record, attr, widget):
                    tail = attr == "name" and (i + 1 == len(hay) or hay[i + 1] == "|")
                    found.append(_hit(ph, attr, i, i + 1, weight, long_text, tail))
        found = [h for h in found if not h.rec.exclude or not _excluded(h, excl)]
        hits.extend(_unshadowed(found))
    return hits


def _past_gap(hay: tuple[str, ...], start: int, after: tuple[str, ...]) -> int:
    """Where `after` ends when it follows 1 to GAP_MAX words from `start` (never across an
    attribute's "|" separator); -1 when it does not."""
    for skip in range(1, GAP_MAX + 1):
        at = start + skip
        if "|" in hay[start:at] or at + len(after) > len(hay):
            return -1
        if hay[at : at + len(after)] == after:
            return at + len(after)
    return -1


def _hit(
    ph: Phrase, attr: str, start: int, end: int, weight: float, long_text: bool, tail: bool = False
) -> Hit:
    rec = ph.record
    score = rec.score * weight * (1.0 + 0.08 * (end - start - 1))
    if tail:
        score *= 1.15  # the last word of an id says most: `shipping_address_province`
    if long_text and not rec.question:
        # A long text that merely mentions a word is not that field; one that opens with a
        # field's full phrase names it ("Email address where our team can reach you").
        score *= 0.8 if start == 0 and end - start >= 2 and attr in ("label", "aria") else 0.45
    return Hit(rec.key, attr, start, end, score, rec)


def _excluded(hit: Hit, padded: str) -> bool:
    return any(needle in padded for needle in _exclude_needles(hit.rec.exclude))


@lru_cache(maxsize=1024)
def _exclude_needles(exclude: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    return tuple(f" {' '.join(words)} " for words in exclude)


def _unshadowed(found: list[Hit]) -> list[Hit]:
    """Drop a hit whose words lie inside a longer hit of another key ("name" inside "last name")."""
    out = []
    for h in found:
        shadowed = any(
            o.key != h.key
            and o.start <= h.start
            and h.end <= o.end
            and (o.end - o.start) > (h.end - h.start)
            for o in found
        )
        if not shadowed:
            out.append(h)
    return out


def sum_scores(hits: list[Hit]) -> dict[str, float]:
    """Per key: the best hit per attribute, summed over attributes."""
    best: dict[tuple[str, str], float] = {}
    for h in hits:
        k = (h.key, h.attr)
        best[k] = max(best.get(k, 0.0), h.score)
    totals: dict[str, float] = {}
    for (key, _attr), score in best.items():
        totals[key] = totals.get(key, 0.0) + score
    return totals
