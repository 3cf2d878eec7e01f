"""Which country a question (or the job) is about."""

from __future__ import annotations

import re

from bridge.rules.countries import countries_in, us_state_regex
from bridge.rules.memo import text_cache
from bridge.rules.text import fold

_JOB_COUNTRY_WORDS = (
    "this country",
    "the country where",
    "country in which",
    "the location of",
    "this location",
    "country of the job",
    "where this role",
    "where the role",
    "where this position",
    "where the position",
    "job location",
    "this role is based",
    "country where the job",
)


def question_country(raw_question: str, job_country: str | None) -> tuple[str | None, str]:
    """The country a question is about: named in it, else the job's. (code, how it was told)."""
    folded = fold(raw_question)
    if re.search(
        r"\b(european union|eu|eea|schengen|europe|european economic area|ue|ew|eer)\b", folded
    ):
        return None, "the question is about a region (EU / EEA), not one country"
    named = countries_in(raw_question)
    if not named and re.search(
        r"\bh ?1 ?b\b|\bgreen card\b|\bopt\b|\bstem opt\b|\btn visa\b", folded
    ):
        named = ["US"]  # US-only visa types name the country
    if len(named) == 1:
        return named[0], "named in the question"
    if len(named) > 1:
        return None, "the question names several countries"
    if job_country:
        return job_country, "the job's location"
    if any(w in folded for w in _JOB_COUNTRY_WORDS):
        return None, "the job's country cannot be told from the page"
    return None, "no country in the question or the job's location"


_LOCATION_LINE = re.compile(
    r"(?im)\b(?:location|locations|based in|office|standort|lieu|ubicaci[oó]n|localiza[cç][aã]o"
    r"|locatie)\b\s*[:\-\u2013]\s*(.{0,120})"
)


@text_cache()
def job_country(title: str, url: str, job_text: str) -> str | None:
    """The one country the job is in (page title, a location line, the text), else None."""
    for text in (title, *(m.group(1) for m in _LOCATION_LINE.finditer(job_text[:30000]))):
        found = _countries_with_states(text)
        if len(found) == 1:
            return found[0]
    # The page header (company, title, location) comes first; then the whole text.
    for text in (job_text[:1500], job_text[:20000]):
        found = _countries_with_states(text)
        if len(found) == 1:
            return found[0]
    host = re.search(r"https?://[^/]+\.([a-z]{2})(?:/|$)", url)
    if host and host.group(1) in (
        "de",
        "fr",
        "es",
        "nl",
        "uk",
        "ca",
        "pt",
        "br",
        "at",
        "ch",
        "be",
        "ie",
    ):
        return {"uk": "GB"}.get(host.group(1), host.group(1).upper())
    return None


def _countries_with_states(text: str) -> list[str]:
    found = countries_in(text)
    if "US" not in found and us_state_regex().search(text):
        found.append("US")
    return found
