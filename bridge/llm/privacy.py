"""What a model request may contain.

Never sent, whatever a page asks: self-identification (EEO) answers, credentials, ID numbers, date
of birth. Contact details are left out too: the rules engine fills them and no question needs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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
    # Canada's employment equity, and its French wording.
    r"|indigenous|aboriginal|first nations|visible minorit|raciali[sz]ed|identify as a woman"
    r"|autochtone|minorit[ée] visible|racis[ée]|employment equity"
    r"|[ée]quit[ée] en mati[èe]re d.emploi"
)
_SELF_ID_OPTION = re.compile(
    r"\b(male|female|non.?binary|transgender|gender|hispanic|latin[oax]|african american|asian"
    r"|pacific islander|alaska native|american indian|two or more races|white|caucasian|veteran"
    r"|disabilit\w*|heterosexual|straight|gay|lesbian|bisexual|queer)\b",
    re.IGNORECASE,
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
    # A question worded as nothing in particular ("How do you identify?") shows in its options.
    answers = sum(1 for o in field.options if _SELF_ID_OPTION.search(f"{o.text} {o.value}"))
    if answers >= 2 or (answers and len(field.options) <= 2):
        return "private: self-identification question"
    return None


_SSN_LIKE = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_DOB_TEXT = re.compile(_DOB, re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
# Answers too common to tell anything (a line with "No" in it is not about the person).
_GENERIC = frozenset({"yes", "no", "true", "false", "none", "other", "n/a", "decline"})


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """Drop every line of free text (resume, job posting) that holds what must never be sent.

    Whole lines go, never a value in place: a mark where a value stood would tell which it was."""
    patterns = [_DOB_TEXT, _SSN_LIKE]
    for secret in secrets:
        words = secret.strip()
        if len(words) >= 3 and words.casefold() not in _GENERIC:
            patterns.append(re.compile(rf"(?<!\w){re.escape(words)}(?!\w)", re.IGNORECASE))
    return _drop_lines(text, lambda line: any(p.search(line) for p in patterns))


def scrub_contact(text: str, region: str | None = None) -> str:
    """Drop the resume's contact lines (email, phone): the model never needs them."""
    import phonenumbers  # loaded when a resume is read, not with the model layer

    def contact(line: str) -> bool:
        if _EMAIL.search(line):
            return True
        return any(True for _ in phonenumbers.PhoneNumberMatcher(line, region or "US"))

    return _drop_lines(text, contact)


def _drop_lines(text: str, private: Callable[[str], bool]) -> str:
    return "\n".join(line for line in text.splitlines() if not private(line))
