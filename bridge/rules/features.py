"""What a field says about itself: its folded texts per attribute, and its widget family."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cache

from bridge.forms import FormField, Widget
from bridge.rules.data import load_toml
from bridge.rules.memo import text_cache
from bridge.rules.patterns import Hit, scan
from bridge.rules.text import fold, fold_identifier

TEXT_WIDGETS = frozenset(
    {
        Widget.TEXT,
        Widget.EMAIL,
        Widget.TEL,
        Widget.URL,
        Widget.NUMBER,
        Widget.TEXTAREA,
        Widget.CONTENTEDITABLE,
    }
)
CHOICE_WIDGETS = frozenset(
    {Widget.SELECT, Widget.COMBOBOX, Widget.LISTBOX, Widget.RADIO_GROUP, Widget.CHECKBOX_GROUP}
)
DATE_WIDGETS = frozenset({Widget.DATE, Widget.DATE_TEXT, Widget.DATE_PARTS})
# Data attributes that carry stable, meaningful identifiers on ATS pages.
ID_ATTRS = (
    "data-automation-id",
    "data-ui",
    "data-qa",
    "data-field-path",
    "data-testid",
    "data-test",
    "formcontrolname",
    "data-cy",
    "data-fkit-id",
)


@dataclass
class FieldText:
    texts: dict[str, tuple[str, ...]]
    section: tuple[str, ...]
    question: str  # the folded label (or aria / placeholder) text, for question understanding
    raw_question: str  # the same, unfolded, for country codes written in capitals
    widget: str = ""
    label_core: int = -1  # words in the label outside parentheses
    ids: dict[str, str] = dc_field(default_factory=dict)  # attribute name → value, for adapters
    # The ids' own parts, where an id is a repeated block's path ("schools[1][degree]" says
    # degree; "schools" names its block): what excludes are checked against. None: the ids.
    own_name: tuple[str, ...] | None = None
    _hits: list[Hit] | None = None

    def hits(self) -> list[Hit]:
        """Pattern hits over this field's texts, computed once."""
        if self._hits is None:
            asks = self.raw_question.rstrip(" *:✱").endswith("?")
            key = (tuple(self.texts.items()), self.widget, asks, self.label_core, self.own_name)
            self._hits = list(_scan_cached(key))
        return self._hits


_ScanKey = tuple[
    tuple[tuple[str, tuple[str, ...]], ...], str, bool, int, tuple[str, ...] | None
]


@text_cache()
def _scan_cached(key: _ScanKey) -> tuple[Hit, ...]:
    """Scans are pure in the field's texts: the same field on the next Fill (or the next wizard
    step, or another tab) costs a dict lookup."""
    texts, widget, asks, label_core, own_name = key
    return tuple(scan(dict(texts), widget, asks, label_core, own_name))


# Structural words in ids and names that say nothing about what a field asks.
_ID_NOISE = frozenset(
    "job application applications candidate field fields input question questions answer answers "
    "attributes value values content cards custom form data section item element wrapper "
    "container text flag single choice multi open spl oc jv qa ca select control the of "
    "formfield inputfield textfield systemfield".split()
)


_HAS_DIGIT = re.compile(r"\d")


@text_cache()
def _clean_identifier(folded: str) -> str:
    """Drop noise words, digits and one-letter or hex fragments (UUIDs, counters)."""
    words = [
        w
        for w in folded.split()
        if w not in _ID_NOISE
        and ((len(w) > 1 and not _HAS_DIGIT.search(w)) or (w.isdigit() and len(w) == 1))
    ]
    return " ".join(words)


def _without_form_prefix(raw: str, form: str) -> str:
    """An id that starts with its form's id ("apply_current_title", as Ant Design writes them):
    the form's part names the form, not the field ("apply" would read as "applying for")."""
    cut = len(form)
    if not form or len(raw) <= cut + 1 or raw[cut] not in "_-.":
        return raw
    return raw[cut + 1 :] if raw[:cut].casefold() == form.casefold() else raw


# A repeated block's path: its name, an index, then the field's own part ("schools[1][degree]",
# "school-1-degree", "work_experience.0.company").
_BLOCK_PATH = re.compile(
    r"^[A-Za-z][\w-]*?(?:\[\d+\]\[?|[-_.]\d+[-_.])(?P<own>[A-Za-z][\w.\[\]-]*?)\]?$"
)


def _own_part(raw: str) -> str:
    found = _BLOCK_PATH.match(raw)
    return found.group("own") if found else raw


def _identifier_text(field: FormField, own_part: bool = False) -> tuple[str, ...]:
    parts: list[str] = []
    seen: set[str] = set()
    own = [
        _without_form_prefix(field.name, field.form),
        _without_form_prefix(field.html_id, field.form),
        *(field.attrs.get(a, "") for a in ID_ATTRS),
    ]
    if own_part:
        own = [_own_part(raw) for raw in own]
    # A container's ids ("apply-form") describe the form, not the field: only when it has none.
    parent = [] if any(own) else [field.attrs.get(f"parent:{a}", "") for a in ID_ATTRS]
    for raw in (*own, *parent):
        if not raw:  # most of the attributes a field could carry, it does not
            continue
        folded = _clean_identifier(fold_identifier(raw))
        if folded and folded not in seen:
            seen.add(folded)
            parts.append(folded)
    # "|" keeps a phrase from matching across two identifiers.
    return tuple(" | ".join(parts).split())


_HAS_LETTER = re.compile(r"[^\W\d_]")
_SAMPLE_EMAIL = re.compile(r"\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*$")


@cache
def _generic_labels() -> frozenset[str]:
    doc = load_toml("options/wordings.toml")["generic_label"]
    return frozenset(fold(p) for p in doc["phrases"] if fold(p))


def _generic(text: str) -> bool:
    """ "Upload file", "Choose…", "Datei auswählen": says how to operate it, not what it is."""
    return fold(re.sub(r"[*:…]|\.\.\.", " ", text)) in _generic_labels()


def _group_label(field: FormField) -> str:
    """The group's label for a control whose own label is generic, or empty on a file input."""
    own = [t for t in (field.label, field.aria_label, field.placeholder) if t.strip()]
    generic = bool(own) and all(_generic(t) for t in own)
    if field.section and (generic or (not own and field.widget == Widget.FILE)):
        return field.section
    return ""


def field_text(field: FormField) -> FieldText:
    group = _group_label(field)
    if group:
        grouped = _field_text(
            field.model_copy(update={"label": group, "aria_label": "", "placeholder": ""})
        )
        if any(h.attr == "label" for h in grouped.hits()):
            return grouped
        # The heading names nothing either ("Apply for this job"): the field's own texts stay.
    return _field_text(field)


def _field_text(field: FormField) -> FieldText:
    # A "label" without a letter is a sample value shown as placeholder ("94107"): it says nothing.
    label = fold(field.label) if _HAS_LETTER.search(field.label) else ""
    aria = fold(field.aria_label)
    # A sample address shown as placeholder ("name@example.com") says "email", not its words.
    placeholder = "email" if _SAMPLE_EMAIL.match(field.placeholder) else fold(field.placeholder)
    texts: dict[str, tuple[str, ...]] = {
        "label": tuple(label.split()),
        "aria": tuple(aria.split()) if aria != label else (),
        "placeholder": tuple(placeholder.split()) if placeholder not in (label, aria) else (),
        "name": _identifier_text(field),
        "nearby": tuple(fold(f"{field.nearby} {field.aria_description}").split()),
    }
    raw_q = field.label or field.aria_label or field.placeholder
    own_name = _identifier_text(field, own_part=True)
    return FieldText(
        texts=texts,
        section=tuple(fold(field.section).split()),
        question=fold(raw_q),
        raw_question=raw_q,
        widget=field.widget.value,
        label_core=len(fold(re.sub(r"\([^)]*\)", " ", field.label)).split()),
        ids=_ids(field),
        own_name=own_name if own_name != texts["name"] else None,
    )


def field_ids(field: FormField) -> dict[str, str]:
    """The field's id, name, autocomplete and stable data attributes (what adapters read)."""
    return _ids(field)


def _ids(field: FormField) -> dict[str, str]:
    ids = {"id": field.html_id, "name": field.name, "autocomplete": field.autocomplete}
    for key, value in field.attrs.items():
        plain = key.removeprefix("parent:")
        if value and not ids.get(plain):
            ids[plain] = value
    stable = [field.html_id, field.name, *(ids.get(a, "") for a in ID_ATTRS)]
    stable += [v for a in ID_ATTRS if (v := field.attrs.get(f"parent:{a}", "")) and v not in stable]
    # "any": id, name and the stable data attributes, one per line (regexes use (?m) ^ / $).
    ids["any"] = "\n".join(v for v in stable if v)
    return ids


_FREE_TEXT = frozenset({Widget.TEXT, Widget.TEXTAREA, Widget.CONTENTEDITABLE})
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=\S)")


@cache
def _yes_no_starts() -> tuple[tuple[str, ...], ...]:
    doc = load_toml("options/wordings.toml")["yes_no_question"]
    return tuple(tuple(fold(p).split()) for p in doc["phrases"] if fold(p))


def question_sentence(ft: FieldText) -> tuple[str, ...]:
    """The folded words of a label's last sentence: a preamble may come before the question
    ("This role is based in Austin, TX. Are you willing to relocate there?")."""
    return tuple(fold(_SENTENCE_BREAK.split(ft.raw_question.rstrip(" *:"))[-1]).split())


def asks_yes_no(field: FormField, ft: FieldText) -> bool:
    """A free-text box whose label is a yes/no question ("Willing to relocate to Austin, TX?")."""
    if field.widget not in _FREE_TEXT or not ft.raw_question.rstrip(" *:").endswith("?"):
        return False
    words = question_sentence(ft)
    return len(words) <= 25 and any(words[: len(p)] == p for p in _yes_no_starts())
