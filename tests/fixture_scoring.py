"""Score a filled fixture form against its expected.json (format: tests/fixtures/ats/README.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ATS_DIR = Path(__file__).resolve().parent / "fixtures" / "ats"

# Read every frame's `window.__fixture.read()` and merge; frames without fields have none.
READ_JS = "() => (window.__fixture && window.__fixture.read) ? window.__fixture.read() : null"


@dataclass
class FieldScore:
    key: str
    category: str
    expect: Any
    got: Any
    verdict: str  # correct / wrong / left / empty_ok / violation


@dataclass
class FormScore:
    name: str
    fields: list[FieldScore] = field(default_factory=list)

    def tally(self) -> dict[str, int]:
        out = {"fields": len(self.fields), "answerable": 0}
        for f in self.fields:
            out[f.verdict] = out.get(f.verdict, 0) + 1
            if answerable(f):
                out["answerable"] += 1
        return out


def answerable(f: FieldScore) -> bool:
    """A field the profile answers: it has a non-empty expected answer and may be filled."""
    return f.category != "never_fill" and not is_empty(f.expect)


def fixture_specs() -> list[tuple[Path, dict[str, Any]]]:
    specs = []
    for path in sorted(ATS_DIR.glob("*/expected.json")):
        specs.append((path.parent, json.loads(path.read_text(encoding="utf-8"))))
    return specs


def is_empty(value: Any) -> bool:
    return value in (None, "", False, []) or (isinstance(value, str) and not value.strip())


def _norm_date(text: str) -> date | None:
    text = text.strip()
    for pattern, order in (
        (r"^(\d{4})-(\d{1,2})-(\d{1,2})$", "ymd"),
        (r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$", "mdy"),
    ):
        m = re.match(pattern, text)
        if m:
            a, b, c = (int(x) for x in m.groups())
            try:
                return date(a, b, c) if order == "ymd" else date(c, a, b)
            except ValueError:
                return None
    return None


def matches(expect: str, got: Any, mode: str) -> bool:
    if isinstance(got, list):
        got_text = ", ".join(str(g) for g in got)
    else:
        got_text = str(got)
    exp, val = str(expect).strip(), got_text.strip()
    if mode == "digits":
        return re.sub(r"\D", "", exp) == re.sub(r"\D", "", val)
    if mode == "casefold":
        return exp.casefold() == val.casefold()
    if mode == "contains":
        return exp.casefold() in val.casefold()
    if mode == "date":
        return _norm_date(exp) is not None and _norm_date(exp) == _norm_date(val)
    if isinstance(got, bool):
        return str(got).lower() == exp.lower()
    return exp == val


def score_field(spec: dict[str, Any], got: Any) -> FieldScore:
    expect = spec.get("expect", "")
    mode = spec.get("match", "exact")
    never = bool(spec.get("never_fill"))
    key, category = spec["key"], spec.get("category", "other")
    if isinstance(expect, list) and expect and all(isinstance(e, list) for e in expect):
        options = expect  # a list of acceptable lists (multi-select)
    elif isinstance(expect, list) and any(not isinstance(e, str) for e in expect):
        options = [expect]
    else:
        options = expect if isinstance(expect, list) else [expect]
    if never:
        verdict = "correct" if is_empty(got) else "violation"
        return FieldScore(key, category, expect, got, verdict)
    if all(is_empty(o) for o in options):
        return FieldScore(key, category, expect, got, "empty_ok" if is_empty(got) else "wrong")
    if is_empty(got):
        # Where leaving the field empty is one of the accepted answers, empty is not a miss.
        verdict = "empty_ok" if any(is_empty(o) for o in options) else "left"
        return FieldScore(key, category, expect, got, verdict)
    for option in options:
        if isinstance(option, list):
            if isinstance(got, list) and sorted(map(str, got)) == sorted(map(str, option)):
                return FieldScore(key, category, expect, got, "correct")
        elif matches(option, got, mode):
            return FieldScore(key, category, expect, got, "correct")
    return FieldScore(key, category, expect, got, "wrong")


def score_form(name: str, spec: dict[str, Any], values: dict[str, Any]) -> FormScore:
    form = FormScore(name)
    for field_spec in spec["fields"]:
        form.fields.append(score_field(field_spec, values.get(field_spec["key"])))
    return form


def read_all_frames(page: Any) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for frame in page.frames:
        try:
            part = frame.evaluate(READ_JS)
        except Exception:  # a frame that went away or never loaded holds no fields
            continue
        if isinstance(part, dict):
            merged.update(part)
    return merged


def submits_in_all_frames(page: Any) -> int:
    total = 0
    for frame in page.frames:
        try:
            count = frame.evaluate("() => window.__fixtureSubmits || 0")
        except Exception:
            continue
        total += int(count or 0)
    return total
