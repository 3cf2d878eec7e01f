"""Salary expectation, only in the currency and period the field asks for."""

from __future__ import annotations

import re

from babel.numbers import get_territory_currencies

from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, num_text

_CURRENCY = re.compile(r"\b(usd|eur|gbp|chf|cad|aud|inr|sek|nok|dkk|pln|jpy|brl|mxn)\b")
_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp"}
_PERIODS = {
    "hour": r"\b(hour|hourly|per hour|stunde|heure|hora|uur)\b",
    "month": r"\b(month|monthly|per month|monat|monatlich|mois|mensual|mes|mensal|maand)\b",
    "year": r"\b(year|yearly|annual|annually|per annum|jahr|jahrlich|an|annuel|ano|anual|jaar)\b",
}


def resolve(ask: Ask) -> Result:
    sal = ask.lp.profile.application.salaryExpectation
    if sal is None:
        return Missing("no salary expectation")
    ft = ask.ft
    q = f" {ft.question} {' '.join(ft.texts['placeholder'])} {' '.join(ft.texts['nearby'])} "
    currencies = set(_CURRENCY.findall(q))
    currencies |= {code for sym, code in _SYMBOLS.items() if sym in ft.raw_question}
    job_country = ask.page.job_country
    if not currencies and job_country:
        # No currency on the field: the job's country says which one is meant.
        local = {c.casefold() for c in get_territory_currencies(job_country)[:1]}
        if local and sal.currency.casefold() not in local:
            return Missing(
                f"the job is in {job_country}; the profile's salary is in {sal.currency}"
            )
    if currencies and sal.currency.casefold() not in currencies:
        return Missing(
            f"the field asks in {'/'.join(sorted(currencies)).upper()}, "
            f"the profile has {sal.currency}"
        )
    asked = [p for p, rx in _PERIODS.items() if re.search(rx, q)]
    if asked and sal.period not in asked:
        return Missing(f"the field asks per {asked[0]}, the profile has per {sal.period}")
    return Answer("number", num_text(sal.amount), number=sal.amount, code=sal.currency)
