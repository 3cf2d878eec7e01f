"""Accounts: a user name to log in with (the email, flagged), and a name chosen for a new account
(never a profile fact; on a job application a nickname is the preferred name)."""

from __future__ import annotations

from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, unknown

_NICK = ("nickname", "nick name", "spitzname", "apodo", "bijnaam")


def resolve(ask: Ask) -> Result:
    p = ask.lp.profile
    if ask.key == "account.username":
        if not p.basics.email:
            return Missing("a user name, and the profile has no email to offer")
        return Answer(
            "text",
            p.basics.email,
            review=True,
            note="a user name: the email offered, as most sites accept it",
        )
    if ask.key == "account.handle":
        asks_nick = any(w in f" {ask.ft.question} " for w in (f" {n} " for n in _NICK)) or (
            "nickname" in ask.field.autocomplete.casefold()
        )
        if ask.page.application and asks_nick and p.application.preferredName:
            return Answer("text", p.application.preferredName, note="a nickname on an application")
        return Missing("a name for a new account is yours to choose")
    return unknown(ask)
