"""Saved answers: what the person wrote before for the same or a similar question."""

from __future__ import annotations

from rapidfuzz import fuzz

from bridge.forms import FormField, Source, Widget
from bridge.profile import LoadedProfile
from bridge.rules.features import FieldText
from bridge.rules.model import Answer
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


def saved_answer(field: FormField, ft: FieldText, lp: LoadedProfile) -> Answer | None:
    if field.widget not in _OK_WIDGETS or not ft.question or len(ft.question.split()) < 3:
        return None
    best: tuple[float, str, str] | None = None
    for item in lp.profile.application.answers:
        q = fold(item.question)
        if not q or not item.answer.strip():
            continue
        score = fuzz.token_sort_ratio(ft.question, q)
        if best is None or score > best[0]:
            best = (score, item.answer, item.question)
    if best is None or best[0] < SIMILAR:
        return None
    return Answer(
        "text",
        best[1],
        source=Source.SAVED_ANSWER,
        confidence=0.9,
        review=True,
        note=f'saved answer to "{best[2]}" ({best[0]:.0f}% similar)',
    )
