"""Shaping an answer to the field's widget: the option to choose, the text to type, the date."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import date
from functools import cache

from bridge.forms import Action, FieldOption, FormField, Widget
from bridge.rules import eeo
from bridge.rules.countries import country_name, country_of_option, region_code
from bridge.rules.data import load_toml
from bridge.rules.degrees import pick_degree
from bridge.rules.features import CHOICE_WIDGETS, DATE_WIDGETS, FieldText, asks_yes_no
from bridge.rules.formats import (
    date_hint,
    date_part,
    format_date,
    phone_for_field,
    phone_parts,
    wants_month_only,
    wants_year_only,
)
from bridge.rules.model import Answer, Missing, Page
from bridge.rules.notice import pick_notice
from bridge.rules.options import (
    is_decline,
    option_text,
    pick_bool,
    pick_number,
    pick_text,
    real_options,
)
from bridge.rules.text import fold

YES_NO = {
    "en": ("Yes", "No"),
    "de": ("Ja", "Nein"),
    "fr": ("Oui", "Non"),
    "es": ("Sí", "No"),
    "pt": ("Sim", "Não"),
    "nl": ("Ja", "Nee"),
}


@dataclass
class Shaped:
    action: Action
    value: str = ""
    values: list[str] = dc_field(default_factory=list)
    place: list[list[str]] = dc_field(default_factory=list)
    checked: bool | None = None
    confidence: float = 1.0
    review: bool = False
    note: str = ""


def render(
    field: FormField, ft: FieldText, key: str, answer: Answer, page: Page
) -> Shaped | Missing:
    w = field.widget
    if w == Widget.FILE:
        if answer.kind == "file" and answer.file is not None:
            return Shaped(Action.ATTACH, value=answer.file.name)
        return Missing("a file input, and the answer is not a file")
    if answer.kind == "file":
        return Missing("the profile's answer is a file; this field is not a file input")
    if answer.kind == "multi" and not (w in CHOICE_WIDGETS and field.options):
        return Missing("a list answer needs the field's options")
    if w == Widget.CHECKBOX:
        if answer.kind == "bool" and answer.flag is not None:
            return Shaped(Action.CHECK, checked=answer.flag)
        return Missing("a single checkbox, and the answer is not yes / no")
    if w in CHOICE_WIDGETS and field.options:
        chosen = _choose(field, key, answer)
        if not (isinstance(chosen, Missing) and _typeable(field, answer)):
            return chosen
        # An editable box whose listed options do not hold a free-text answer (a street line):
        # the list is a suggestion list (or another control's); type and let the driver pick.
    if w in (Widget.SELECT, Widget.RADIO_GROUP, Widget.CHECKBOX_GROUP):
        return Missing("a list with no options (yet)")
    if w in CHOICE_WIDGETS:
        # A typeahead whose options appear only after typing: the driver types and picks.
        part = date_part(field) if answer.kind == "date" and answer.when is not None else ""
        if part and answer.when is not None:
            # One part of a date: the month as the page's language names it, or the year.
            return Shaped(Action.CHOOSE, value=_part_text(answer.when, part, page.lang),
                          note=f"{part} of the date; typeahead: options not in the snapshot")
        text = answer.query or _as_text(field, answer, page)
        if isinstance(text, Missing):
            return text
        return Shaped(Action.CHOOSE, value=text, place=[list(p) for p in answer.place],
                      note="typeahead: options not in the snapshot")
    if w in DATE_WIDGETS or (answer.kind == "date" and answer.when is not None):
        return _date(field, answer, page.lang)
    text = _as_text(field, answer, page)
    if isinstance(text, Missing):
        return text
    unfit = misfit(field, key, text)
    if unfit and answer.kind == "phone":
        # The field's pattern or type says how it wants the number: try its other writings.
        parts = phone_parts(answer.text, answer.code or None)
        for other in (parts["national"], parts["national_digits"], parts.get("e164", "")):
            if other and not misfit(field, key, other):
                text, unfit = other, ""
                break
    if unfit:
        return Missing(unfit)
    if field.max_length and len(text) > field.max_length:
        short = [a for a in answer.alternatives if a and len(a) <= field.max_length]
        if answer.kind == "region" and short:
            return Shaped(Action.SET_TEXT, value=min(short, key=len), note="short form")
        if answer.kind == "country" and answer.code and len(answer.code) <= field.max_length:
            return Shaped(Action.SET_TEXT, value=answer.code, note="country code")
        return Missing(f"the answer is longer than the field allows ({field.max_length})")
    if answer.kind == "bool":
        if not asks_yes_no(field, ft):
            return Missing("a yes / no answer, and this box does not ask a yes / no question")
        # A yes/no question asked in a text box: the answer in words, for the person to review.
        return Shaped(Action.SET_TEXT, value=text, review=True, note="yes / no in words")
    return Shaped(Action.SET_TEXT, value=text)


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
_PHONE_CHARS = re.compile(r"^[\d\s()+./\-]*(?:(?:ext|x)\.?\s*\d+)?$", re.I)
_URL = re.compile(r"^(https?://)?[^\s/]+\.[^\s]+$", re.I)


def misfit(field: FormField, key: str, text: str) -> str:
    """Why a value does not validate for its field ("" when it does): an email box gets only an
    email, a phone box only a number, a web-address box only an address, and the field's own
    pattern must hold."""
    kind = field.type.casefold()
    if (kind == "email" or key.startswith("basics.email")) and not _EMAIL.match(text.strip()):
        return "the value is not an email address, and this field takes one"
    if kind == "tel" or field.widget == Widget.TEL or key == "phone.full":
        # A box for the area code alone takes its three digits; a whole number has more.
        fewest = 3 if key == "phone.area_code" else 4
        if not _PHONE_CHARS.match(text.strip()) or sum(c.isdigit() for c in text) < fewest:
            return "the value is not a phone number, and this field takes one"
    if kind == "url" and not _URL.match(text.strip()):
        return "the value is not a web address, and this field takes one"
    if kind == "number" and not re.fullmatch(r"-?\d+(?:[.,]\d+)?", text.strip()):
        return "the value is not a number, and this field takes one"
    if field.pattern:
        try:
            if not re.fullmatch(field.pattern, text):
                return "the value does not match the field's own pattern"
        except re.error:
            pass  # a pattern in a dialect Python does not read: the page checks it itself
    return ""


def _typeable(field: FormField, answer: Answer) -> bool:
    return (
        field.widget == Widget.COMBOBOX
        and field.tag == "input"
        and not field.readonly
        and answer.kind == "text"
    )


def _as_text(field: FormField, answer: Answer, page: Page) -> str | Missing:
    if answer.kind == "bool":
        if answer.flag is None:
            return Missing("no yes / no answer")
        yes, no = YES_NO.get(page.lang, YES_NO["en"])
        return yes if answer.flag else no
    if answer.kind == "phone_code":
        return country_name(answer.code, page.lang) if answer.code else answer.text
    if answer.kind == "phone":
        parts = phone_parts(answer.text, answer.code or None)
        return phone_for_field(parts, field, _country_code_apart(field, parts, page))
    if answer.kind == "eeo":
        if answer.code == "decline":
            return Missing("decline: a text field has no decline option to pick")
        return answer.text
    if answer.kind == "date" and answer.when is not None:
        return answer.when.isoformat()
    if answer.kind == "number" and field.widget == Widget.NUMBER:
        return answer.text.replace(",", "")
    if answer.kind == "notice":
        return _notice_in_units(field, answer.text)
    return answer.text


_UNIT_WORDS = {
    1: r"\b(days?|tage[n]?|jours?|d[ií]as|dagen)\b",
    7: r"\b(weeks?|wochen?|semaines?|semanas?|weken)\b",
    30: r"\b(months?|monate[n]?|mois|meses|maanden)\b",
}


def _notice_in_units(field: FormField, notice: str) -> str | Missing:
    """The notice period in the unit the field counts in ("Notice period (in days)" → "28"), or
    written like the placeholder's example ("e.g. 30 days" → "28 days")."""
    from bridge.rules.notice import to_days

    text = f"{field.label} {field.placeholder}".casefold()
    units = [u for u, rx in _UNIT_WORDS.items() if re.search(rx, text)]
    if len(units) != 1:
        if field.widget == Widget.NUMBER:
            return Missing("a number box for the notice period without a unit")
        return notice
    span = to_days(notice)
    if span is None:
        return Missing(f'cannot read "{notice}" as a length of time')
    count = span[0] / units[0]
    if not count.is_integer() and units[0] == 30:
        count = round(count)  # "4 weeks" in months: 1
    # A number with its unit in the placeholder is an example of the writing, not a count box.
    example = re.search(r"\d+\s*(" + _UNIT_WORDS[units[0]] + ")", field.placeholder.casefold())
    if example and not re.search(_UNIT_WORDS[units[0]], field.label.casefold()):
        return f"{count:g} {example.group(1).strip()}"
    return f"{count:g}"


def _country_code_apart(field: FormField, parts: dict[str, str], page: Page) -> bool:
    """The form asks the dial code in its own field, and that field has (or will get) ours."""
    if field.frame not in page.phone_code_values or field.value.strip().startswith("+"):
        return False  # no code field, or an intl-tel-input style box that holds the code itself
    return not page.phone_code_inline.get(field.frame, False)


@cache
def _page_date_formats() -> dict[str, tuple[list[str], str]]:
    table = load_toml("options/wordings.toml").get("date_format", {})
    return {lang: (list(v[:-1]), str(v[-1])) for lang, v in table.items()}


def _date(field: FormField, answer: Answer, lang: str = "en") -> Shaped | Missing:
    if answer.when is None:
        return Missing("the answer is not a date")
    when = answer.when
    if field.widget == Widget.DATE:
        if field.type == "month":
            return Shaped(Action.SET_DATE, value=f"{when.year:04d}-{when.month:02d}")
        return Shaped(Action.SET_DATE, value=when.isoformat())
    if field.widget == Widget.DATE_PARTS:
        return Shaped(Action.SET_DATE, value=when.isoformat())
    part = date_part(field)
    if part == "month" or wants_month_only(field):
        return Shaped(Action.SET_TEXT, value=f"{when.month:02d}", note="month only")
    if part == "year":
        return Shaped(Action.SET_TEXT, value=f"{when.year:04d}", note="year only")
    if part == "day":
        return Shaped(Action.SET_TEXT, value=f"{when.day:02d}", note="day only")
    if wants_year_only(field):
        return Shaped(Action.SET_TEXT, value=f"{when.year:04d}", note="year only")
    if field.widget == Widget.DATE_TEXT and field.readonly:
        # No one types into a read-only box: its calendar takes the day, and the page writes it.
        return Shaped(Action.SET_DATE, value=when.isoformat(), note="date picker: driver formats")
    hint = date_hint(field)
    if hint:
        return Shaped(
            Action.SET_TEXT, value=format_date(when, *hint), note="date in the field's format"
        )
    if field.widget == Widget.DATE_TEXT:
        return Shaped(Action.SET_DATE, value=when.isoformat(), note="date picker: driver formats")
    usual = _page_date_formats().get(lang)
    if usual:
        return Shaped(
            Action.SET_TEXT,
            value=format_date(when, *usual),
            note="date as the page's language writes it",
        )
    return Shaped(Action.SET_TEXT, value=when.isoformat(), note="no format shown: ISO date")


def option_key(field: FormField, opt: FieldOption) -> str:
    """What tells the option apart for the driver: its value, or its text where the value does
    not (radios that all say value="on", or none)."""
    value = opt.value.strip()
    if not value or sum(1 for o in field.options if o.value.strip() == value) > 1:
        return option_text(opt)
    return opt.value


def _chosen(field: FormField, opt: FieldOption, confidence: float = 1.0, note: str = "") -> Shaped:
    return Shaped(
        Action.CHOOSE,
        value=option_text(opt),
        values=[option_key(field, opt)],
        confidence=confidence,
        note=note,
    )


def _choose(field: FormField, key: str, answer: Answer) -> Shaped | Missing:
    opts = field.options
    kind = answer.kind
    opt: FieldOption | None = None
    if kind == "multi":
        listed = {fold(w) for w in answer.alternatives}
        hits = [o for o in real_options(opts) if fold(option_text(o)) in listed]
        if not hits or (field.widget != Widget.CHECKBOX_GROUP and not field.multiple):
            return Missing(
                "no option is in the profile's list" if not hits else "not a multi-choice"
            )
        return Shaped(
            Action.CHOOSE,
            value=", ".join(option_text(o) for o in hits),
            values=[option_key(field, o) for o in hits],
            confidence=0.9,
        )
    if kind == "date" and answer.when is not None and date_part(field):
        return _choose_date_part(field, answer.when, date_part(field))
    if kind == "bool":
        if answer.flag is None:
            return Missing("no yes / no answer")
        opt = pick_bool(opts, answer.flag)
        if opt is None:
            return Missing("the options do not read as yes / no")
        return _chosen(field, opt)
    if kind == "eeo":
        topic = key.split(".", 1)[1] if key.startswith("eeo.") else ""
        if topic == "ethnicity":
            topic = "race" if eeo.options_topic(opts) == "race" else "hispanic"
        if answer.code == "decline":
            opt = next((o for o in real_options(opts) if is_decline(o)), None)
            return (
                _chosen(field, opt, note="decline option") if opt else Missing("no decline option")
            )
        opt = eeo.pick(topic, answer.code, opts) if answer.code else None
        opt = opt or pick_text(opts, [answer.text])
        if opt is None and answer.code:
            # "Are you a veteran?" Yes / No: the category says which.
            flag = answer.code.rsplit(".", 1)[-1]
            if flag in ("not", "no", "yes", "protected"):
                opt = pick_bool(opts, flag in ("yes", "protected"))
        return _chosen(field, opt) if opt else Missing(f'no option reads as "{answer.text}"')
    if kind == "country":
        hits = [
            o
            for o in real_options(opts)
            if country_of_option(o.value, option_text(o)) == answer.code
        ]
        if hits:
            return _chosen(field, hits[0])
        return Missing(f"no option for country {answer.code}")
    if kind == "phone_code":
        return _choose_phone_code(field, answer)
    if kind == "region":
        country = answer.code.split("-")[0] if answer.code else ""
        hits = [
            o
            for o in real_options(opts)
            if answer.code
            and (
                region_code(country, option_text(o)) == answer.code
                or region_code(country, o.value) == answer.code
            )
        ]
        opt = hits[0] if hits else pick_text(opts, [answer.text, *answer.alternatives])
        return _chosen(field, opt) if opt else Missing(f'no option for region "{answer.text}"')
    if kind == "number" and answer.number is not None:
        opt = pick_text(opts, [answer.text], cutoff=100.0) or pick_number(opts, answer.number)
        return _chosen(field, opt) if opt else Missing("no option holds the number")
    if kind == "degree":
        opt = pick_degree(opts, answer.text) or pick_text(opts, [answer.text])
        return _chosen(field, opt) if opt else Missing(f'no option for degree "{answer.text}"')
    if kind == "language":
        from bridge.rules.languages import pick_level

        opt = pick_level(opts, answer.text)
        return _chosen(field, opt) if opt else Missing(f'no option for fluency "{answer.text}"')
    if kind == "notice":
        opt = pick_notice(opts, answer.text)
        return _chosen(field, opt) if opt else Missing(f'no option for notice "{answer.text}"')
    if kind == "date" and answer.when is not None:
        opt = pick_text(opts, [str(answer.when.year), answer.when.isoformat()], cutoff=100.0)
        return _chosen(field, opt) if opt else Missing("no option for the date")
    if kind == "phone":
        return Missing("a phone number does not go into a list")
    wanted = [answer.text, *answer.alternatives]
    opt = pick_text(opts, wanted)
    if opt is None:
        return Missing(f'no option reads as "{answer.text}"')
    exact = fold(option_text(opt)) in {fold(w) for w in wanted}
    return _chosen(
        field, opt, confidence=1.0 if exact else 0.85, note="" if exact else "closest option"
    )


@cache
def _month_names() -> dict[str, int]:
    """Folded month names and abbreviations in the languages Relay reads → month number."""
    from babel import Locale

    from bridge.rules.countries import LANGS

    names: dict[str, int] = {}
    for lang in LANGS:
        months = Locale.parse(lang).months["format"]
        for width in ("wide", "abbreviated"):
            for n, name in months[width].items():
                names.setdefault(fold(name).rstrip("."), n)
    return names


def _part_text(when: date, part: str, lang: str) -> str:
    if part == "year":
        return f"{when.year:04d}"
    if part == "day":
        return str(when.day)
    from babel import Locale

    try:
        return str(Locale.parse(lang or "en").months["format"]["wide"][when.month])
    except (ValueError, KeyError):
        return str(Locale.parse("en").months["format"]["wide"][when.month])


def _choose_date_part(field: FormField, when: date, part: str) -> Shaped | Missing:
    """A month list (numbers or names in any language), a day or a year list, for one date's
    part."""
    for o in real_options(field.options):
        text, value = fold(option_text(o)).rstrip("."), o.value.strip()
        if part == "year":
            hit = text == f"{when.year:04d}" or value == f"{when.year:04d}"
        elif part == "day":
            hit = text.isdigit() and int(text) == when.day
        else:
            number = int(text) if text.isdigit() else _month_names().get(text)
            hit = number == when.month
        if hit:
            return _chosen(field, o, note=f"{part} of the date")
    return Missing(f"no option for the date's {part}")


def _choose_phone_code(field: FormField, answer: Answer) -> Shaped | Missing:
    code = answer.text  # "+1"
    region = answer.code
    opts = real_options(field.options)
    by_country = [o for o in opts if country_of_option("", option_text(o)) == region]
    if by_country:
        return _chosen(field, by_country[0])
    digits = code.lstrip("+")
    exact = [
        o for o in opts if re.search(rf"(^|\D)\+?{digits}(\D|$)", f"{option_text(o)} {o.value}")
    ]
    if len(exact) == 1:
        return _chosen(field, exact[0])
    if exact:
        return Missing(f"several options carry {code} and none names the country")
    return Missing(f"no option for {code}")
