"""What a model request may contain.

Never sent, whatever a page asks: self-identification (EEO) answers, credentials, ID numbers, date
of birth. Contact details are left out too: the rules engine fills them and no question needs them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bridge.forms import FormField, Widget

# Profile paths (dotted, list indexes dropped) that never leave the machine.
_PRIVATE_PATH = re.compile(
    r"^application\.eeo\b|^application\.documents\b|^basics\.(email|phone|image)\b"
    r"|^basics\.location\.(address|postalCode)\b"
    r"|(birth|dob|ssn|social.?security|passport|national.?id|licen[cs]e.?(number|no)|tax.?id"
    r"|password|passcode|secret|token|api.?key|credential|pin\b)",
    re.IGNORECASE,
)

_EEO = (
    r"gender|sex\b|sexual orientation|transgender|race\b|racial|ethnicity|ethnic|hispanic"
    r"|latin[oax]|veteran|disabilit|self.?identif|voluntary.{0,20}(disclosure|identification)|eeo\b|eeoc"
    r"|equal employment|demographic"
)
_CREDENTIAL = r"password|passcode|\bpin\b|security question|secret|api key|token|username|login"
_ID_NUMBER = (
    r"social security|\bssn\b|\bsin\b|national (id|insurance)|passport|driver'?s? licen[cs]e"
    r"|tax (id|number)|\btin\b|\bnin\b|id number|identification number|aadhaar|\bcpf\b|\bnif\b"
)
_DOB = r"date of birth|birth ?date|birthday|\bdob\b|born on"
_PRIVATE_FIELD = [
    ("self-identification", re.compile(_EEO, re.IGNORECASE)),
    ("credential", re.compile(_CREDENTIAL, re.IGNORECASE)),
    ("id-number", re.compile(_ID_NUMBER, re.IGNORECASE)),
    ("date-of-birth", re.compile(_DOB, re.IGNORECASE)),
]

_NEVER_WIDGETS = {Widget.PASSWORD, Widget.HIDDEN, Widget.FILE}


def path_is_private(path: str) -> bool:
    return bool(_PRIVATE_PATH.search(re.sub(r"\[\d+\]", "", path)))


def field_privacy(field: FormField) -> str | None:
    """Why this field may not go to a model, or None when it may."""
    if field.widget in _NEVER_WIDGETS:
        return f"private: {field.widget.value} field"
    text = " ".join(
        [
            field.label,
            field.name,
            field.html_id,
            field.aria_label,
            field.placeholder,
            field.section,
            field.autocomplete,
        ]
    )
    for kind, pattern in _PRIVATE_FIELD:
        if pattern.search(text):
            return f"private: {kind} question"
    return None


_SSN_LIKE = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_DOB_LINE = re.compile(r"^.*(date of birth|\bdob\b|born on).*$", re.IGNORECASE | re.MULTILINE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_PHONE = re.compile(r"\+?\d[\d ().-]{7,}\d")


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove what must never be sent from free text (resume, page text), whatever its source."""
    text = _DOB_LINE.sub("", text)
    text = _SSN_LIKE.sub("[id removed]", text)
    for secret in secrets:
        if secret and len(secret) >= 3:
            text = re.sub(re.escape(secret), "[removed]", text, flags=re.IGNORECASE)
    return text


def scrub_contact(text: str) -> str:
    """Resume text carries contact lines the model never needs."""
    return _PHONE.sub("[phone]", _EMAIL.sub("[email]", text))
