"""Text normalisation shared by patterns, options and questions."""

from __future__ import annotations

import re
import unicodedata

from bridge.rules.memo import text_cache

_CAMEL = re.compile(
    r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])"
)
_NON_WORD = re.compile(r"[^0-9a-z]+")


@text_cache()
def fold(text: str) -> str:
    """Lower case, accents dropped, every non-alphanumeric run turned into one space."""
    if text.isascii():  # most page text: nothing to decompose
        return _NON_WORD.sub(" ", text.lower()).strip()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("ß", "ss").replace("ø", "o").replace("æ", "ae").replace("œ", "oe")
    return _NON_WORD.sub(" ", plain).strip()


@text_cache()
def fold_identifier(text: str) -> str:
    """Like `fold`, but first splits camelCase and digit runs (`legalName2` → `legal name 2`)."""
    return fold(_CAMEL.sub(" ", text))


def tokens(text: str) -> tuple[str, ...]:
    return tuple(text.split()) if text else ()


def digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())
