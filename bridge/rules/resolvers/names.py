"""Names: full, first, middle, last (one or two surnames), suffix, preferred; pronouns.

The profile's one name is parsed with `nameparser`, not split on spaces: "Martin Luther King Jr."
has the suffix "Jr.", "Ludwig Mies van der Rohe" the surname "van der Rohe", and a nickname in
quotes ('Robert "Bob" Smith') is a preferred name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bridge.rules import eeo
from bridge.rules.data import load_toml
from bridge.rules.model import Answer, Missing
from bridge.rules.options import real_options
from bridge.rules.resolvers.base import Ask, Result, text_or, unknown
from bridge.rules.text import fold

_LASTS = {"name.last", "name.last.first", "name.last.second", "name.full"}


@dataclass(frozen=True)
class Name:
    full: str  # as the person writes it, without a nickname in quotes
    given: tuple[str, ...]  # first name, then middle names
    last: str  # the surname with its particles ("van der Rohe")
    suffix: str  # "Jr.", "III"
    nickname: str


@lru_cache(maxsize=64)
def parse_name(raw: str) -> Name:
    from nameparser import HumanName  # its tables take a moment: loaded on first use

    parsed = HumanName(raw.strip())
    given = tuple(w for w in (parsed.first, *parsed.middle.split()) if w)
    full = raw.strip()
    if parsed.nickname:
        full = " ".join(
            x for x in (parsed.title, parsed.first, parsed.middle, parsed.last, parsed.suffix) if x
        )
    return Name(
        full=" ".join(full.split()),
        given=given,
        last=parsed.last,
        suffix=parsed.suffix,
        nickname=parsed.nickname,
    )


@lru_cache(maxsize=1)
def _pronoun_sets() -> dict[str, dict[str, tuple[str, ...]]]:
    doc = load_toml("options/wordings.toml")["pronouns"]
    return {lang: {k: tuple(v) for k, v in sets.items()} for lang, sets in doc.items()}


def _pronouns_in(pronouns: str, lang: str) -> tuple[str, ...]:
    """The profile's pronoun set as the page's language writes it ("she/her": "elle/elle")."""
    sets = _pronoun_sets()
    own = fold(pronouns)
    which = next(
        (name for name, said in sets["en"].items() if own in {fold(w) for w in said}), None
    )
    return sets.get(lang, {}).get(which, ()) if which else ()


def resolve(ask: Ask) -> Result:
    key, app = ask.key, ask.lp.profile.application
    if key == "pronouns":
        if not app.pronouns:
            return Missing("no pronouns")
        return Answer("text", app.pronouns, alternatives=_pronouns_in(app.pronouns, ask.page.lang))
    if key == "name.prefix":
        return _salutation(ask)
    raw = ask.lp.profile.basics.name or ""
    name = parse_name(raw) if raw.strip() else None
    if key == "name.preferred":
        if app.preferredName:
            return Answer("text", app.preferredName)
        return text_or(name.nickname if name else "", "no preferred name")
    if name is None or not (name.given or name.last):
        return Missing("no name in the profile")
    frame_keys = ask.frame_keys
    # Two surnames are told apart only by position, when the form asks for both and the name
    # has four or more parts: "María José García López".
    two_surnames = "name.last.second" in frame_keys and len(name.given) >= 3 and bool(name.last)
    first = name.given[0] if name.given else name.last
    if key == "name.full":
        if "name.last" in frame_keys and not frame_keys & {"name.first", "name.preferred"}:
            # "Name" next to "Surname": the name asked is the given name.
            return Answer("text", first, note="a Name field beside a surname field")
        return Answer("text", name.full)
    if key == "name.first":
        if ask.ft.question in ("nombre", "nome", "nombres") and not frame_keys & _LASTS:
            return Answer("text", name.full, note="a lone Nombre / Nome field: full name")
        if two_surnames:
            return Answer(
                "text",
                " ".join(name.given[:-1]),
                review=True,
                note="given names before two surnames, split by position",
            )
        return Answer("text", first)
    if key == "name.middle":
        middle = " ".join(name.given[1:])
        if middle and _asks_initial(ask):
            return Answer("text", "".join(part[0] for part in name.given[1:]).upper())
        return text_or(middle, "no middle name")
    if key == "name.suffix":
        return text_or(name.suffix, "the profile's name has no suffix")
    last = name.last
    if name.suffix and "name.suffix" not in frame_keys:
        last = f"{last} {name.suffix}"  # no suffix field: the surname carries it, as written
    if key == "name.last":
        return text_or(last if name.given else "", "no last name")
    if key == "name.last.first":
        if two_surnames:
            return Answer(
                "text", name.given[-1], review=True, note="first of two surnames, guessed"
            )
        return text_or(last if name.given else "", "no last name")
    if key == "name.last.second":
        if two_surnames:
            return Answer("text", last, review=True, note="second of two surnames, guessed")
        return Missing("the profile's name has one surname")
    return unknown(ask)


def _salutation(ask: Ask) -> Result:
    """A salutation list read by the gender the profile gives (Frau / Madame / Ms for a woman):
    only among the list's own plain forms, flagged for review; a text box, a gender the profile
    declines or does not give, or a list with no plain form is left to the person."""
    gender = eeo.category("gender", ask.lp.profile.application.eeo.get("gender") or "")
    plain = {"gender.female": "salutation.female", "gender.male": "salutation.male"}
    wanted = plain.get(gender or "")
    if not wanted:
        return Missing("the profile has no salutation, and no gender it could be read from")
    options = real_options(ask.field.options)
    if not options:
        return Missing("a salutation typed in words is left to you")
    for option in options:
        if eeo.category("salutation", option.text) == wanted:
            return Answer("text", option.text, review=True, note="salutation read from your gender")
    return Missing("the profile has no salutation that this list offers")


# "Middle initial", "MI", and its words in the other languages Relay reads (folded).
_INITIAL_WORDS = frozenset(
    {"initial", "initials", "mi", "inicial", "initiale", "initiaal", "voorletter"}
)


def _asks_initial(ask: Ask) -> bool:
    """A middle-name box that asks the initial: by its words, or by room for one letter."""
    words = set(" ".join(ask.ft.texts["label"] + ask.ft.texts.get("name", ())).split())
    room = ask.field.max_length
    return bool(words & _INITIAL_WORDS) or (room is not None and room <= 2)
