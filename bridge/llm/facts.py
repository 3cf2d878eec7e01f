"""The profile as citable facts: `path -> value` lines a model may quote and the guard checks.

Private paths are left out (see privacy.py). A few derived facts (time in each job, total years)
are added so an honest "4 years at Difference Labs" has something to rest on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from bridge.llm.guard import Support
from bridge.llm.privacy import path_is_private
from bridge.profile import LoadedProfile


@dataclass(frozen=True)
class Fact:
    path: str
    value: str
    group: str  # the record it belongs to ("work[0]", "basics"), which gives numbers a context


def _render(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _walk(prefix: str, group: str, value: Any, out: list[Fact]) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            if key.startswith("$"):
                continue
            path = f"{prefix}.{key}" if prefix else key
            # Outside list records, the first two path levels make the group.
            sub_group = group if "[" in group else ".".join(path.split(".")[:2])
            _walk(path, sub_group, sub, out)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            path = f"{prefix}[{i}]"
            # A list of records (work, education) gives each record its own group.
            _walk(path, path if isinstance(sub, dict) and "[" not in group else group, sub, out)
    elif value is not None and value != "":
        if not path_is_private(prefix):
            out.append(Fact(prefix, _render(value), group))


def _parse_date(text: str | None) -> date | None:
    if not text:
        return None
    parts = text.split("-")
    try:
        year = int(parts[0])
        month = int(parts[1]) if len(parts) > 1 else 1
        return date(year, month, 1)
    except (ValueError, IndexError):
        return None


def _years_between(start: date, end: date) -> float:
    return (end.year - start.year) + (end.month - start.month) / 12


def _derived(loaded: LoadedProfile, today: date) -> list[Fact]:
    out: list[Fact] = []
    starts: list[date] = []
    for i, job in enumerate(loaded.profile.work):
        start = _parse_date(job.startDate)
        if start is None:
            continue
        starts.append(start)
        end = _parse_date(job.endDate) or today
        years = _years_between(start, end)
        whole = sorted({int(years), round(years)})
        span = " or ".join(f"{y} years" for y in whole if y > 0)
        if span:
            out.append(Fact(f"derived.work[{i}].years", f"{span} at {job.name}", f"work[{i}]"))
    if starts:
        total = _years_between(min(starts), today)
        out.append(Fact("derived.totalYears", f"{int(total)} years of experience", "derived"))
    return out


def profile_facts(loaded: LoadedProfile, today: date | None = None) -> list[Fact]:
    data = loaded.profile.model_dump(mode="json", exclude_none=True)
    out: list[Fact] = []
    _walk("", "", data, out)
    out.extend(_derived(loaded, today or date.today()))
    return out


def facts_by_path(facts: list[Fact]) -> dict[str, Fact]:
    return {f.path: f for f in facts}


def _path_words(path: str) -> str:
    leaf = re.sub(r"\[\d+\]", "", path).split(".")
    words = " ".join(leaf[-2:]) if len(leaf) > 1 else leaf[0]
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", words).casefold()


def owners_of(facts: list[Fact]) -> dict[str, str]:
    """Record group -> its employer or school name ("work[0]" -> "Analytical Engines Inc")."""
    out: dict[str, str] = {}
    for fact in facts:
        if re.fullmatch(r"(work|volunteer)\[\d+\]\.name|education\[\d+\]\.institution", fact.path):
            out[fact.group] = fact.value
    return out


def fact_segments(facts: list[Fact]) -> list[tuple[str, str, str]]:
    """Each fact as guard support: "key words: value", with its record's short values as context
    (so "$185,000 per year" finds "amount: 185000" next to "currency: USD", "period: year")."""
    siblings: dict[str, list[Fact]] = {}
    for fact in facts:
        siblings.setdefault(fact.group, []).append(fact)
    owners = owners_of(facts)
    out: list[tuple[str, str, str]] = []
    for fact in facts:
        owner = owners.get(fact.group, "")
        if len(fact.value) > 60:
            # A sentence carries its own context; its record's words would lend "team" or
            # "engineer" to every number in it.
            out.append((f"{_path_words(fact.path)}: {fact.value}", "", owner))
            continue
        about = " ".join(
            f"{_path_words(s.path)} {s.value}"
            for s in siblings[fact.group]
            if s is not fact and len(s.value) <= 60
        )
        out.append((f"{_path_words(fact.path)}: {fact.value}", about, owner))
    return out


def support_for(
    facts: list[Fact], resume: str = "", names_only: list[str] | None = None
) -> Support:
    """Guard support from facts (and the resume text, when it is part of what is cited)."""
    segments: list[str | tuple[str, str] | tuple[str, str, str]] = [*fact_segments(facts)]
    if resume:
        segments.append(resume)
    return Support.build(segments, names_only or [], owners_of(facts).values())
