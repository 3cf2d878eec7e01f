"""The fabrication guard: deterministic checks that every specific claim in a model answer rests on
the person's own facts.

Claims are extracted by pattern, not by a model: numbers (with their unit and the words around
them), percentages, money, years, durations, headcounts, organisation names, job titles, degrees,
certifications and other proper nouns. Each must be found in the support text (the facts the answer
cites, which are themselves checked to exist in the profile or resume). A number needs the same
value in the support, followed by the same unit and sharing context words, so "3 engineers" is not
carried by "Python 3" and "2019" is not carried by "2017". The guard errs towards refusing: a
faithful answer wrongly refused costs the person a field to fill; an invented one costs them trust.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
}
_MULT = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "bn": 1e9,
    "b": 1e9,
    "billion": 1e9,
}
_STOP = {
    "a",
    "an",
    "the",
    "of",
    "to",
    "in",
    "on",
    "at",
    "for",
    "from",
    "by",
    "with",
    "and",
    "or",
    "as",
    "my",
    "our",
    "i",
    "we",
    "me",
    "is",
    "was",
    "were",
    "be",
    "been",
    "am",
    "are",
    "it",
    "its",
    "that",
    "this",
    "these",
    "those",
    "over",
    "about",
    "around",
    "than",
    "more",
    "some",
    "per",
    "into",
    "through",
    "while",
    "who",
    "which",
    "where",
    "when",
    "up",
    "out",
    "have",
    "has",
    "had",
    "also",
    "each",
    "every",
    "all",
    "then",
    "there",
    "their",
    "them",
    "they",
    "he",
    "she",
    "her",
    "his",
    "you",
    "your",
    "so",
    "such",
    "not",
    "no",
    "yes",
    "after",
    "before",
    "since",
    "during",
    "across",
    "including",
    "nearly",
    "almost",
    "roughly",
    "approximately",
    "just",
}
_CURRENCY = {
    "$": "usd",
    "€": "eur",
    "£": "gbp",
    "usd": "usd",
    "eur": "eur",
    "gbp": "gbp",
    "dollars": "usd",
    "euros": "eur",
    "pounds": "gbp",
}
_DURATION_UNITS = {"year", "yr", "month", "week", "day", "hour"}


def stem(word: str) -> str:
    """A crude stem: enough to match "engineers"/"engineer", "reduced"/"reduce"."""
    w = word.casefold().strip(".'\u2019-")
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(w) > 4 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z0-9+#]*|%", text)


def _content_stems(words: Iterable[str]) -> set[str]:
    return {stem(w) for w in words if w not in _STOP and w != "%" and len(w) > 1}


def normalize(text: str) -> str:
    """Casefold; dates to years; number words to digits; thousands separators and hyphens out."""
    t = text.casefold().replace("\u2019", "'").replace("\u2013", "-").replace("\u2014", " - ")
    t = re.sub(r"\b(\d{4})-\d{2}(-\d{2})?\b", r"\1", t)  # ISO dates: the year is the claim
    t = re.sub(r"\b((?:19|20)\d{2})\s*-\s*((?:19|20)\d{2}|present|now)\b", r"\1 to \2", t)
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", t)
    t = re.sub(r"(\d)-(?=[a-z])", r"\1 ", t)  # "30-service" -> "30 service"
    t = re.sub(r"(\d)\+", r"\1", t)  # "5+ years": the number is the claim

    # "one month", "a decade": durations written without digits are claims too.
    t = re.sub(r"\b(?:one|a single)\s+(?=(?:year|month|week|day|hour)s?\b)", "1 ", t)
    t = re.sub(r"\b(?:a|one)\s+decade\b", "10 years", t)
    t = re.sub(r"\b(\d+)\s+decades?\b", lambda m: f"{int(m.group(1)) * 10} years", t)

    def word_to_digit(m: re.Match[str]) -> str:
        return str(_NUMBER_WORDS[m.group(0)])

    return re.sub(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", word_to_digit, t)


_NUM_RE = re.compile(
    r"(?P<cur>[$€£])?\s?(?<![\w.])(?P<num>\d+(?:\.\d+)?)(?![\w.]*\d)"
    r"\s?(?P<mult>k|m|mm|bn|b|thousand|million|billion)?\b\s?(?P<pct>%|percent\b)?"
)


@dataclass(frozen=True)
class NumberMention:
    value: float
    unit: str  # stem of the word after the number, "%", a currency code, or ""
    context: frozenset[str]  # content stems within a few words of it
    text: str
    after: tuple[str, ...] = ()  # the first two content stems after it
    about: frozenset[str] = frozenset()  # words about its record (support only)
    owner: str = ""  # the employer or school the number belongs to, when known (support only)


def _numbers(text: str, window: int, extra: frozenset[str] = frozenset()) -> list[NumberMention]:
    """Numbers in normalized `text`, each with the content words within `window` words of it."""
    out: list[NumberMention] = []
    for m in _NUM_RE.finditer(text):
        value = float(m.group("num"))
        if m.group("mult"):
            value *= _MULT[m.group("mult")]
        after = _words(text[m.end() : m.end() + 80])
        before = _words(text[max(0, m.start() - 80) : m.start()])
        unit = ""
        if m.group("pct"):
            unit = "%"
        elif m.group("cur"):
            unit = _CURRENCY[m.group("cur")]
        elif after and after[0] in _CURRENCY:
            unit = _CURRENCY[after[0]]
        elif before and before[-1] in _CURRENCY:
            unit = _CURRENCY[before[-1]]
        elif after and after[0] not in _STOP:
            unit = stem(after[0])
        context = _content_stems(before[-window:] + after[:window])
        following = tuple(stem(w) for w in after[:4] if w not in _STOP and w != "%")[:2]
        out.append(
            NumberMention(value, unit, frozenset(context), m.group(0).strip(), following, extra)
        )
    return out


_DEGREES: list[tuple[str, re.Pattern[str]]] = [
    ("phd", re.compile(r"\b(ph\.?\s?d\.?|doctorate|doctoral|doctor of)", re.I)),
    ("mba", re.compile(r"\bm\.?b\.?a\b", re.I)),
    ("master", re.compile(r"\b(master'?s?|m\.sc?\.?|msc|m\.s\.|m\.a\.|meng|m\.eng)", re.I)),
    (
        "bachelor",
        re.compile(r"\b(bachelor'?s?|b\.sc?\.?|bsc|b\.s\.|b\.a\.|beng|b\.eng|bs degree)", re.I),
    ),
    ("associate", re.compile(r"\bassociate'?s? degree", re.I)),
    ("diploma", re.compile(r"\bdiploma\b", re.I)),
]
_CERT = re.compile(
    r"\b(certified\s+[a-z][\w+-]*(?:\s+[a-z][\w+-]*){0,3}|[A-Za-z][\w+-]*\s+certification"
    r"|certificate in\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}"
    r"|pmp|cissp|cpa|cfa|cka|ckad|cks|ccna|ccnp|oscp|itil|prince2|comptia[\w+ ]*|scrum master)\b",
    re.I,
)
_ROLE = (
    r"engineer|developer|manager|director|architect|scientist|analyst|designer|consultant"
    r"|administrator|officer|intern|cto|ceo|cfo|vp|president|founder|co-founder|head"
)
_TITLE = re.compile(
    r"\b((?:[a-z][\w-]*\s+){0,3}(?:" + _ROLE + r"))\b(?!s\b)(?:\s+of\s+[a-z]+)?", re.I
)
_TITLE_FILLER = {
    "worked",
    "work",
    "working",
    "joined",
    "join",
    "hired",
    "promoted",
    "serve",
    "served",
    "serving",
    "became",
    "become",
    "being",
    "role",
    "position",
    "job",
    "experienced",
    "seasoned",
    "passionate",
    "dedicated",
    "skilled",
    "accomplished",
    "motivated",
    "proud",
    "current",
    "currently",
    "former",
    "formerly",
    "now",
    "today",
    "grew",
    "growing",
    "eager",
    "excited",
}
_ORG_SUFFIX = re.compile(
    r"\b(inc|llc|ltd|gmbh|corp|corporation|company|co|labs?|university|college|institute|bank"
    r"|group|technologies|systems|school|foundation|agency|partners)\b\.?$",
    re.I,
)
_SENTENCE_STARTERS = {
    "i",
    "the",
    "my",
    "in",
    "at",
    "as",
    "this",
    "we",
    "our",
    "during",
    "while",
    "with",
    "over",
    "since",
    "after",
    "before",
    "when",
    "most",
    "recently",
    "currently",
    "previously",
    "also",
    "additionally",
    "it",
    "that",
    "these",
    "those",
    "your",
    "you",
    "there",
    "here",
    "what",
    "why",
    "how",
    "yes",
    "no",
    "a",
    "an",
    "for",
    "on",
    "from",
    "by",
    "today",
    "then",
    "both",
    "each",
    "one",
    "and",
    "but",
    "so",
    "if",
    "dear",
    "thank",
    "thanks",
    "best",
    "sincerely",
    "regards",
    "hello",
    "hi",
    "please",
    "overall",
    "outside",
    "beyond",
    "together",
}
_CONNECTORS = {"of", "and", "&", "de", "for", "the", "at"}


@dataclass(frozen=True)
class Claim:
    kind: str  # number, percentage, money, year, duration, headcount, degree, certification,
    #            title, organisation, proper-noun
    text: str


def _proper_nouns(text: str) -> list[str]:
    """Runs of capitalised words (connectors allowed inside), minus ordinary sentence openers."""
    found: list[str] = []
    # A short answer ("Google", "Hybrid") is a value, not a sentence: its first word counts.
    short = len(text.split()) <= 6 and not re.search(r"[.!?](\s|$)", text.strip())
    for sentence in re.split(r"(?<=[.!?;:])\s+|\n+|\s+[-\u2013\u2014\u2022]\s+", text):
        tokens = re.findall(r"[A-Za-z][\w&+#.'\u2019-]*|\S", sentence)
        run: list[str] = []
        run_start = 0

        def flush(run: list[str], start: int) -> None:
            while run and run[-1].casefold() in _CONNECTORS:
                run.pop()
            if not run:
                return
            first = run[0].rstrip(".,'\u2019")
            odd_caps = bool(re.search(r"[A-Z].*[A-Z]|\d", first))
            if start == 0 and first.casefold() in _SENTENCE_STARTERS | _STOP:
                run = run[1:]
            elif start == 0 and not odd_caps and not short:
                # A sentence opener is capitalised anyway: keep it only when more follows.
                if re.search(r"(ed|ing|ly)$", first):
                    run = run[1:]
                elif len(run) == 1:
                    return
            while run and run[0].casefold() in _CONNECTORS:
                run = run[1:]
            if run:
                found.append(" ".join(t.rstrip(".,;:'\u2019") for t in run))

        for i, tok in enumerate(tokens):
            is_cap = tok[:1].isupper() or bool(re.match(r"[a-z]+[A-Z]", tok))
            if is_cap or (run and tok.casefold() in _CONNECTORS):
                if not run:
                    run_start = i
                run.append(tok)
            else:
                flush(run, run_start)
                run = []
        flush(run, run_start)
    return [f for f in found if f.casefold() not in {"i", "i'm", "i've", "i'd", "i'll"}]


def extract_claims(answer: str) -> list[Claim]:
    claims: list[Claim] = []
    norm = normalize(answer)
    for n in _numbers(norm, window=4):
        if n.unit == "%":
            kind = "percentage"
        elif n.unit in _CURRENCY.values():
            kind = "money"
        elif n.unit in _DURATION_UNITS:
            kind = "duration"
        elif n.unit and n.value.is_integer():
            kind = "headcount" if n.value < 10_000 else "number"
        elif n.value.is_integer() and 1900 <= n.value <= 2100:
            kind = "year"
        else:
            kind = "number"
        claims.append(Claim(kind, n.text))
    for family, pattern in _DEGREES:
        for m in pattern.finditer(answer):
            claims.append(Claim("degree", m.group(0) if family else family))
    for m in _CERT.finditer(answer):
        claims.append(Claim("certification", m.group(0)))
    for m in _TITLE.finditer(answer):
        claims.append(Claim("title", m.group(1)))
    for noun in _proper_nouns(answer):
        kind = "organisation" if _ORG_SUFFIX.search(noun) else "proper-noun"
        claims.append(Claim(kind, noun))
    return claims


@dataclass
class Support:
    """What answers may rest on: normalized text, its numbers, words and degree families."""

    text: str = ""
    numbers: list[NumberMention] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    degrees: set[str] = field(default_factory=set)
    titles: list[set[str]] = field(default_factory=list)
    # Text that may carry names and titles but never numbers or qualifications (the job posting).
    names_only: str = ""
    # Employers and schools, by their distinctive words ("analytical engines"): a number said
    # of one of them must belong to it ("4 engineers at Difference Labs" is not the same claim).
    owners: list[str] = field(default_factory=list)

    @classmethod
    def build(
        cls,
        segments: Iterable[str | tuple[str, str] | tuple[str, str, str]],
        names_only: Iterable[str] = (),
        owners: Iterable[str] = (),
    ) -> Support:
        """`segments`: texts, or (text, context[, owner]): context is words about the text (its
        record) that numbers may be matched on but that are no claims; owner the employer or
        school of the record. Lines of a plain text (a resume) belong to the last owner named
        in a line above them."""
        sup = cls()
        sup.owners = [c for c in (owner_core(o) for o in owners) if c]
        texts: list[str] = []
        for seg in segments:
            if isinstance(seg, str):
                text, about, owner = seg, "", ""
            elif len(seg) == 2:
                text, about, owner = seg[0], seg[1], ""
            else:
                text, about, owner = seg[0], seg[1], seg[2]
            extra = frozenset(_content_stems(_words(normalize(about))))
            fixed = owner_core(owner)
            current = fixed
            for line in text.splitlines():
                norm = normalize(line)
                if not norm.strip():
                    continue
                if not fixed:
                    named = sup.owners_in(norm)
                    if named:
                        current = named[0]
                texts.append(norm)
                sup.numbers.extend(
                    dataclasses.replace(n, owner=current)
                    for n in _numbers(norm, window=6, extra=extra)
                )
                for family, pattern in _DEGREES:
                    if pattern.search(line):
                        sup.degrees.add(family)
                for m in _TITLE.finditer(line):
                    sup.titles.append(_content_stems(_words(m.group(1).casefold())))
        sup.text = "\n".join(texts)
        sup.words = {stem(w) for w in _words(sup.text)} | set(_words(sup.text))
        sup.names_only = "\n".join(normalize(t) for t in names_only)
        return sup

    def owners_in(self, norm_text: str) -> list[str]:
        return [
            o
            for o in self.owners
            if re.search(r"(?<![a-z])" + re.escape(o) + r"(?![a-z])", norm_text)
        ]

    def _has_phrase(self, phrase: str, *, allow_names_only: bool) -> bool:
        p = re.escape(normalize(phrase).strip(" .,"))
        pattern = re.compile(r"(?<![a-z0-9])" + p + r"(?![a-z0-9])")
        if pattern.search(self.text):
            return True
        return allow_names_only and bool(pattern.search(self.names_only))


def owner_core(name: str) -> str:
    """ "Analytical Engines Inc" -> "analytical engines": the words an answer names it by."""
    core = normalize(name).strip(" .,")
    while (m := _ORG_SUFFIX.search(core)) and m.start() > 0:
        core = core[: m.start()].strip(" .,")
    return core


def _number_supported(claim: NumberMention, support: Support, owners: list[str]) -> bool:
    claim_context = set(claim.context) - {claim.unit}
    for occ in support.numbers:
        if abs(occ.value - claim.value) > 1e-9:
            continue
        if owners and occ.owner and occ.owner not in owners:
            continue  # said of another employer or school
        if claim.unit and claim.unit != occ.unit and claim.unit not in occ.after:
            # "$185,000" rests on "amount: 185000" in a record whose currency is USD.
            if not (claim.unit in _CURRENCY.values() and claim.unit in occ.about):
                continue
        if not claim.unit and occ.unit and occ.unit not in claim_context:
            continue  # "a team of 3" is not "3 years"
        if claim_context and not (claim_context & (occ.context | occ.about)):
            continue
        return True
    return False


def _degree_family(text: str) -> str | None:
    for family, pattern in _DEGREES:
        if pattern.search(text):
            return family
    return None


def _title_supported(title: str, support: Support, allow_names_only: bool) -> bool:
    if support._has_phrase(title, allow_names_only=allow_names_only):
        return True
    stems = _content_stems(_words(title.casefold()))
    # "senior engineer" rests on "Senior Backend Engineer"; the words must all be in one title.
    return bool(stems) and any(stems <= known for known in support.titles)


def _noun_supported(noun: str, support: Support, allow_names_only: bool) -> bool:
    if support._has_phrase(noun, allow_names_only=allow_names_only):
        return True
    if _ORG_SUFFIX.search(noun):
        return False  # an organisation is named whole or not at all
    tokens = [w for w in _words(normalize(noun)) if w not in _CONNECTORS]
    # Each word is the person's ("Python and Go" written as "Go and Python").
    return bool(tokens) and all(t in support.words for t in tokens)


def unsupported_claims(
    answer: str, support: Support, *, allow_names_from_context: bool = False
) -> list[str]:
    """The claims in `answer` that `support` does not carry, in order, without repeats."""
    missing: list[str] = []
    for sentence in re.split(r"(?<=[.!?;])\s+|\n+", normalize(answer)):
        owners = support.owners_in(sentence)
        for n in _numbers(sentence, window=4):
            if not _number_supported(n, support, owners):
                missing.append(n.text)
    for family, pattern in _DEGREES:
        for m in pattern.finditer(answer):
            if family not in support.degrees:
                missing.append(m.group(0))
    for m in _CERT.finditer(answer):
        if not support._has_phrase(m.group(0), allow_names_only=False):
            missing.append(m.group(0))
    for m in _TITLE.finditer(answer):
        phrase = m.group(1)
        words = _words(phrase.casefold())
        # Drop leading filler ("worked as a") so the title itself is checked.
        while words and (words[0] in _STOP or words[0] in _TITLE_FILLER):
            words = words[1:]
        title = " ".join(words)
        if title and not _title_supported(title, support, allow_names_from_context):
            missing.append(phrase)
    for noun in _proper_nouns(answer):
        if _degree_family(noun) or _CERT.search(noun):
            continue  # judged above as a degree or certification
        if _noun_supported(noun, support, allow_names_from_context):
            continue
        # "Senior Backend Engineer at Analytical Engines Inc": judge the parts on their own.
        parts = [p for p in re.split(r"\s+(?:at|and|&|for|the|of)\s+", noun) if p]
        if len(parts) > 1:
            missing.extend(
                p for p in parts if not _noun_supported(p, support, allow_names_from_context)
            )
        else:
            missing.append(noun)
    seen: set[str] = set()
    out: list[str] = []
    for item in missing:
        if item.casefold() not in seen:
            seen.add(item.casefold())
            out.append(item)
    return out
