"""Work authorization and sponsorship, for the country the question (or else the job) is about."""

from __future__ import annotations

from bridge.rules.model import Answer, Missing
from bridge.rules.questions import question_country, read_auth_question
from bridge.rules.resolvers.base import Ask, Result


def resolve(ask: Ask) -> Result:
    app = ask.lp.profile.application
    ft = ask.ft
    q = read_auth_question(ft.raw_question or " ".join(ft.texts["label"]), ask.key)
    country, how = question_country(ft.raw_question, ask.page.job_country)
    if country is None:
        return Missing(f"{q.kind}: {how}")
    auth = app.authorizedToWork.get(country)
    sponsor = app.requiresSponsorship.get(country)
    if q.kind == "auth":
        value = auth
    elif q.kind == "sponsorship":
        value = sponsor
    else:  # authorized without sponsorship
        value = None if auth is None else (auth and sponsor is not True)
    if value is None:
        return Missing(f"{q.kind}: the profile says nothing for {country}")
    flag = (not value) if q.flipped else value
    return Answer(
        "bool",
        flag=flag,
        code=country,
        note=f"{q.kind} in {country} ({how}){', negated question' if q.flipped else ''}",
    )
