"""Work authorization and sponsorship, for the country the question (or else the job) is about.

The question is read by meaning (`bridge.rules.permits`); the answer comes from the profile's
entries for that one country, never from a guess about citizenship.
"""

from __future__ import annotations

from bridge.rules.model import Answer, Missing
from bridge.rules.permits import read_permit_question
from bridge.rules.questions import question_country
from bridge.rules.resolvers.base import Ask, Result


def resolve(ask: Ask) -> Result:
    app = ask.lp.profile.application
    ft = ask.ft
    reading = read_permit_question(ft.raw_question or " ".join(ft.texts["label"]), ask.page.lang)
    if reading.unclear:
        return Missing(f"unclear question: {reading.unclear}")
    asks = reading.describe()
    country, how = question_country(reading.asked, ask.page.job_country)
    if country is None:
        return Missing(f"asks {asks}: {how}")
    auth = {k.upper(): v for k, v in app.authorizedToWork.items()}.get(country)
    sponsor = {k.upper(): v for k, v in app.requiresSponsorship.items()}.get(country)
    flag = reading.answer(auth, sponsor)
    if flag is None:
        return Missing(f"asks {asks}: the profile does not settle it for {country}")
    return Answer("bool", flag=flag, code=country, note=f"asks {asks} in {country} ({how})")
