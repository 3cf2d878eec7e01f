"""What the profile answers for each key (before the answer is shaped to a widget).

One resolver per field family, registered in `FAMILIES`, the way a browser's form parsing has one
parser per family: a key goes to the family that claims it (by exact key, else by the longest
prefix); keys the profile never answers are left first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bridge.forms import FormField
from bridge.profile import LoadedProfile
from bridge.rules.features import FieldText
from bridge.rules.model import Missing, Page
from bridge.rules.resolvers import (
    account,
    address,
    authorization,
    contact,
    dates,
    documents,
    education,
    links,
    names,
    preferences,
    salary,
    selfid,
    skills,
    work,
)
from bridge.rules.resolvers.base import Ask, Resolver, Result

# Keys we recognise but the profile never answers: leave them, never invent.
NO_DATA = {
    "citizenship": "the profile does not state citizenship",
    "phone.type": "the profile does not say which kind of phone",
    "salary.current": "the profile has no current salary",
    "referral": "no referrer in the profile",
    "links.other": "no other link in the profile",
    "photo": "no photo in the profile",
    "address.line3": "the profile has no third address line",
    "name.infix": "the profile's name has no infix",
}


@dataclass(frozen=True)
class Family:
    name: str
    resolve: Resolver
    keys: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()


FAMILIES: tuple[Family, ...] = (
    Family("names", names.resolve, keys=("pronouns",), prefixes=("name.",)),
    Family(
        "contact",
        contact.resolve,
        keys=("basics.email", "basics.email.confirm"),
        prefixes=("phone.",),
    ),
    Family("address", address.resolve, keys=("location.full",), prefixes=("address.",)),
    Family("residence", address.resolve_residence, keys=("residence.in",)),
    Family("links", links.resolve, prefixes=("links.",)),
    Family("account", account.resolve, prefixes=("account.",)),
    Family("work", work.resolve, keys=("basics.summary", "basics.label"), prefixes=("work.",)),
    Family("education", education.resolve, prefixes=("edu.",)),
    Family(
        "skills",
        skills.resolve,
        keys=(
            "skills.pick",
            "language.level",
            "language.speaks",
            "language.preferred",
            "languages.pick",
        ),
    ),
    Family("authorization", authorization.resolve, keys=("auth.work", "sponsorship")),
    Family("dates", dates.resolve, keys=("start_date", "notice")),
    Family("salary", salary.resolve, keys=("salary",)),
    Family("self-identification", selfid.resolve, prefixes=("eeo.",)),
    Family("documents", documents.resolve, keys=("documents.resume", "documents.cover_letter")),
    Family("preferences", preferences.resolve, keys=("relocate", "over18", "remote", "how_heard")),
)


@cache
def _table() -> tuple[dict[str, Resolver], tuple[tuple[str, Resolver], ...]]:
    exact = {key: fam.resolve for fam in FAMILIES for key in fam.keys}
    prefixes = sorted(
        ((p, fam.resolve) for fam in FAMILIES for p in fam.prefixes), key=lambda x: -len(x[0])
    )
    return exact, tuple(prefixes)


def resolver_for(key: str) -> Resolver | None:
    exact, prefixes = _table()
    if key in exact:
        return exact[key]
    return next((r for p, r in prefixes if key.startswith(p)), None)


def resolve(key: str, field: FormField, ft: FieldText, page: Page, lp: LoadedProfile) -> Result:
    if key in NO_DATA:
        return Missing(NO_DATA[key])
    found = resolver_for(key)
    if found is None:
        return Missing(f"no rule gives a value for {key}")
    return found(Ask(key, field, ft, page, lp))
