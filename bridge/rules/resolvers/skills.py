"""Skills and spoken languages: lists to pick from, the fluency in one named language, and the
language to be written to in."""

from __future__ import annotations

from functools import cache

from babel import Locale

from bridge.rules.languages import fluency_of, language_in, level_rank
from bridge.rules.model import Answer, Missing
from bridge.rules.options import yes_no_options
from bridge.rules.resolvers.base import Ask, Result, unknown
from bridge.rules.text import fold


@cache
def _english_codes() -> dict[str, str]:
    """Folded English language name → code: built once, not on every languages question."""
    return {fold(str(name)): code for code, name in Locale.parse("en").languages.items()}


@cache
def _language_names(langs: tuple[str, ...]) -> tuple[str, ...]:
    """The person's languages, with their names in the other supported languages."""
    out: list[str] = []
    codes = _english_codes()
    for lang in langs:
        out.append(lang)
        code = codes.get(fold(lang))
        if code:
            for ui in ("de", "fr", "es", "pt", "nl"):
                name = Locale.parse(ui).languages.get(code)
                if name:
                    out.append(str(name))
    return tuple(out)


def resolve(ask: Ask) -> Result:
    p = ask.lp.profile
    if ask.key == "skills.pick":
        words = [k for s in p.skills for k in (s.keywords or [])] + [
            s.name for s in p.skills if s.name
        ]
        return Answer("multi", alternatives=tuple(words)) if words else Missing("no skills")
    if ask.key == "language.speaks" or (
        ask.key == "language.level" and yes_no_options(ask.field.options) is not None
    ):
        # "Spreek je Engels?" over Yes / No asks whether, not how well.
        return _speaks(ask)
    if ask.key == "language.level":
        code = language_in(ask.ft.raw_question)
        if code is None:
            return Missing("the question does not name one language")
        fluency = fluency_of(code, p.languages)
        if not fluency:
            return Missing(f"the profile says nothing about language {code}")
        return Answer("language", fluency, note=f"{code}: {fluency}")
    if ask.key == "language.preferred":
        # The language to be written to in: the person's one native language, for review.
        native = [
            x.language for x in p.languages if x.language and level_rank(x.fluency or "") == 5
        ]
        if len(native) != 1:
            return Missing("the profile names no single native language")
        return Answer(
            "text",
            native[0],
            alternatives=_language_names((native[0],)),
            review=True,
            note="your native language",
        )
    if ask.key == "languages.pick":
        langs = [x.language for x in p.languages if x.language]
        return (
            Answer("multi", alternatives=_language_names(tuple(langs)))
            if langs
            else Missing("no languages")
        )
    return unknown(ask)


def _speaks(ask: Ask) -> Result:
    """ "Do you speak Spanish?": yes when the profile lists the language at the level the
    question asks for, if it asks one ("fluent"); a lower level, or no entry, is left."""
    code = language_in(ask.ft.raw_question)
    if code is None:
        return Missing("the question does not name one language")
    fluency = fluency_of(code, ask.lp.profile.languages)
    if fluency is None:
        return Missing(f"the profile does not list language {code}")
    asked = level_rank(ask.ft.raw_question)
    if asked and level_rank(fluency) < asked:
        return Missing(f"the question asks a higher level of {code} than the profile's {fluency}")
    return Answer("bool", flag=True, note=f"{code}: {fluency}")
