"""Reading a JSON Resume the person brings: the current schema and the older v0.0 names, UTF-8
with or without a byte-order mark, checked against the official schema (vendored under
rules/schemas/, MIT). Each upgrade and each gap the job forms care about becomes a plain warning."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import jsonschema

from bridge.field_checks import check_date, check_email, check_phone
from bridge.protocol.errors import ErrorCode, RelayError

SCHEMA_FILE = "schemas/jsonresume-schema.json"

# v0.0 name → current name, per section (the 0.0.x schema used these before 1.0).
_RENAMES: dict[str, dict[str, str]] = {
    "basics": {"website": "url", "picture": "image"},
    "work": {"company": "name", "website": "url"},
    "volunteer": {"website": "url"},
    "education": {"gpa": "score"},
    "publications": {"website": "url"},
    "awards": {},
}
_DATE_KEYS = ("startDate", "endDate", "date", "releaseDate")
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_MONTHS = {
    name: number
    for number, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        start=1,
    )
    for name in names
}
_WORDED_DATE = re.compile(r"^([A-Za-z]+)\.?,?\s+(\d{4})$")
_SLASHED_DATE = re.compile(r"^(\d{1,2})[/.](\d{4})$")
# What job forms ask that a JSON Resume may lack, with the words for the warning.
_NEEDED = {
    ("basics", "name"): "your name",
    ("basics", "email"): "an email address",
    ("basics", "phone"): "a phone number",
    ("basics", "location"): "where you live (city and country)",
}


@cache
def _schema() -> dict[str, Any]:
    from bridge.rules.data import rules_dir

    loaded: dict[str, Any] = json.loads((rules_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))
    return loaded


def decode(data: str | bytes) -> str:
    """The text of a file, with a UTF-8 byte-order mark (Windows editors write one) dropped."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RelayError(
                ErrorCode.PROFILE_INVALID, "the file is not UTF-8 text; save it as UTF-8 and retry"
            ) from exc
    return data.removeprefix("\ufeff")


def parse(text: str) -> Any:
    try:
        return json.loads(decode(text))
    except json.JSONDecodeError as exc:
        raise RelayError(
            ErrorCode.PROFILE_INVALID,
            f"the file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
        ) from exc


def normalize_date(value: str) -> str | None:
    """"Fall 2018", "May 2018", "05/2018" → "2018-09", "2018-05"; None when not such a date."""
    text = value.strip()
    worded = _WORDED_DATE.match(text)
    if worded:
        word, year = worded.group(1).lower(), worded.group(2)
        month = _SEASONS.get(word) or _MONTHS.get(word)
        return f"{year}-{month:02d}" if month else None
    slashed = _SLASHED_DATE.match(text)
    if slashed and 1 <= int(slashed.group(1)) <= 12:
        return f"{slashed.group(2)}-{int(slashed.group(1)):02d}"
    return None


def upgrade(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A copy of `raw` with the v0.0 names and worded dates in today's form, and what changed."""
    out = json.loads(json.dumps(raw))
    notes: list[str] = []
    for section, renames in _RENAMES.items():
        value = out.get(section)
        entries = [value] if isinstance(value, dict) else value if isinstance(value, list) else []
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue
            where = section if isinstance(value, dict) else f"{section}[{index}]"
            for old, new in renames.items():
                if old in entry and new not in entry:
                    entry[new] = entry.pop(old)
                    notes.append(f"{where}.{old} is the older name of {new}; read as {new}.")
            for key in _DATE_KEYS:
                if isinstance(entry.get(key), str) and check_date(entry[key], partial=True):
                    fixed = normalize_date(entry[key])
                    if fixed:
                        notes.append(f"{where}.{key} “{entry[key]}” read as {fixed}.")
                        entry[key] = fixed
    return out, notes


def schema_problems(raw: Any) -> list[str]:
    validator = jsonschema.Draft7Validator(_schema())
    problems = []
    for error in sorted(validator.iter_errors(raw), key=lambda e: list(e.absolute_path)):
        path = ".".join(str(part) for part in error.absolute_path) or "the document"
        problems.append(f"{path}: {error.message}")
    return problems


def gaps(raw: dict[str, Any]) -> list[str]:
    """Plain warnings for what job forms need and the profile lacks or has in unusable form."""
    warnings = []
    basics: dict[str, Any] = raw["basics"] if isinstance(raw.get("basics"), dict) else {}
    for (_, key), words in _NEEDED.items():
        if not basics.get(key):
            warnings.append(f"No {words} (basics.{key}): forms that ask for it are left for you.")
    email = basics.get("email")
    if isinstance(email, str) and email and check_email(email):
        warnings.append(
            f"basics.email “{email[:80]}” is not a valid address; fix it before filling."
        )
    phone = basics.get("phone")
    location: dict[str, Any] = (
        basics["location"] if isinstance(basics.get("location"), dict) else {}
    )
    if isinstance(phone, str) and phone:
        reason = check_phone(phone, str(location.get("countryCode") or ""))
        if reason:
            warnings.append(f"basics.phone: {reason}")
    if "application" not in raw:
        warnings.append(
            "No job questions yet (work authorization, notice period, salary…): answer them in "
            "the next step, or forms that ask are left for you."
        )
    for section in ("interests", "references", "publications", "awards", "volunteer", "projects"):
        if raw.get(section):
            warnings.append(f"{section} is kept but not used to fill forms.")
    return warnings


def read(text: str) -> tuple[dict[str, Any], list[str]]:
    """Parse, upgrade and check a JSON Resume. Returns the document to store and the warnings;
    raises PROFILE_INVALID, naming each problem, when the schema refuses it."""
    raw = parse(text)
    if not isinstance(raw, dict):
        raise RelayError(ErrorCode.PROFILE_INVALID, "a JSON Resume must be a JSON object")
    upgraded, notes = upgrade(raw)
    problems = schema_problems(upgraded)
    if problems:
        shown = "; ".join(problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise RelayError(ErrorCode.PROFILE_INVALID, f"not a valid JSON Resume: {shown}{more}")
    return upgraded, notes + gaps(upgraded)
