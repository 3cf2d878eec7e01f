"""Spoken languages: which language a question is about, and the profile's fluency as an option."""

from __future__ import annotations

from functools import cache, lru_cache

from babel import Locale

from bridge.forms import FieldOption
from bridge.profile import Language
from bridge.rules.data import load_toml
from bridge.rules.options import option_text, real_options
from bridge.rules.patterns import contains_words
from bridge.rules.text import fold

Levels = tuple[tuple[str, int, tuple[tuple[str, ...], ...]], ...]


@cache
def _levels() -> Levels:
    doc = load_toml("options/languages.toml")
    return tuple(
        (str(lv["name"]), int(lv["rank"]), tuple(tuple(fold(p).split()) for p in lv["match"]))
        for lv in doc["level"]
    )


@cache
def _names() -> dict[str, str]:
    doc = load_toml("options/languages.toml")
    return {fold(word): code for code, words in doc["names"].items() for word in words}


@lru_cache(maxsize=2048)
def level_rank(text: str) -> int:
    """The proficiency rank a text names (longest phrase wins); 0 when none."""
    hay = tuple(fold(text).split())
    best = (0, 0)
    for _name, rank, phrases in _levels():
        for p in phrases:
            if contains_words(hay, p) and len(p) > best[0]:
                best = (len(p), rank)
    return best[1]


@cache
def _spoken_names() -> frozenset[str]:
    """Folded names of spoken languages, as the supported languages write them (babel's list)."""
    names: set[str] = set(_names())
    for ui in ("en", "de", "fr", "es", "pt", "nl"):
        names.update(fold(str(name)) for name in Locale.parse(ui).languages.values())
    return frozenset(names)


def names_a_language(text: str) -> bool:
    """The option reads as a spoken language ("English", "Español", "Portuguese (Brazil)")."""
    words = fold(text).split()
    # The whole name, or its first word before a variant ("Portuguese (Brazil)").
    return bool(words) and (" ".join(words) in _spoken_names() or words[0] in _spoken_names())


def language_in(question: str) -> str | None:
    """The one language a question names ("Englischkenntnisse" → "en"), else None."""
    found = {code for word in fold(question).split() if (code := _names().get(word))}
    return found.pop() if len(found) == 1 else None


def fluency_of(code: str, languages: list[Language]) -> str | None:
    for lang in languages:
        if lang.language and _names().get(fold(lang.language)) == code:
            return lang.fluency or None
    return None


def pick_level(options: list[FieldOption], fluency: str) -> FieldOption | None:
    want = level_rank(fluency)
    if not want:
        return None
    ranked = [(level_rank(option_text(o)), o) for o in real_options(options)]
    exact = [o for r, o in ranked if r == want]
    if exact:
        return exact[0]
    if want == 5:  # no "native" option: the highest one offered says it
        top = [o for r, o in ranked if r == 4]
        return top[0] if top else None
    return None
