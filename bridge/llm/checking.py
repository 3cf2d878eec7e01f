"""Checks a model answer must pass before it is planned: the option exists, type, format and length
fit the field, the cited facts exist and say what the answer says, and the fabrication guard finds
nothing unsupported. Answers that cite nothing real are refused, choices included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from bridge.forms import FieldOption, FormField, Widget
from bridge.llm.candidates import CHOICE_WIDGETS, option_label, real_options
from bridge.llm.facts import Fact, fact_segments, owners_of
from bridge.llm.guard import (
    Support,
    _content_stems,
    _degree_family,
    _words,
    normalize,
    owner_core,
    unsupported_claims,
)

_YES = {"yes", "y", "true", "i do", "i am", "i have", "i will", "i can", "agree"}
_NO = {
    "no",
    "n",
    "false",
    "i do not",
    "i don't",
    "i am not",
    "i have not",
    "i will not",
    "i cannot",
}


@dataclass
class Cited:
    """The citations of one answer, resolved: what exists and what was made up."""

    facts: list[Fact] = field(default_factory=list)
    quotes: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    owners: list[str] = field(default_factory=list)  # every employer and school in the profile
    quote_owners: list[str] = field(default_factory=list)  # the employer each quote is under

    @property
    def values(self) -> list[str]:
        return [f.value for f in self.facts] + self.quotes


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _quote_owner(quote: str, resume: str, owners: list[str]) -> str:
    """The employer or school named last at or above the resume line a quote starts on."""
    q = _squash(quote)[:30]
    current = ""
    cores = [(owner_core(o), o) for o in owners]
    for line in resume.splitlines():
        low = _squash(line)
        for core, name in cores:
            if core and core in normalize(line):
                current = name
        if q and q in low:
            return current
    return current


def resolve_citations(
    paths: list[str], quotes: list[str], facts: dict[str, Fact], resume: str
) -> Cited:
    cited = Cited(owners=list(owners_of(list(facts.values())).values()))
    resume_squashed = _squash(resume)
    for path in paths:
        fact = facts.get(path.strip())
        if fact is None:
            cited.missing.append(path)
        else:
            cited.facts.append(fact)
    for quote in quotes:
        q = _squash(quote)
        # A quote must be the resume's own words; a short one proves nothing.
        if len(q) >= 3 and q in resume_squashed:
            cited.quotes.append(quote.strip())
            cited.quote_owners.append(_quote_owner(quote, resume, cited.owners))
        else:
            cited.missing.append(quote)
    return cited


def cited_support(cited: Cited) -> Support:
    segments: list[str | tuple[str, str] | tuple[str, str, str]] = [
        *fact_segments(cited.facts),
        *((q, "", owner) for q, owner in zip(cited.quotes, cited.quote_owners, strict=True)),
    ]
    return Support.build(segments, owners=cited.owners)


def _polarity(text: str) -> bool | None:
    t = normalize(text).strip(" .!")
    first = re.split(r"[,.;:]", t, maxsplit=1)[0].strip()
    if first in _YES or any(first.startswith(y + " ") for y in ("yes", "i am", "i do", "i have")):
        return True
    if first in _NO or any(first.startswith(n + " ") for n in ("no", "i am not", "i do not")):
        return False
    return None


def _range_of(text: str) -> tuple[float, float] | None:
    t = normalize(text)
    if m := re.search(r"(\d+(?:\.\d+)?)\s*(?:-|to)\s*(\d+(?:\.\d+)?)", t):
        return float(m.group(1)), float(m.group(2))
    if m := re.search(r"(?:more than|over|at least|above)\s*(\d+(?:\.\d+)?)", t):
        return float(m.group(1)), float("inf")
    if m := re.search(r"(\d+(?:\.\d+)?)\s*(?:\+|or more)", text.casefold()):
        return float(m.group(1)), float("inf")
    if m := re.search(r"(?:less than|under|fewer than|below)\s*(\d+(?:\.\d+)?)", t):
        return float("-inf"), float(m.group(1)) - 1e-9
    if m := re.fullmatch(r"\D*?(\d+(?:\.\d+)?)\D*", t):
        return float(m.group(1)), float(m.group(1))
    return None


def _numbers_in(values: list[str]) -> list[float]:
    out: list[float] = []
    for v in values:
        out.extend(float(x) for x in re.findall(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])", normalize(v)))
    return out


def _stems_of(text: str) -> set[str]:
    return _content_stems(_words(normalize(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text))))


def _relevant(question: str, cited: Cited) -> list[str]:
    """Cited values whose fact is about the question (shares a word with it, path included):
    a bare "yes" or "9" proves nothing unless it answers this question."""
    q = _stems_of(question)
    out = [f.value for f in cited.facts if q & _stems_of(f"{f.path} {f.value}")]
    return out + [v for v in cited.quotes if q & _stems_of(v)]


def answer_supported(answer: str, cited: Cited, *, choice: bool, question: str = "") -> bool:
    """Do the cited facts say what a short answer or chosen option says?"""
    values = cited.values
    if not values:
        return False
    polarity = _polarity(answer)
    if polarity is not None and len(answer.split()) <= 6:
        return polarity in {_polarity(v) for v in _relevant(question, cited)}
    rng = _range_of(answer)
    if rng is not None:
        lo, hi = rng
        return any(lo <= n <= hi for n in _numbers_in(_relevant(question, cited)))
    family = _degree_family(answer)
    if family is not None:
        return any(_degree_family(v) == family for v in values)
    answer_stems = _content_stems(_words(normalize(answer)))
    value_stems: set[str] = set()
    for v in values:
        value_stems |= _content_stems(_words(normalize(v)))
    if not answer_stems:
        return False
    if choice:
        return bool(answer_stems & value_stems)
    # Free text of a few words must be made of the cited words ("Python", "San Francisco, CA"
    # fails on "CA" unless cited; that is the safe side).
    return answer_stems <= value_stems


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_URL = re.compile(r"^https?://\S+$", re.I)


def format_problem(field: FormField, value: str) -> str | None:
    if field.max_length is not None and len(value) > field.max_length:
        return f"longer than the field's limit of {field.max_length}"
    if field.widget == Widget.EMAIL and not _EMAIL.match(value):
        return "not an email address"
    if field.widget == Widget.URL and not _URL.match(value):
        return "not a URL"
    if field.widget == Widget.TEL and not re.fullmatch(r"\+?[\d ().-]{6,}", value):
        return "not a phone number"
    if field.widget == Widget.NUMBER:
        try:
            number = float(value)
        except ValueError:
            return "not a number"
        try:
            if (field.min and number < float(field.min)) or (
                field.max and number > float(field.max)
            ):
                return "outside the field's range"
        except ValueError:
            pass  # a bound the page wrote oddly; the page checks it itself
    if field.widget in {Widget.DATE, Widget.DATE_TEXT, Widget.DATE_PARTS}:
        try:
            date.fromisoformat(value)
        except ValueError:
            return "not an ISO date"
    if field.pattern:
        try:
            if not re.fullmatch(field.pattern, value):
                return "does not match the field's pattern"
        except re.error:
            pass  # a JavaScript-only pattern; the page checks it itself
    return None


@dataclass
class Verdict:
    ok: bool
    reasons: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)  # guard findings: worth a regeneration
    options: list[FieldOption] = field(default_factory=list)


def match_options(field: FormField, answers: list[str]) -> tuple[list[FieldOption], list[str]]:
    by_label = {_squash(option_label(o)): o for o in real_options(field)}
    found: list[FieldOption] = []
    unknown: list[str] = []
    for a in answers:
        option = by_label.get(_squash(a))
        if option is None:
            unknown.append(a)
        elif option not in found:
            found.append(option)
    return found, unknown


def check_answer(
    field: FormField,
    answer: str | list[str],
    cited: Cited,
    support_extra_names: list[str] | None = None,
    *,
    long_form: bool = False,
) -> Verdict:
    """All checks for one answer. `long_form`: an open-question draft (the guard is the test of
    support; names from the job posting may appear)."""
    question = " ".join(x for x in (field.label, field.aria_label, field.section) if x)
    reasons: list[str] = []
    if cited.missing:
        reasons.append("cites facts that do not exist: " + ", ".join(cited.missing[:5]))
    if not cited.facts and not cited.quotes:
        reasons.append("cites no fact from the profile or resume")
        return Verdict(False, reasons)
    answers = answer if isinstance(answer, list) else [answer]
    answers = [a for a in (x.strip() for x in answers) if a]
    if not answers:
        return Verdict(False, [*reasons, "empty answer"])
    if field.widget in CHOICE_WIDGETS:
        options, unknown = match_options(field, answers)
        if unknown:
            reasons.append("not one of the field's options: " + ", ".join(unknown[:3]))
        if len(options) > 1 and not (field.multiple or field.widget == Widget.CHECKBOX_GROUP):
            reasons.append("several options for a single choice")
        for option in options:
            if not answer_supported(option_label(option), cited, choice=True, question=question):
                reasons.append(f"the cited facts do not say {option_label(option)!r}")
        return Verdict(not reasons, reasons, options=options)
    text = answers[0]
    if problem := format_problem(field, text):
        reasons.append(problem)
    support = cited_support(cited)
    if support_extra_names:
        support.names_only = "\n".join(normalize(t) for t in support_extra_names)
    unsupported = unsupported_claims(text, support, allow_names_from_context=long_form)
    if (
        not long_form
        and not unsupported
        and not answer_supported(text, cited, choice=False, question=question)
    ):
        reasons.append("the cited facts do not say this")
    return Verdict(not reasons and not unsupported, reasons, unsupported)
