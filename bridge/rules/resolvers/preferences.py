"""The person's preferences and facts an application asks: relocation, remote work, age, source."""

from __future__ import annotations

from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, flag_or, unknown
from bridge.rules.text import fold

_SOCIAL = ("linkedin", "facebook", "twitter", "instagram", "x", "xing", "tiktok", "youtube")
_BOARDS = ("indeed", "glassdoor", "monster", "stepstone", "ziprecruiter", "welcome to the jungle")
_REMOTE = {
    "remote": ("Remote", "Fully remote"),
    "hybrid": ("Hybrid",),
    "onsite": ("On-site", "Onsite", "In office", "On site", "Office"),
}


def _source_kinds(source: str) -> tuple[str, ...]:
    """Category wordings for two-level "how did you hear" lists (Taleo, Workday)."""
    s = fold(source)
    if s in _SOCIAL:
        return ("Social Network", "Social Media", "Social Networking Site", "Social Networks")
    if s in _BOARDS:
        return ("Job Board", "Job Boards", "Online Job Board", "Job Site")
    return ()


def resolve(ask: Ask) -> Result:
    app = ask.lp.profile.application
    if ask.key == "relocate":
        return flag_or(app.willingToRelocate, "willingness to relocate")
    if ask.key == "over18":
        return flag_or(app.over18, "age")
    if ask.key == "remote":
        if not app.remotePreference:
            return Missing("no remote preference")
        words = _REMOTE[app.remotePreference]
        return Answer("text", words[0], alternatives=words[1:])
    if ask.key == "how_heard":
        if not app.howDidYouHear:
            return Missing("no default source")
        return Answer("text", app.howDidYouHear, alternatives=_source_kinds(app.howDidYouHear))
    return unknown(ask)
