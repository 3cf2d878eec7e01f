"""Country and region names in the supported languages, from pycountry and babel (cached).

pycountry is imported where it is used: a form without a country or region question never loads
its tables (~20 ms of CPU on a cold bridge)."""

from __future__ import annotations

import gettext
import re
from functools import cache
from typing import Any

from babel import Locale

from bridge.rules.data import load_toml
from bridge.rules.memo import text_cache
from bridge.rules.text import fold

LANGS = ("en", "de", "fr", "es", "pt", "nl", "it")


@cache
def country_names() -> dict[str, str]:
    """Folded country name (any supported language, plus aliases) → ISO alpha-2."""
    import pycountry

    names: dict[str, str] = {}
    for lang in LANGS:
        territories = Locale.parse(lang).territories
        for country in pycountry.countries:
            name = territories.get(country.alpha_2)
            if name:
                names.setdefault(fold(name), country.alpha_2)
                if lang == "de":
                    for variant in _declined(fold(name)):
                        names.setdefault(variant, country.alpha_2)
    for country in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            value = getattr(country, attr, None)
            if value:
                names.setdefault(fold(value), country.alpha_2)
    for code, aliases in load_toml("options/countries.toml").get("aliases", {}).items():
        for alias in aliases:
            names[fold(alias)] = code
    names.pop("", None)
    return names


_ADJECTIVE = re.compile(r"^(\w{3,}?)(?:es|en|er|e)$")


def _declined(name: str) -> list[str]:
    """A German name's adjectives as a sentence declines them ("für das Vereinigte Königreich",
    "in den Vereinigten Staaten", "in der Tschechischen Republik"): each word before the last
    with the other endings."""
    words = name.split()
    if len(words) < 2:
        return []
    out = []
    for ending in ("e", "en", "es", "er"):
        declined = [
            (m.group(1) + ending) if (m := _ADJECTIVE.match(w)) else w for w in words[:-1]
        ]
        variant = " ".join([*declined, words[-1]])
        if variant != name:
            out.append(variant)
    return out


@cache
def country_codes() -> dict[str, str]:
    """Folded alpha-2 / alpha-3 / numeric code → alpha-2 (for option values, not free text)."""
    import pycountry

    codes: dict[str, str] = {}
    for country in pycountry.countries:
        codes[country.alpha_2.lower()] = country.alpha_2
        codes[country.alpha_3.lower()] = country.alpha_2
        codes[str(country.numeric).lstrip("0")] = country.alpha_2
    return codes


def country_name(code: str, lang: str = "en") -> str:
    import pycountry

    try:
        name = Locale.parse(lang).territories.get(code.upper())
    except (ValueError, TypeError):
        name = None
    if name:
        return str(name)
    country = pycountry.countries.get(alpha_2=code.upper())
    return str(country.name) if country else code


# Short forms places services write that ISO does not list.
_COMMON_SHORT = {"GB": ("UK",), "US": ("U.S.", "U.S.A.")}


def country_writings(code: str, lang: str = "en") -> tuple[str, ...]:
    """The ways a place's country is written: names in the page's language and English, the
    official and common names, the alpha-2 and alpha-3 codes ("United States", "USA", "US")."""
    import pycountry

    code = code.upper()
    country = pycountry.countries.get(alpha_2=code)
    found = [country_name(code, lang), country_name(code, "en"), code, *_COMMON_SHORT.get(code, ())]
    if country:
        found += [country.alpha_3, str(country.name)]
        found += [str(getattr(country, attr)) for attr in ("official_name", "common_name")
                  if getattr(country, attr, None)]
    return tuple(dict.fromkeys(found))


@text_cache()
def country_of_text(text: str) -> str | None:
    """The country a short text names ("Germany", "Deutschland", "USA"), or None."""
    folded = fold(text)
    hit = country_names().get(folded)
    if hit:
        return hit
    # "United States (+1)", "Canada +1", "Germany - DE": drop the dial code, try the head.
    bare = re.sub(r"\(?\+\s?\d[\d\s-]*\)?", " ", text)
    hit = country_names().get(fold(bare))
    if hit:
        return hit
    head = fold(re.split(r"[(\[\-\u2013|/]", bare, maxsplit=1)[0])
    return country_names().get(head) if head else None


@text_cache()
def country_of_option(value: str, text: str) -> str | None:
    return (
        country_of_text(text)
        or (country_codes().get(value.strip().lower()) if value.strip() else None)
        or country_of_text(value)
    )


# Country names that in running text are more often something else (a US state, a person).
_AMBIGUOUS_IN_TEXT = frozenset(
    {
        "georgia",
        "jersey",
        "jordan",
        "chad",
        "guernsey",
        "man",
        "niger",
        "dominica",
        "mali",
        "oman",
        "peru",
        "cuba",
        "togo",
        "iran",
    }
)


@cache
def _names_in_text() -> tuple[dict[str, str], int]:
    """The names `countries_in` looks for (folded → code), and the most words one has."""
    names = {
        n: code for n, code in country_names().items() if len(n) > 3 and n not in _AMBIGUOUS_IN_TEXT
    }
    return names, max(len(n.split()) for n in names)


def countries_in(text: str) -> list[str]:
    """Countries named in running text, in order of first mention, without repeats."""
    return list(_countries_in(text))


@text_cache()
def _countries_in(text: str) -> tuple[str, ...]:
    found: list[str] = []
    names, longest = _names_in_text()
    # Word n-grams looked up in a dict, longest first at each word: the same matches as one
    # regex alternation of every name, without scanning the text once per name.
    words = fold(text).split()
    i = 0
    while i < len(words):
        # "New Mexico" / "New Jersey" are states: a leading "new" blocks a match there.
        if i == 0 or words[i - 1] != "new":
            for n in range(min(longest, len(words) - i), 0, -1):
                code = names.get(" ".join(words[i : i + n]))
                if code:
                    if code not in found:
                        found.append(code)
                    i += n - 1
                    break
        i += 1
    # Capitalised abbreviations only: "us" in running text is a pronoun.
    for m in re.finditer(
        r"(?<![A-Za-z.])(U\.S\.A\.?|U\.S\.?|U\.K\.?|USA|US|UK|UAE)(?![A-Za-z])", text
    ):
        code = country_names()[fold(m.group(1))]
        if code not in found:
            found.append(code)
    return tuple(found)


def _subdivisions_get(**kwargs: str) -> Any:
    import pycountry

    return pycountry.subdivisions.get(**kwargs)  # type: ignore[no-untyped-call]


@cache
def _region_translations() -> tuple[gettext.NullTranslations, ...]:
    """pycountry's ISO 3166-2 name translations in the languages Relay reads."""
    import pycountry

    found = []
    for lang in LANGS[1:]:
        try:
            found.append(gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[lang]))
        except OSError:  # a language pycountry ships no region names for
            continue
    return tuple(found)


@cache
def subdivisions(country: str) -> dict[str, str]:
    """Folded region name (in each language Relay reads: "Kalifornien", "Californie") or short
    code → ISO 3166-2 code, for one country."""
    out: dict[str, str] = {}
    for sub in _subdivisions_get(country_code=country.upper()) or []:
        out[fold(sub.name)] = sub.code
        out[fold(sub.code.split("-", 1)[1])] = sub.code
        out[fold(sub.code)] = sub.code
        for names in _region_translations():
            out.setdefault(fold(names.gettext(sub.name)), sub.code)
    return out


def region_code(country: str, text: str) -> str | None:
    return subdivisions(country).get(fold(text)) if country else None


def region_name(code: str) -> str:
    sub = _subdivisions_get(code=code)
    return str(sub.name) if sub else code


@cache
def us_state_regex() -> re.Pattern[str]:
    """ ", CA" / ", California" after a city: tells a US job location."""
    subs = _subdivisions_get(country_code="US") or []
    codes = [s.code.split("-")[1] for s in subs]
    names = [s.name for s in subs]
    alternation = "|".join(sorted(map(re.escape, codes + names), key=len, reverse=True))
    return re.compile(r",\s*(" + alternation + r")\b")
