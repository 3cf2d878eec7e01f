"""Availability: the earliest start date and the notice period."""

from __future__ import annotations

from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, unknown


def resolve(ask: Ask) -> Result:
    app = ask.lp.profile.application
    if ask.key == "start_date":
        if not app.earliestStartDate:
            return Missing("no earliest start date")
        return Answer("date", app.earliestStartDate.isoformat(), when=app.earliestStartDate)
    if ask.key == "notice":
        if not app.noticePeriod:
            return Missing("no notice period")
        return Answer("notice", app.noticePeriod)
    return unknown(ask)
