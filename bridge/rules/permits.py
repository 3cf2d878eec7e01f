"""What a work-permit question asks, read by meaning (words in `rules/options/authorization.toml`).

A question is reduced to literals over two facts about one country — A: the person may work there,
S: the person needs sponsorship there — each with a polarity: "Do you need a work permit?" is
not-A, "Are you authorized to work?" is A, "Do you NOT require sponsorship?" is not-S. A "without"
part is a second condition that must hold as well ("authorized … without sponsorship": A and
not-S). Several plain literals must agree under the profile, or the question is left. Anything the
words do not settle (a visa named alone, two readings in two languages) is unclear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from bridge.rules.data import load_toml
from bridge.rules.lang import marker_counts
from bridge.rules.text import fold

KINDS = (
    "authorized",
    "unauthorized",
    "permit",
    "sponsor",
    "visa",
    "need",
    "negation",
    "concord",
    "without",
    "condition",
    "answer_hints",
    "work",
    "other_topic",
    "attendance",
    "link",
)
# Concept words that make a literal (the rest only shape one).
_FACT_KINDS = ("authorized", "unauthorized", "permit", "sponsor", "visa")
# A clause: text between punctuation (a dot only where a space follows: "U.S." stays whole).
NAMES_NEITHER = "the question names neither permission to work nor sponsorship"
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_PIECE = re.compile(r"(?:[^?!;:,()\[\]¿¡.]|\.(?!\s|$))+")


@dataclass(frozen=True)
class Literal:
    fact: str  # "A" (may work there) or "S" (needs sponsorship there)
    positive: bool
    both: bool = False  # from a "without …" part: must hold together with the rest


@dataclass(frozen=True)
class Reading:
    literals: tuple[Literal, ...]
    unclear: str = ""  # why the words do not settle the question ("" when they do)
    lang: str = ""
    asked: str = ""  # the question without its condition clauses ("If you are not …, ")

    def describe(self) -> str:
        if self.unclear:
            return self.unclear
        parts = [
            f"{'' if x.positive else 'not '}{'authorized' if x.fact == 'A' else 'sponsorship'}"
            for x in self.literals
        ]
        return (" and " if any(x.both for x in self.literals) else " / ").join(dict.fromkeys(parts))

    def answer(self, auth: bool | None, sponsor: bool | None) -> bool | None:
        """Yes / no for the profile's two facts, or None when they do not settle it."""
        if self.unclear or not self.literals:
            return None
        facts = {"A": auth, "S": sponsor}
        values = [
            None if facts[x.fact] is None else facts[x.fact] == x.positive for x in self.literals
        ]
        if any(x.both for x in self.literals):
            if False in values:
                return False
            return True if all(v is True for v in values) else None
        known = set(values)
        if None in known or len(known) != 1:
            return None
        return values[0]


Phrase = tuple[tuple[str, ...], bool]  # words, last word matches as a prefix


@cache
def _lexicon() -> dict[str, dict[str, tuple[Phrase, ...]]]:
    doc = load_toml("options/authorization.toml")
    out: dict[str, dict[str, tuple[Phrase, ...]]] = {}
    for lang, table in doc.items():
        out[lang] = {
            kind: tuple(
                (tuple(fold(p.rstrip("*")).split()), p.endswith("*"))
                for p in table.get(kind, ())
                if fold(p.rstrip("*"))
            )
            for kind in KINDS
        }
    return out


@dataclass(frozen=True)
class _Match:
    kind: str
    start: int
    end: int


def _matches(
    words: tuple[str, ...], lex: dict[str, tuple[Phrase, ...]], kinds: tuple[str, ...]
) -> list[_Match]:
    """Words of the given kinds, longest first at each position, not overlapping."""
    found: list[_Match] = []
    i = 0
    while i < len(words):
        best: _Match | None = None
        for kind in kinds:
            for phrase, prefix in lex[kind]:
                n = len(phrase)
                seg = words[i : i + n]
                if len(seg) < n or seg[:-1] != phrase[:-1]:
                    continue
                last_ok = seg[-1].startswith(phrase[-1]) if prefix else seg[-1] == phrase[-1]
                if last_ok and (best is None or n > best.end - best.start):
                    best = _Match(kind, i, i + n)
        if best:
            found.append(best)
            i = best.end
        else:
            i += 1
    return found


def _is_hint(words: tuple[str, ...], lex: dict[str, tuple[Phrase, ...]]) -> bool:
    """A clause that only lists the answers: "(Yes/No)", "(Sí/No)"."""
    return any(words == p for p, _prefix in lex["answer_hints"])


def _starts_with(words: tuple[str, ...], phrases: tuple[Phrase, ...]) -> bool:
    return any(words[: len(p)] == p for p, _prefix in phrases)


@dataclass
class _Lit:
    fact: str
    positive: bool
    both: bool
    anchors: set[int]


def _is_asked(words: tuple[str, ...], lex: dict[str, tuple[Phrase, ...]]) -> bool:
    """Whether a clause is part of what is asked: not an answer hint, and not a condition ("If
    you are not a citizen, …")."""
    return bool(words) and not _is_hint(words, lex) and not _starts_with(words, lex["condition"])


def _without_conditions(question: str, lex: dict[str, tuple[Phrase, ...]]) -> str:
    """The question without its condition clauses and answer hints."""
    asked = question
    for piece in _PIECE.finditer(question):
        if not _is_asked(tuple(fold(piece.group()).split()), lex):
            asked = asked.replace(piece.group(), " ", 1)
    return asked


def _read_in(question: str, lang: str) -> Reading:
    lex = _lexicon()[lang]
    words: list[str] = []
    for piece in _PIECE.finditer(question):
        cw = tuple(fold(piece.group()).split())
        if _is_asked(cw, lex):
            words.extend((*cw, "|"))
    asked = _without_conditions(question, lex)
    hay = tuple(words)
    # Concept words from every language (loanwords, mixed pages); the small words of this one.
    found = _matches(hay, _merged(), (*_FACT_KINDS, "need"))
    found += _matches(hay, lex, ("negation", "concord", "without"))
    found.sort(key=lambda m: m.start)
    found = _merge_into_sponsorship(found, hay, lex)
    if not _mentions_work(hay):
        # "eligible" / "allowed" alone ask about something else ("eligible for rehire").
        found = [m for m in found if m.kind not in ("authorized", "unauthorized")]
    facts = [m for m in found if m.kind in _FACT_KINDS]
    if not facts:
        return Reading((), unclear=NAMES_NEITHER)
    clause = _clause_ids(hay)
    topical = {clause[m.start] for m in facts}
    if any(clause[m.start] in topical for m in _matches(hay, lex, ("other_topic",))):
        return Reading(
            (), unclear="it asks about the past, a wish or the permit's kind, not today's status"
        )
    if any(clause[m.start] in topical for m in _matches(hay, lex, ("attendance",))):
        return Reading((), unclear="it asks where or when you can work, not whether you may")
    # Each need word governs the nearest fact word in its clause ("need a permit", "eine
    # Arbeitserlaubnis … nötig"): that permit or visa is asked as needed.
    governs: dict[int, int] = {}
    for need in (m for m in found if m.kind == "need"):
        near = [f for f in facts if clause[f.start] == clause[need.start]]
        if near:
            nearest = min(near, key=lambda f: (abs(f.start - need.start), f.start < need.start))
            governs[need.start] = nearest.start
    needed = set(governs.values())
    lits: list[_Lit] = []
    for m in facts:
        anchors = {m.start} | {n for n, f in governs.items() if f == m.start}
        if _after_without(m, found):
            # "without sponsorship" / "without a visa": not-S; "without a permit": may work.
            fact, positive = ("A", True) if m.kind == "permit" else ("S", False)
            lits.append(_Lit(fact, positive, True, anchors))
            continue
        if m.kind == "visa" and m.start not in needed:
            return Reading((), unclear="a visa named without saying whether one is needed")
        fact, positive = {
            "authorized": ("A", True),
            "unauthorized": ("A", False),
            "permit": ("A", m.start not in needed),
            "sponsor": ("S", True),
            "visa": ("S", True),
        }[m.kind]
        lits.append(_Lit(fact, positive, False, anchors))
    negations = [m for m in found if m.kind == "negation"] or [
        m for m in found if m.kind == "concord"
    ]
    anchored = [m for m in found if m.kind in _FACT_KINDS or m.kind == "need"]
    for neg in negations:
        # A negation flips the next concept word, else the one before it ("… nicht benötigen").
        target = next((x for x in anchored if x.start > neg.start), None)
        target = target or next((x for x in reversed(anchored) if x.start < neg.start), None)
        for lit in lits:
            if target is not None and target.start in lit.anchors:
                lit.positive = not lit.positive
    literals = tuple(dict.fromkeys(Literal(x.fact, x.positive, x.both) for x in lits))
    return Reading(literals, lang=lang, asked=asked)


def _merge_into_sponsorship(
    found: list[_Match], hay: tuple[str, ...], lex: dict[str, tuple[Phrase, ...]]
) -> list[_Match]:
    """ "visa sponsorship", "sponsorship for a work permit": the permit or visa is what is
    sponsored, one concept with the sponsorship."""
    links = {p[0] for p, _prefix in lex["link"] if len(p) == 1}
    sponsors = [m for m in found if m.kind == "sponsor"]

    def tied(m: _Match) -> bool:
        for s in sponsors:
            gap = hay[m.end : s.start] if m.end <= s.start else hay[s.end : m.start]
            if len(gap) <= 3 and all(w in links for w in gap):
                return True
        return False

    return [m for m in found if not (m.kind in ("visa", "permit") and tied(m))]


def _mentions_work(hay: tuple[str, ...]) -> bool:
    padded = f" {' '.join(hay)} "
    return any(
        f" {' '.join(p)}{'' if prefix else ' '}" in padded for p, prefix in _merged()["work"]
    )


def _clause_ids(hay: tuple[str, ...]) -> list[int]:
    ids, current = [], 0
    for word in hay:
        ids.append(current)
        if word == "|":
            current += 1
    return ids


def _after_without(m: _Match, found: list[_Match]) -> bool:
    """The fact word is the first concept after a "without" (need words in between allowed)."""
    before = [x for x in found if x.start < m.start and x.kind not in ("negation", "concord")]
    i = len(before) - 1
    while i >= 0 and before[i].kind == "need":
        i -= 1
    return i >= 0 and before[i].kind == "without"


@cache
def _merged() -> dict[str, tuple[Phrase, ...]]:
    out: dict[str, list[Phrase]] = {k: [] for k in KINDS}
    for table in _lexicon().values():
        for kind, phrases in table.items():
            out[kind].extend(phrases)
    return {k: tuple(v) for k, v in out.items()}


def _lang_scores(question: str) -> dict[str, int]:
    words = tuple(fold(question).split())
    scores = marker_counts(words)
    for lang, lex in _lexicon().items():
        hits = _matches(words, lex, (*_FACT_KINDS, "need", "without", "work"))
        scores[lang] = scores.get(lang, 0) + 2 * len(hits)
    return scores


@lru_cache(maxsize=2048)
def read_permit_question(question: str, page_lang: str = "en") -> Reading:
    """The question's meaning; read in the language its words are in (ties: every candidate
    must give the same reading, or the question is unclear)."""
    scores = _lang_scores(question)
    best = max(scores.values(), default=0)
    langs = [lang for lang, s in scores.items() if s == best and lang in _lexicon()]
    if best == 0 or not langs:
        langs = [page_lang if page_lang in _lexicon() else "en"]
    # An aside in brackets ("(e.g., H-1B visa status)") explains; it is read only when the rest
    # of the question names nothing.
    plain_text = _ASIDE.sub(" ", question)
    readings = [_read_in(plain_text, lang) for lang in langs]
    if all(r.unclear == NAMES_NEITHER for r in readings):
        readings = [_read_in(question, lang) for lang in langs]
    if len({(r.literals, r.unclear, r.asked) for r in readings}) > 1:
        return Reading((), unclear="the words read differently in " + " / ".join(sorted(langs)))
    if plain_text != question:
        # Which country is asked about, the asides tell too: "(e.g. H-1B)" is a US visa.
        lex = _lexicon()[readings[0].lang or langs[0]]
        return replace(readings[0], asked=_without_conditions(question, lex))
    return readings[0]
