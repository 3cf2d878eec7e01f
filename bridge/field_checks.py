"""Checks of single values as the person types them (email, phone for its country, dates), each
with the reason in plain words. The console asks through `profile.check`; imports reuse them."""

from __future__ import annotations

import re
from datetime import date

# Deliberately simple: one @, a dot in the domain, no spaces. Stricter checks refuse real addresses.
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]{2,}$")
_PARTIAL_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def check_email(value: str) -> str:
    """"" when the address looks deliverable, else why not."""
    if not _EMAIL.match(value.strip()):
        return "This does not look like an email address (name@example.com)."
    return ""


def check_phone(value: str, country: str = "") -> str:
    import phonenumbers  # loaded when a phone is checked

    region = country.strip().upper() or None
    try:
        number = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        if region is None:
            return "Add the country code (for example +44 20 7946 0958) or choose the country."
        return "This is not a phone number."
    if not phonenumbers.is_valid_number(number):
        where = f" in {region}" if region else ""
        return f"This is not a valid phone number{where}; check the digits and the country code."
    return ""


def check_date(value: str, *, partial: bool = False) -> str:
    """An ISO date (YYYY-MM-DD), or with `partial` also YYYY-MM and YYYY (JSON Resume's dates)."""
    match = _PARTIAL_DATE.match(value.strip())
    if match is None or (not partial and match.group(3) is None):
        shape = "YYYY-MM-DD, YYYY-MM or YYYY" if partial else "YYYY-MM-DD"
        return f"Write the date as {shape}."
    year, month, day = (int(part) if part else 1 for part in match.groups())
    try:
        date(year, month, day)
    except ValueError:
        return "There is no such date."
    return ""


def check(kind: str, value: str, country: str = "") -> str:
    if kind == "email":
        return check_email(value)
    if kind == "phone":
        return check_phone(value, country)
    if kind == "date":
        return check_date(value)
    return check_date(value, partial=True)
