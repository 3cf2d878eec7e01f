"""Fitting the model's resume facts to the rules' before they are shown together.

The model numbers repeated entries its own way (`work.1` may be the job the rules call `work.0`),
so each of its entries is matched to the rules' entry with the same employer, school, skill group
or network, and renumbered to it; an entry matching none goes after the rules' entries. Within an
entry, a list item the rules already have (the same highlight) is dropped and a new one goes after
theirs. Each added fact is then shown right after the rules' facts of its entry, so a model fact
for the rules' first job sits with that job.
"""

from __future__ import annotations

import re
from collections import defaultdict

from bridge.resume_extract import Fact

# Families of repeated entries and the fields that say which entry it is.
IDENTITY: dict[str, tuple[str, ...]] = {
    "work": ("name", "position"),
    "education": ("institution", "studyType", "area"),
    "skills": ("name",),
    "basics.profiles": ("url", "network"),
}
ENTRY = re.compile(r"(work|education|skills|basics\.profiles)\.(\d{1,2})(?:\.(.+))?")
LIST_ITEM = re.compile(r"(.+)\.(\d{1,2})")  # work.0.highlights.1 -> (work.0.highlights, 1)


def _norm(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text).casefold().strip()


def _split(path: str) -> tuple[str, int, str] | None:
    found = ENTRY.fullmatch(path)
    return (found.group(1), int(found.group(2)), found.group(3) or "") if found else None


def _holder(path: str) -> str | None:
    """The list an entry's item belongs to (`work.0.highlights` for `work.0.highlights.1`)."""
    parts = _split(path)
    item = LIST_ITEM.fullmatch(path)
    return item.group(1) if parts is not None and parts[2] and item else None


def _identities(facts: list[Fact]) -> dict[str, dict[int, dict[str, str]]]:
    out: dict[str, dict[int, dict[str, str]]] = defaultdict(dict)
    for fact in facts:
        parts = _split(fact.path)
        if parts is None:
            continue
        family, index, rest = parts
        fields = out[family].setdefault(index, {})
        if rest in IDENTITY[family]:
            fields[rest] = _norm(fact.value)
    return out


def _mapping(
    theirs: dict[int, dict[str, str]], ours: dict[int, dict[str, str]]
) -> dict[int, int]:
    """The model's entry number -> the rules' entry it is (or a new number after theirs)."""
    mapping: dict[int, int] = {}
    taken: set[int] = set()
    next_new = max(ours, default=-1) + 1
    for index, fields in sorted(theirs.items()):
        match = next((n for n, known in sorted(ours.items()) if n not in taken and any(
            fields.get(k) and fields.get(k) == known.get(k) for k in fields)), None)
        if match is None and not fields and index in ours and index not in taken:
            match = index  # nothing says which entry: its number is all there is
        if match is None:
            match, next_new = next_new, next_new + 1
        mapping[index] = match
        taken.add(match)
    return mapping


def align(proposed: list[Fact], known: list[Fact]) -> list[Fact]:
    """The model's facts renumbered onto the rules' entries, without what the rules have."""
    ours = _identities(known)
    theirs = _identities(proposed)
    maps = {family: _mapping(entries, ours.get(family, {})) for family, entries in theirs.items()}
    paths = {f.path for f in known}
    items: dict[str, set[str]] = defaultdict(set)  # list path -> the values it holds
    for fact in known:
        holder = _holder(fact.path)
        if holder:
            items[holder].add(_norm(fact.value))
    out: list[Fact] = []
    for fact in proposed:
        path = fact.path
        parts = _split(path)
        if parts is not None:
            family, index, rest = parts
            path = f"{family}.{maps[family][index]}" + (f".{rest}" if rest else "")
        holder = _holder(path)
        if holder:
            if _norm(fact.value) in items[holder]:
                continue  # the rules have this item already
            if path in paths:  # a new item where the rules have another: it goes after theirs
                used = [int(p.rsplit(".", 1)[1]) for p in paths if _holder(p) == holder]
                path = f"{holder}.{max(used, default=-1) + 1}"
            items[holder].add(_norm(fact.value))
        if path in paths:
            continue  # the rules' fact stands
        paths.add(path)
        out.append(fact.model_copy(update={"path": path}))
    return out


def placed(known: list[Fact], added: list[Fact]) -> list[Fact]:
    """All facts in showing order: each added fact right after the rules' facts of its entry."""
    def entry(path: str) -> str:
        parts = _split(path)
        return f"{parts[0]}.{parts[1]}" if parts else path.split(".", 1)[0]

    out = list(known)
    for fact in added:
        at = max((i for i, f in enumerate(out) if entry(f.path) == entry(fact.path)), default=None)
        if at is None:
            out.append(fact)
        else:
            out.insert(at + 1, fact)
    return out
