"""Education: the highest entry's school, degree, field, GPA and dates; in repeated blocks, each
entry, most recent first."""

from __future__ import annotations

from bridge.rules.degrees import highest_education, level
from bridge.rules.formats import parse_iso
from bridge.rules.model import Answer, Missing
from bridge.rules.options import yes_no_options
from bridge.rules.resolvers.base import Ask, Result, text_or, unknown


def resolve(ask: Ask) -> Result:
    entries = ask.lp.profile.education
    block = ask.block
    if block is None:
        edu = highest_education(entries)
    else:
        # Repeated education blocks: the entries most recent first.
        recent = sorted(entries, key=lambda e: (e.endDate or "9999", e.startDate or ""),
                        reverse=True)
        if block >= len(recent):
            return Missing(f"the profile has {len(recent)} education entries; this is block "
                           f"{block + 1}")
        edu = recent[block]
    if edu is None:
        return Missing("no education in the profile")
    key = ask.key
    if key == "edu.school":
        return text_or(edu.institution, "no school")
    if key == "edu.degree":
        if not edu.studyType:
            return Missing("no degree")
        if yes_no_options(ask.field.options) is not None:
            return _holds_degree(ask.ft.raw_question, edu.studyType)
        return Answer("degree", edu.studyType)
    if key == "edu.field":
        return text_or(edu.area, "no field of study")
    if key == "edu.gpa":
        return text_or(edu.score, "no GPA")
    if key in ("edu.end", "edu.start"):
        when = parse_iso(edu.endDate if key == "edu.end" else edu.startDate)
        return Answer("date", when.isoformat(), when=when) if when else Missing("no date")
    return unknown(ask)


def _holds_degree(question: str, study_type: str) -> Result:
    """ "Do you have a bachelor's degree?": yes when the profile's degree is that level or
    higher; a lower one is left for the person (the profile may not list every degree)."""
    asked, held = level(question), level(study_type)
    if asked is None or held is None:
        return Missing("the question or the profile names no degree level")
    if held[1] < asked[1]:
        return Missing(f"the profile's highest degree is {study_type}")
    return Answer("bool", flag=True, note=f"holds {study_type}")
