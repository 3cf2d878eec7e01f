"""ATS adapters as data (`rules/ats/*.toml`): stable ids, names and data attributes → keys.

An adapter is active when the page URL matches one of its `hosts`, or any field matches one of its
`signature` rules (fixture copies of a site run on loopback). Its field rules win over patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property

from bridge.forms import FormField
from bridge.rules.data import list_toml, load_toml
from bridge.rules.features import FieldText


@dataclass(frozen=True)
class Rule:
    attr: str  # "id", "name", "class", or a data attribute name ("data-automation-id")
    pattern: str
    key: str
    widgets: frozenset[str]

    # Compiled on first use: a field rule is matched only on a page its adapter recognises,
    # and a signature only line by line, so most of the rules are never compiled at all.
    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern)

    @cached_property
    def lines(self) -> re.Pattern[str]:
        """The pattern line by line: a signature is searched once over every field's value."""
        return re.compile(self.pattern, re.MULTILINE)


@dataclass(frozen=True)
class Adapter:
    name: str
    hosts: tuple[re.Pattern[str], ...]
    signature: tuple[Rule, ...]
    rules: tuple[Rule, ...]


def _rule(raw: dict[str, object]) -> Rule:
    return Rule(
        attr=str(raw.get("attr", "id")),
        pattern=str(raw["regex"]),
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


def active(url_list: list[str], ids: list[dict[str, str]]) -> tuple[Adapter, ...]:
    """The adapters whose hosts the URLs match, or whose signature some field's ids match (each
    field's `FieldText.ids`). Each signature rule is searched once over all the fields' values of
    its attribute, one per line, instead of once per field."""
    joined: dict[str, str] = {}

    def values(attr: str) -> str:
        if attr not in joined:
            joined[attr] = "\n".join(dict.fromkeys(v for i in ids if (v := i.get(attr))))
        return joined[attr]

    found = []
    for adapter in adapters():
        if any(h.search(u) for h in adapter.hosts for u in url_list if u) or any(
            (text := values(r.attr)) and r.lines.search(text) for r in adapter.signature
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
