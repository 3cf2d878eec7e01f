"""Shaping values to a field: phone numbers per country and format, dates per the field's format.

phonenumbers is imported where a number is read: a form without a phone field never loads its
metadata."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING

from bridge.forms import FormField, Widget

if TYPE_CHECKING:
    import phonenumbers


def parse_phone(raw: str, country: str | None) -> phonenumbers.PhoneNumber | None:
    import phonenumbers

    try:
        number = phonenumbers.parse(raw, (country or "US").upper())
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_possible_number(number) else None


@lru_cache(maxsize=64)
def valid_phone(raw: str, country: str | None) -> bool:
    """Whether `phonenumbers` calls the number valid (not merely of a possible length)."""
    import phonenumbers

    number = parse_phone(raw, country)
    return number is not None and phonenumbers.is_valid_number(number)


@lru_cache(maxsize=64)
def phone_parts(raw: str, country: str | None) -> dict[str, str]:
    """The person's phone as: international, national, digits-only national, country code, ext."""
    import phonenumbers

    number = parse_phone(raw, country)
    if number is None:
        return {
            "international": raw,
            "national": raw,
            "national_digits": re.sub(r"\D", "", raw),
            "country_code": "",
            "extension": "",
            "region": "",
        }
    intl = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    return {
        "international": intl.split(" ext")[0],
        "national": national.split(" ext")[0],
        "national_digits": str(number.national_number),
        "e164": phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164),
        "country_code": f"+{number.country_code}",
        "extension": number.extension or "",
        "region": phonenumbers.region_code_for_number(number) or "",
    }


def phone_for_field(parts: dict[str, str], field: FormField, split_country: bool) -> str:
    """One phone field: national when the form asks the dial code apart (or its placeholder is a
    national number of the person's country), international otherwise."""
    import phonenumbers

    hint = field.placeholder.strip()
    national = split_country
    if not national and hint and not hint.startswith("+") and parts["region"]:
        example = parse_phone(hint, parts["region"])
        national = example is not None and phonenumbers.is_valid_number(example)
    text = parts["national"] if national else parts["international"]
    if field.max_length and len(text) > field.max_length:
        for candidate in (
            parts["international"],
            parts["national"],
            parts.get("e164", ""),
            parts["national_digits"],
        ):
            if candidate and len(candidate) <= field.max_length:
                return candidate
    if field.widget == Widget.NUMBER:
        return re.sub(r"\D", "", text)
    return text


_FORMAT_HINT = re.compile(
    r"(?i)\b({p})([./\- ])({p})(?:\2({p}))?\b".format(p="dd|mm|yyyy|yy|jjjj|aaaa|tt|jj|aa")
)
_TOKEN = {
    "dd": "d",
    "tt": "d",
    "jj": "d",
    "mm": "m",
    "yyyy": "Y",
    "jjjj": "Y",
    "aaaa": "Y",
    "yy": "y",
    "aa": "y",
}


def date_hint(field: FormField) -> tuple[list[str], str] | None:
    """The date format a text field shows ("MM/DD/YYYY" → (["m","d","Y"], "/")), if any."""
    for text in (
        field.placeholder,
        field.pattern,
        field.label,
        field.aria_description,
        field.nearby,
    ):
        m = _FORMAT_HINT.search(text or "")
        if m:
            parts = [p for p in (m.group(1), m.group(3), m.group(4)) if p]
            order = [_TOKEN[p.lower()] for p in parts]
            # "jj" is a French day, "aa" a Spanish/Portuguese year: resolve the two-letter clash.
            if order.count("d") > 1 or order.count("y") > 1:
                continue
            return order, m.group(2)
    return None


def wants_month_only(field: FormField) -> bool:
    hint = field.placeholder.strip().casefold()
    if hint in ("mm", "m"):
        return True
    text = f"{field.label} {field.aria_label}".casefold()
    return field.max_length == 2 and bool(
        re.search(r"\bmonth\b|\bmonat\b|\bmois\b|\bmes\b|\bmaand\b", text)
    )


def wants_year_only(field: FormField) -> bool:
    text = f"{field.label} {field.placeholder}".casefold()
    if field.max_length == 4 or (
        re.search(r"\byyyy\b", field.placeholder.casefold())
        and not re.search(r"\b(mm|dd)\b", field.placeholder.casefold())
    ):
        return True
    return bool(
        re.search(r"\byear\b|\bjahr\b|\bann[ée]e\b|\baño\b|\bano\b|\bjaar\b", text)
    ) and not re.search(r"\bmonth\b|\bdate\b|\bday\b|\bdatum\b|\bmonat\b", text)


def format_date(value: date, order: list[str], sep: str) -> str:
    pieces = {
        "d": f"{value.day:02d}",
        "m": f"{value.month:02d}",
        "Y": f"{value.year:04d}",
        "y": f"{value.year % 100:02d}",
    }
    return sep.join(pieces[p] for p in order)


def parse_iso(raw: str | None) -> date | None:
    """JSON Resume dates: YYYY-MM-DD, YYYY-MM or YYYY."""
    if not raw:
        return None
    m = re.match(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", raw.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1))
    except ValueError:
        return None


_MONTH_WORDS = frozenset({"month", "monat", "mois", "mes", "maand", "mês"})
_YEAR_WORDS = frozenset({"year", "jahr", "année", "annee", "año", "ano", "jaar"})
_DAY_WORDS = frozenset({"day", "tag", "jour", "día", "dia", "dag"})
_DATE_WORDS = frozenset({"date", "datum", "fecha", "data"})


def date_part(field: FormField) -> str:
    """ "month" / "year" / "day" when the label names one part of a date last ("Start date month",
    "Fecha de inicio (año)", "Start Date Day"); "" otherwise. A day only after a word for date, or
    in a box of two characters: "Start day" alone may ask for the whole date."""
    words = re.findall(r"[^\W\d_]+", f"{field.label or field.aria_label}".casefold())
    last = words[-1] if words else ""
    if last in _MONTH_WORDS:
        return "month"
    if last in _YEAR_WORDS:
        return "year"
    two_digits = field.max_length is not None and field.max_length <= 2
    if last in _DAY_WORDS and (two_digits or _DATE_WORDS & set(words[:-1])):
        return "day"
    return ""
