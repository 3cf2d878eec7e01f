"""Which fields a model may be asked about, and which of a field's options are real ones.

Cheap on purpose (the form's models and the privacy rules, no model layer, no litellm): a
streamed plan decides what to leave for the model before its reply goes out.
"""

from __future__ import annotations

import re

from bridge.forms import FieldDecision, FieldOption, FillRequest, FormField, Source, Status, Widget
from bridge.llm.privacy import field_privacy

OPEN_WIDGETS = {Widget.TEXTAREA, Widget.CONTENTEDITABLE}
CHOICE_WIDGETS = {
    Widget.SELECT,
    Widget.COMBOBOX,
    Widget.LISTBOX,
    Widget.RADIO_GROUP,
    Widget.CHECKBOX_GROUP,
}
MAPPABLE_WIDGETS = {
    Widget.TEXT,
    Widget.EMAIL,
    Widget.TEL,
    Widget.URL,
    Widget.NUMBER,
    Widget.DATE,
    Widget.DATE_TEXT,
    *CHOICE_WIDGETS,
}
_PLACEHOLDER_OPTION = re.compile(
    r"^\s*(-+|select.*|choose.*|please select.*|--.*|\.\.\.)?\s*$", re.I
)


def real_options(field: FormField) -> list[FieldOption]:
    return [
        o
        for o in field.options
        if (o.text or o.value) and not _PLACEHOLDER_OPTION.match(o.text or o.value)
    ]


def option_label(option: FieldOption) -> str:
    return (option.text or option.value).strip()


def is_choice(field: FormField) -> bool:
    return field.widget in CHOICE_WIDGETS and bool(real_options(field))


def field_index(request: FillRequest) -> dict[tuple[str, str], FormField]:
    return {(f.frame, f.id): f for f in request.all_fields()}


def open_question(decision: FieldDecision, field: FormField) -> bool:
    return decision.key.startswith("question") or (
        decision.key == "" and field.widget in OPEN_WIDGETS
    )


def model_candidates(request: FillRequest, decisions: list[FieldDecision]) -> list[FieldDecision]:
    """The decisions rules and saved answers left open that a model may answer."""
    index = field_index(request)
    return [d for d in decisions if _askable(d, index.get((d.frame, d.field_id)))]


def _askable(decision: FieldDecision, field: FormField | None) -> bool:
    if field is None or decision.status != Status.LEAVE or decision.source != Source.NONE:
        return False
    if field.disabled or field.readonly or not field.visible or field.user_edited:
        return False
    if field.value.strip() or field_privacy(field) is not None:
        return False
    if open_question(decision, field):
        return True
    if decision.key != "" or field.widget not in MAPPABLE_WIDGETS:
        return False  # a known key the profile lacks: a model would only guess
    if field.widget in CHOICE_WIDGETS:
        return is_choice(field)
    return True
