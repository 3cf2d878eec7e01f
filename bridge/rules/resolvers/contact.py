"""Contact: email and the phone number in its parts."""

from __future__ import annotations

from bridge.rules.formats import phone_parts, valid_phone
from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result, text_or, unknown

# Where a number is a three-digit area code and a seven-digit local number.
NANP = ("US", "CA")


def resolve(ask: Ask) -> Result:
    b = ask.lp.profile.basics
    if ask.key in ("basics.email", "basics.email.confirm"):
        return text_or(b.email, "no email")
    if not b.phone:
        return Missing("no phone")
    region = b.location.countryCode if b.location else None
    if not valid_phone(b.phone, region):
        return Missing("the profile's phone number does not validate")
    parts = phone_parts(b.phone, region)
    key = ask.key
    if key == "phone.full":
        return Answer(
            "phone",
            b.phone,
            code=parts["region"],
            alternatives=(parts["international"], parts["national"]),
        )
    if key == "phone.national":
        return Answer("text", parts["national"])
    if key == "phone.local":
        local = parts["national_digits"]
        if parts["region"] in NANP:
            return Answer("text", local[3:])
        if "phone.area_code" in ask.frame_keys:
            return Missing("the number after an area code box, whose length varies with the place")
        return Answer("text", local)
    if key == "phone.area_code":
        # A North American number's area code is always its first three digits; elsewhere its
        # length varies with the place, so it is left to the person.
        if parts["region"] in NANP:
            return Answer("text", parts["national_digits"][:3])
        return Missing("area codes outside North America vary in length")
    if key == "phone.country_code":
        return Answer("phone_code", parts["country_code"], code=parts["region"])
    if key == "phone.extension":
        return text_or(parts["extension"], "no extension")
    return unknown(ask)
