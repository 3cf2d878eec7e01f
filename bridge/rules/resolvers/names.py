"""Names: full, first, middle, last (one or two surnames), preferred; pronouns."""

from __future__ import annotations

from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, text_or, unknown

_LASTS = {"name.last", "name.last.first", "name.last.second", "name.full"}


def name_parts(full: str) -> list[str]:
    return full.split()


def resolve(ask: Ask) -> Result:
    key, app = ask.key, ask.lp.profile.application
    if key == "pronouns":
        return text_or(app.pronouns, "no pronouns")
    if key == "name.preferred":
        return text_or(app.preferredName, "no preferred name")
    parts = name_parts(ask.lp.profile.basics.name or "")
    if not parts:
        return Missing("no name in the profile")
    frame_keys = ask.frame_keys
    if key == "name.full":
        if "name.last" in frame_keys and not frame_keys & {"name.first", "name.preferred"}:
            # "Name" next to "Surname": the name asked is the given name.
            return Answer("text", parts[0], note="a Name field beside a surname field")
        return Answer("text", " ".join(parts))
    if key == "name.first":
        if ask.ft.question in ("nombre", "nome", "nombres") and not frame_keys & _LASTS:
            return Answer("text", " ".join(parts), note="a lone Nombre / Nome field: full name")
        if "name.last.second" in frame_keys and len(parts) >= 4:
            return Answer(
                "text",
                " ".join(parts[:-2]),
                review=True,
                note="given names before two surnames, split by position",
            )
        return Answer("text", parts[0])
    if key == "name.middle":
        return (
            Answer("text", " ".join(parts[1:-1])) if len(parts) > 2 else Missing("no middle name")
        )
    if key == "name.last":
        return Answer("text", parts[-1]) if len(parts) > 1 else Missing("no last name")
    if key == "name.last.first":
        if len(parts) >= 4:
            return Answer("text", parts[-2], review=True, note="first of two surnames, guessed")
        return Answer("text", parts[-1]) if len(parts) > 1 else Missing("no last name")
    if key == "name.last.second":
        if len(parts) >= 4:
            return Answer("text", parts[-1], review=True, note="second of two surnames, guessed")
        return Missing("the profile's name has one surname")
    return unknown(ask)
