"""Saved answers: what the person wrote before for the same or a similar question.

Two kinds: those in the profile's `application.answers`, and those Relay stored from the
person's own applications and "save this answer" (found through `Page.saved`, an embedding
search in the store; see bridge/learn/similar.py). A stored answer to the same question wins:
it is the person's latest word."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz

from bridge.forms import FormField, Source, Widget
from bridge.profile import LoadedProfile
from bridge.rules.data import load_toml
from bridge.rules.features import FieldText
from bridge.rules.lang import guess_lang
from bridge.rules.memo import text_cache
from bridge.rules.model import Answer, Page
from bridge.rules.text import fold

SIMILAR = 88.0
_OK_WIDGETS = (
    Widget.TEXT,
    Widget.TEXTAREA,
    Widget.CONTENTEDITABLE,
    Widget.SELECT,
    Widget.COMBOBOX,
    Widget.LISTBOX,
    Widget.RADIO_GROUP,
)
# Free text only: a saved sentence in another language cannot be one of a list's options.
_FREE_TEXT = (Widget.TEXT, Widget.TEXTAREA, Widget.CONTENTEDITABLE)


@dataclass(frozen=True)
class _Intent:
    name: str
    groups: tuple[tuple[str, ...], ...]
    none: frozenset[str]


@cache
def _intents() -> tuple[_Intent, ...]:
    doc = load_toml("options/intents.toml")
    return tuple(
        _Intent(
            name=str(raw["name"]),
            groups=tuple(
                tuple(fold(w) + ("*" if w.endswith("*") else "") for w in g) for g in raw["all"]
            ),
            none=frozenset(fold(w) for w in raw.get("none", ())),
        )
        for raw in doc.get("intent", ())
    )


def _has_word(words: tuple[str, ...], group: tuple[str, ...]) -> bool:
    for kw in group:
        if kw.endswith("*"):
            stem = kw[:-1]
            if any(w.startswith(stem) for w in words):
                return True
        elif kw in words:
            return True
    return False


@text_cache()
def intent_of(folded_question: str) -> str | None:
    """The one intent a question has (see `rules/options/intents.toml`), else None."""
    words = tuple(folded_question.split())
    found = [
        it.name
        for it in _intents()
        if all(_has_word(words, g) for g in it.groups) and not it.none & set(words)
    ]
    return found[0] if len(found) == 1 else None


def _saved(lp: LoadedProfile, page: Page | None) -> list[tuple[str, str, str]]:
    """(folded question, answer, question as written) of every usable saved answer: the stored
    ones first (they win a tie), then the profile's."""
    stored = page.saved.everything() if page is not None and page.saved is not None else []
    pairs = [(a.question, a.value) for a in stored if not a.self_id]
    pairs += [(item.question, item.answer) for item in lp.profile.application.answers]
    out: dict[str, tuple[str, str, str]] = {}
    for written, answer in pairs:
        q = fold(written)
        if q and answer.strip() and q not in out:  # the same question: the stored answer wins
            out[q] = (q, answer, written)
    return list(out.values())


def _said(written: str) -> str:
    return f"Your saved answer to “{written}”"


def _stored_answer(ft: FieldText, page: Page | None) -> Answer | None:
    """The stored answer whose question means the same (embedding search, checked by the rules)."""
    if page is None or page.saved is None:
        return None
    found = page.saved.same_question(ft.raw_question)
    if found is None:
        return None
    return Answer(
        "text",
        found.value,
        source=Source.SAVED_ANSWER,
        confidence=0.9,
        review=True,
        note=_said(found.question),
    )


def own_answer(field: FormField, ft: FieldText, page: Page) -> Answer | None:
    """The person's stored answer to this very question (the same words), if any."""
    if page.saved is None or field.widget not in _OK_WIDGETS or len(ft.question.split()) < 3:
        return None
    for stored in page.saved.everything():
        if not stored.self_id and fold(stored.question) == ft.question:
            page.saved.note_use(stored)
            return Answer("text", stored.value, source=Source.SAVED_ANSWER, confidence=0.95,
                          review=True, note=_said(stored.question))
    return None


def saved_answer(
    field: FormField, ft: FieldText, lp: LoadedProfile, page: Page | None = None
) -> Answer | None:
    if field.widget not in _OK_WIDGETS or not ft.question or len(ft.question.split()) < 3:
        return None
    stored = _stored_answer(ft, page)
    if stored is not None:
        return stored
    items = _saved(lp, page)
    if not items:
        return None
    best: tuple[float, str, str] | None = None
    for q, answer, written in items:
        score = fuzz.token_sort_ratio(ft.question, q)
        if best is None or score > best[0]:
            best = (score, answer, written)
    if best is not None and best[0] >= SIMILAR:
        return Answer(
            "text",
            best[1],
            source=Source.SAVED_ANSWER,
            confidence=0.9,
            review=True,
            note=f"{_said(best[2])} ({best[0]:.0f}% alike)",
        )
    return _same_intent(field, ft, items)


def _same_intent(
    field: FormField, ft: FieldText, items: list[tuple[str, str, str]]
) -> Answer | None:
    """The same question in another language: offer the saved text, always for review."""
    if field.widget not in _FREE_TEXT:
        return None
    intent = intent_of(ft.question)
    if intent is None:
        return None
    same = [(answer, written) for q, answer, written in items if intent_of(q) == intent]
    if len(same) != 1:
        return None  # none, or several saved answers that would each fit: the person chooses
    answer, written = same[0]
    asked_in, written_in = guess_lang(ft.raw_question), guess_lang(written)
    note = f"{_said(written)} (the same question"
    note += f", asked in {asked_in}, saved in {written_in})" if asked_in != written_in else ")"
    return Answer(
        "text",
        answer,
        source=Source.SAVED_ANSWER,
        confidence=0.8,
        review=True,
        note=note,
    )
