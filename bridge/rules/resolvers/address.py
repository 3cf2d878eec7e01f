"""Address: street lines, house number, city, region, postal code, country, one-line location;
and whether the person lives in a named country or union."""

from __future__ import annotations

import re

from bridge.rules.countries import (
    countries_in,
    country_name,
    country_writings,
    region_code,
    region_name,
)
from bridge.rules.features import FieldText
from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, text_or, unknown
from bridge.rules.text import fold

_EU = frozenset(
    "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split()
)
_EEA = _EU | {"IS", "LI", "NO"}


def address_lines(address: str) -> tuple[str, str]:
    """ "2710 Mission St, Apt 4" → ("2710 Mission St", "Apt 4"); one line stays whole."""
    m = re.match(
        r"^(.*?)[,\s]+((?:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|#|no\.?|wohnung|etage)\b.*)$",
        address.strip(),
        re.I,
    )
    if m and m.group(1).strip():
        return m.group(1).strip().rstrip(","), m.group(2).strip()
    return address.strip(), ""


def split_house_number(street: str) -> tuple[str, str]:
    """ "2710 Mission St" or "Mission St 2710" → ("Mission St", "2710")."""
    m = re.match(r"^(\d+[a-zA-Z]?)\s+(.+)$", street.strip())
    if m:
        return m.group(2), m.group(1)
    m = re.match(r"^(.+?)\s+(\d+[a-zA-Z]?)$", street.strip())
    if m:
        return m.group(1), m.group(2)
    return street, ""


def resolve(ask: Ask) -> Result:
    key = ask.key
    loc = ask.lp.profile.basics.location
    if loc is None:
        return Missing("no address in the profile")
    if key in ("address.line1", "address.street"):
        if not loc.address:
            return Missing("no street address")
        line1, _line2 = address_lines(loc.address)
        value = (
            line1 if "address.line2" in ask.frame_keys and key == "address.line1" else loc.address
        )
        if "address.house_number" in ask.frame_keys:
            value = split_house_number(value)[0]
        return Answer("text", value)
    if key == "address.house_number":
        if not loc.address:
            return Missing("no street address")
        number = split_house_number(address_lines(loc.address)[0])[1]
        return text_or(number, "no house number in the address")
    if key == "address.line2":
        if not loc.address:
            return Missing("no street address")
        return text_or(address_lines(loc.address)[1], "no second address line")
    if key == "address.city":
        return text_or(loc.city, "no city")
    if key == "address.postal":
        return text_or(loc.postalCode, "no postal code")
    if key == "address.country":
        if not loc.countryCode:
            return Missing("no country")
        code = loc.countryCode.upper()
        return Answer("country", country_name(code, ask.page.lang), code=code)
    if key == "address.region":
        if not loc.region:
            return Missing("no region")
        # A list settles it by its options (a page may call its list of states "County").
        us = (loc.countryCode or "").upper() == "US"
        if us and not ask.field.options and _asks_county_alone(ask.ft):
            return Missing("a United States county is not the state; the profile has none")
        code = region_code(loc.countryCode or "", loc.region) or ""
        alts = (region_name(code), code.split("-")[-1]) if code else ()
        return Answer("region", loc.region, code=code, alternatives=alts)
    if key == "location.full":
        bits = [x for x in (loc.city, loc.region) if x]
        if loc.countryCode:
            bits.append(country_name(loc.countryCode, ask.page.lang))
        if not bits:
            return Missing("no location")
        return Answer(
            "text",
            ", ".join(bits),
            alternatives=tuple(x for x in (loc.city,) if x),
            query=loc.city or "",
            place=_place(loc.city or "", loc.region or "", loc.countryCode or "", ask.page.lang),
        )
    return unknown(ask)


def _asks_county_alone(ft: FieldText) -> bool:
    """ "County", not "County/State/Province", nor a "County" box whose name says it keeps the
    state (`address.stateProvince`): where a county is part of a state, not one."""
    label = set(" ".join(ft.texts["label"]).split())
    named = set(" ".join(ft.texts["name"]).split())
    state = {"state", "province", "region", "stateprovince"}
    return "county" in label and not (label | named) & state


def _place(city: str, region: str, country: str, lang: str) -> tuple[tuple[str, ...], ...]:
    """City, region and country with their other writings ("California", "CA"), for choosing
    among a places service's suggestions; () without a city."""
    if not city:
        return ()
    parts: list[tuple[str, ...]] = [(city,)]
    if region:
        code = region_code(country, region) if country else None
        alts = (region, region_name(code), code.split("-")[-1]) if code else (region,)
        parts.append(tuple(dict.fromkeys(alts)))
    if country:
        parts.append(country_writings(country, lang))
    return tuple(parts)


def resolve_residence(ask: Ask) -> Result:
    """ "Are you currently living in the EU / Germany?" from the profile's country."""
    loc = ask.lp.profile.basics.location
    home = (loc.countryCode or "").upper() if loc else ""
    if not home:
        return Missing("no country in the profile")
    q = fold(ask.ft.raw_question)
    if re.search(r"\b(eu|european union|ue|eu member)\b", q):
        return Answer("bool", flag=home in _EU, note="lives in the EU?")
    if re.search(r"\b(eea|european economic area|eer|ewr)\b", q):
        return Answer("bool", flag=home in _EEA, note="lives in the EEA?")
    named = countries_in(ask.ft.raw_question)
    if len(named) != 1:
        return Missing("the question does not name one country")
    return Answer("bool", flag=named[0] == home, note=f"lives in {named[0]}?")
