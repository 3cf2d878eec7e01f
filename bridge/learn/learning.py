"""Which fields of a submitted application become saved answers.

A field becomes one when the person put its final value there: they changed what Relay filled,
or filled what Relay left. Passwords, hidden fields, files and what must never be filled are not
kept; self-identification answers are kept (marked, never used for another question) only when
the person chose them on the form.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridge.forms import FormField, Widget
from bridge.learn.models import ApplicationSubmitted, SetBy, SubmittedField
from bridge.learn.similar import question_key
from bridge.rules.classify import never_reason
from bridge.rules.features import field_text
from bridge.rules.lang import guess_lang

_SKIP_WIDGETS = ("password", "hidden", "file", "other")


@dataclass(frozen=True)
class Learned:
    question: str
    section: str
    options: list[str]
    widget: str
    lang: str
    value: str
    self_id: bool
    origin: str  # "edited" (changed Relay's value) or "submitted" (filled what Relay left)


def is_self_id(label: str) -> bool:
    return question_key(label).startswith("eeo.")


def _never(f: SubmittedField) -> bool:
    try:
        widget = Widget(f.widget)
    except ValueError:
        widget = Widget.OTHER
    field = FormField(id="q", tag="input", widget=widget, label=f.label, section=f.section)
    return never_reason(field, field_text(field)) is not None


def learned(sub: ApplicationSubmitted) -> list[Learned]:
    out = []
    for f in sub.fields:
        if f.set_by is not SetBy.PERSON or not f.value.strip() or not f.label.strip():
            continue
        if f.widget in _SKIP_WIDGETS or f.value == f.relay_value or _never(f):
            continue
        out.append(
            Learned(
                question=f.label.strip(),
                section=f.section,
                options=f.options,
                widget=f.widget,
                lang=guess_lang(f.label),
                value=f.value,
                self_id=is_self_id(f.label),
                origin="edited" if f.relay_value else "submitted",
            )
        )
    return out
