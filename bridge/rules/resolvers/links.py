"""Links: website and profiles on named networks."""

from __future__ import annotations

from bridge.profile import LoadedProfile
from bridge.rules.resolvers.base import Ask, Result, text_or
from bridge.rules.text import fold


def _link(lp: LoadedProfile, network: str) -> str | None:
    for prof in lp.profile.basics.profiles:
        if prof.network and fold(prof.network) == network and prof.url:
            return prof.url
        if prof.url and network in (prof.url or "").casefold():
            return prof.url
    return None


def resolve(ask: Ask) -> Result:
    if ask.key == "links.website":
        return text_or(ask.lp.profile.basics.url, "no website in the profile")
    network = ask.key.split(".", 1)[1]
    return text_or(_link(ask.lp, network), f"no {network} link in the profile")
