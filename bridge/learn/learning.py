"""Which fields of a submitted application become saved answers.

A field becomes one when the person put its final value there: they changed what Relay filled,
or filled what Relay left. Passwords, hidden fields, files and what must never be filled are not
kept; self-identification answers are kept (marked, never used for another question) only when
the person chose them on the form.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridge.forms import FieldOption, FormField, Widget
from bridge.learn.models import ApplicationSubmitted, SetBy, SubmittedField
from bridge.rules.classify import classify, never_reason
from bridge.rules.features import field_text
from bridge.rules.lang import guess_lang
from bridge.rules.model import Page
from bridge.rules.text import fold

_SKIP_WIDGETS = ("password", "hidden", "file", "other")


def answer_key(label: str, section: str, options: list[str]) -> str:
    """One saved answer per question: the same label, section and options are the same question."""
    return "|".join([fold(label), fold(section), ",".join(sorted(fold(o) for o in options))])


@dataclass(frozen=True)
class Learned:
    qkey: str
    question: str
    section: str
    options: list[str]
    widget: str
    lang: str
    value: str
    self_id: bool
    origin: str  # "edited" (changed Relay's value) or "submitted" (filled what Relay left)


def _field(label: str, section: str, widget: str, options: list[str]) -> FormField:
    try:
        kind = Widget(widget)
    except ValueError:
        kind = Widget.OTHER
    opts = [FieldOption(value=o, text=o) for o in options]
    return FormField(id="q", tag="input", widget=kind, label=label, section=section,
                     options=opts)


def is_self_id(label: str, section: str = "", widget: str = "", options: list[str] | None = None
               ) -> bool:
    """A self-identification (EEO) question, as the rules read it with its widget and options."""
    field = _field(label, section, widget, options or [])
    found = classify(field, field_text(field), (), Page(url="", title="", job_text=""))
    return found is not None and found.key.startswith("eeo.")


def _never(f: SubmittedField) -> bool:
    field = _field(f.label, f.section, f.widget, f.options)
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
                qkey=answer_key(f.label, f.section, f.options),
                question=f.label.strip(),
                section=f.section,
                options=f.options,
                widget=f.widget,
                lang=guess_lang(f.label),
                value=f.value,
                self_id=is_self_id(f.label, f.section, f.widget, f.options),
                origin="edited" if f.relay_value else "submitted",
            )
        )
    return out
