"""Self-identification (EEO): the profile's category, or decline when it says so or says nothing."""

from __future__ import annotations

from bridge.rules import eeo as eeo_mod
from bridge.rules.model import Answer
from bridge.rules.options import yes_no_options
from bridge.rules.resolvers.base import Ask, Result
from bridge.rules.text import fold

DEFAULT_DECLINE = "default: decline — set your answer in Relay"
_PROFILE_KEY = {
    "gender": "gender",
    "hispanic": "hispanicOrLatino",
    "race": "race",
    "veteran": "veteranStatus",
    "disability": "disabilityStatus",
}


def resolve(ask: Ask) -> Result:
    topic = ask.key.split(".", 1)[1]
    if topic == "ethnicity":
        # "Ethnicity" is the Hispanic/Latino yes-no on some forms and the race list on others.
        topic = "hispanic" if yes_no_options(ask.field.options) else "race"
    answers = ask.lp.profile.application.eeo
    wanted = (answers.get(_PROFILE_KEY.get(topic, topic)) or "").strip()
    if not wanted:
        # Not the person's choice: say it is a default and where to change it.
        return Answer("eeo", "decline", code="decline", note=DEFAULT_DECLINE)
    if fold(wanted) in ("decline", "prefer not to say", "prefer not to answer"):
        return Answer("eeo", "decline", code="decline", note=f"eeo.{topic}: decline")
    return Answer("eeo", wanted, code=eeo_mod.category(topic, wanted) or "", note=f"eeo.{topic}")
