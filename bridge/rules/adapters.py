"""ATS adapters as data (`rules/ats/*.toml`): stable ids, names and data attributes → keys.

An adapter is active when the page URL matches one of its `hosts`, or any field matches one of its
`signature` rules (fixture copies of a site run on loopback). Its field rules win over patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from bridge.forms import FormField
from bridge.rules.data import list_toml, load_toml
from bridge.rules.features import FieldText


@dataclass(frozen=True)
class Rule:
    attr: str  # "id", "name", "class", or a data attribute name ("data-automation-id")
    regex: re.Pattern[str]
    key: str
    widgets: frozenset[str]


@dataclass(frozen=True)
class Adapter:
    name: str
    hosts: tuple[re.Pattern[str], ...]
    signature: tuple[Rule, ...]
    rules: tuple[Rule, ...]


def _rule(raw: dict[str, object]) -> Rule:
    return Rule(
        attr=str(raw.get("attr", "id")),
        regex=re.compile(str(raw["regex"])),
        key=str(raw.get("key", "")),
        widgets=frozenset(str(w) for w in raw.get("widgets", ()) or ()),  # type: ignore[attr-defined]
    )


@cache
def adapters() -> tuple[Adapter, ...]:
    out = []
    for rel in list_toml("ats"):
        doc = load_toml(rel)
        out.append(
            Adapter(
                name=str(doc["name"]),
                hosts=tuple(re.compile(h) for h in doc.get("hosts", ())),
                signature=tuple(_rule(r) for r in doc.get("signature", ())),
                rules=tuple(_rule(r) for r in doc.get("field", ())),
            )
        )
    return tuple(out)


def active(url_list: list[str], texts: list[FieldText]) -> tuple[Adapter, ...]:
    found = []
    for adapter in adapters():
        if any(h.search(u) for h in adapter.hosts for u in url_list if u) or any(
            (value := ft.ids.get(r.attr)) and r.regex.search(value)
            for r in adapter.signature
            for ft in texts
        ):
            found.append(adapter)
    return tuple(found)


def match(
    field: FormField, ft: FieldText, active_adapters: tuple[Adapter, ...]
) -> tuple[str, str] | None:
    """(adapter name, key) of the first adapter rule that matches the field."""
    for adapter in active_adapters:
        for rule in adapter.rules:
            value = ft.ids.get(rule.attr)
            if (
                value
                and rule.regex.search(value)
                and (not rule.widgets or field.widget in rule.widgets)
            ):
                return adapter.name, rule.key
    return None
