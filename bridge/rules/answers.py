"""What the profile answers for each key (before the answer is shaped to a widget)."""

from __future__ import annotations

import mimetypes
import re
from datetime import date

from bridge.forms import FileRef, FormField
from bridge.profile import LoadedProfile, Work
from bridge.rules import eeo as eeo_mod
from bridge.rules.countries import countries_in, country_name, region_code, region_name
from bridge.rules.features import FieldText
from bridge.rules.formats import parse_iso, phone_parts
from bridge.rules.model import Answer, Missing, Page
from bridge.rules.options import yes_no_options
from bridge.rules.pagekind import names_own_job
from bridge.rules.questions import question_country, read_auth_question
from bridge.rules.text import fold

Result = Answer | Missing

# Keys we recognise but the profile never answers: leave them, never invent.
NO_DATA = {
    "name.prefix": "the profile has no salutation",
    "name.suffix": "the profile has no name suffix",
    "citizenship": "the profile does not state citizenship",
    "phone.type": "the profile does not say which kind of phone",
    "phone.area_code": "area code alone is not asked by the profile",
    "salary.current": "the profile has no current salary",
    "referral": "no referrer in the profile",
    "links.other": "no other link in the profile",
    "photo": "no photo in the profile",
    "address.line3": "the profile has no third address line",
    "name.infix": "the profile's name has no infix",
}

_DEGREE_HINT = ("degree", "studytype")


def name_parts(full: str) -> list[str]:
    return full.split()


def _current_job(work: list[Work]) -> Work | None:
    for job in work:
        if not job.endDate:
            return job
    return None


def years_of_experience(lp: LoadedProfile) -> float | None:
    app = lp.profile.application
    if app.yearsOfExperience is not None:
        return app.yearsOfExperience
    # Derived from work dates, overlapping jobs counted once.
    spans: list[tuple[date, date]] = []
    for job in lp.profile.work:
        start = parse_iso(job.startDate)
        end = parse_iso(job.endDate) or date.today()
        if start and end > start:
            spans.append((start, end))
    if not spans:
        return None
    spans.sort()
    total = 0
    cur_start, cur_end = spans[0]
    for s, e in spans[1:]:
        if s <= cur_end:
            cur_end = max(cur_end, e)
        else:
            total += (cur_end - cur_start).days
            cur_start, cur_end = s, e
    total += (cur_end - cur_start).days
    return round(total / 365.25, 1)


def _address_lines(address: str) -> tuple[str, str]:
    """ "2710 Mission St, Apt 4" → ("2710 Mission St", "Apt 4"); one line stays whole."""
    m = re.match(
        r"^(.*?)[,\s]+((?:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|#|no\.?|wohnung|etage)\b.*)$",
        address.strip(),
        re.I,
    )
    if m and m.group(1).strip():
        return m.group(1).strip().rstrip(","), m.group(2).strip()
    return address.strip(), ""


def _split_house_number(street: str) -> tuple[str, str]:
    """ "2710 Mission St" or "Mission St 2710" → ("Mission St", "2710")."""
    m = re.match(r"^(\d+[a-zA-Z]?)\s+(.+)$", street.strip()) or None
    if m:
        return m.group(2), m.group(1)
    m = re.match(r"^(.+?)\s+(\d+[a-zA-Z]?)$", street.strip())
    if m:
        return m.group(1), m.group(2)
    return street, ""


def _link(lp: LoadedProfile, network: str) -> str | None:
    for prof in lp.profile.basics.profiles:
        if prof.network and fold(prof.network) == network and prof.url:
            return prof.url
        if prof.url and network in (prof.url or "").casefold():
            return prof.url
    return None


def resolve(key: str, field: FormField, ft: FieldText, page: Page, lp: LoadedProfile) -> Result:
    p = lp.profile
    b = p.basics
    app = p.application
    loc = b.location
    frame_keys = page.frame_keys.get(field.frame, set())

    if key in NO_DATA:
        return Missing(NO_DATA[key])

    # ---- names
    if key.startswith("name."):
        if key == "name.preferred":
            return (
                Answer("text", app.preferredName)
                if app.preferredName
                else Missing("no preferred name")
            )
        parts = name_parts(b.name or "")
        if not parts:
            return Missing("no name in the profile")
        if key == "name.full":
            if "name.last" in frame_keys and not frame_keys & {"name.first", "name.preferred"}:
                # "Name" next to "Surname": the name asked is the given name.
                return Answer("text", parts[0], note="a Name field beside a surname field")
            return Answer("text", " ".join(parts))
        if key == "name.first":
            lasts = {"name.last", "name.last.first", "name.last.second", "name.full"}
            if ft.question in ("nombre", "nome", "nombres") and not frame_keys & lasts:
                return Answer("text", " ".join(parts), note="a lone Nombre / Nome field: full name")
            if "name.last.second" in frame_keys and len(parts) >= 4:
                return Answer(
                    "text",
                    " ".join(parts[:-2]),
                    review=True,
                    note="given names before two surnames, split by position",
                )
            return Answer("text", parts[0])
        if key == "name.middle":
            return (
                Answer("text", " ".join(parts[1:-1]))
                if len(parts) > 2
                else Missing("no middle name")
            )
        if key == "name.last":
            return Answer("text", parts[-1]) if len(parts) > 1 else Missing("no last name")
        if key == "name.last.first":
            if len(parts) >= 4:
                return Answer("text", parts[-2], review=True, note="first of two surnames, guessed")
            return Answer("text", parts[-1]) if len(parts) > 1 else Missing("no last name")
        if key == "name.last.second":
            if len(parts) >= 4:
                return Answer(
                    "text", parts[-1], review=True, note="second of two surnames, guessed"
                )
            return Missing("the profile's name has one surname")
    if key == "pronouns":
        return Answer("text", app.pronouns) if app.pronouns else Missing("no pronouns")

    # ---- contact
    if key in ("basics.email", "basics.email.confirm"):
        return Answer("text", b.email) if b.email else Missing("no email")
    if key.startswith("phone."):
        if not b.phone:
            return Missing("no phone")
        parts_ = phone_parts(b.phone, loc.countryCode if loc else None)
        if key == "phone.full":
            return Answer(
                "phone",
                b.phone,
                code=parts_["region"],
                alternatives=(parts_["international"], parts_["national"]),
            )
        if key == "phone.national":
            return Answer("text", parts_["national"])
        if key == "phone.local":
            return Answer(
                "text",
                parts_["national_digits"][3:]
                if parts_["region"] in ("US", "CA")
                else parts_["national_digits"],
            )
        if key == "phone.country_code":
            return Answer("phone_code", parts_["country_code"], code=parts_["region"])
        if key == "phone.extension":
            return (
                Answer("text", parts_["extension"])
                if parts_["extension"]
                else Missing("no extension")
            )

    # ---- address
    if key.startswith("address.") or key == "location.full":
        if loc is None:
            return Missing("no address in the profile")
        if key in ("address.line1", "address.street"):
            if not loc.address:
                return Missing("no street address")
            line1, _line2 = _address_lines(loc.address)
            has_line2 = "address.line2" in frame_keys
            value = line1 if has_line2 and key == "address.line1" else loc.address
            if "address.house_number" in frame_keys:
                value = _split_house_number(value)[0]
            return Answer("text", value)
        if key == "address.house_number":
            if not loc.address:
                return Missing("no street address")
            number = _split_house_number(_address_lines(loc.address)[0])[1]
            return Answer("text", number) if number else Missing("no house number in the address")
        if key == "address.line2":
            if not loc.address:
                return Missing("no street address")
            return (
                Answer("text", _address_lines(loc.address)[1])
                if _address_lines(loc.address)[1]
                else Missing("no second address line")
            )
        if key == "address.city":
            return Answer("text", loc.city) if loc.city else Missing("no city")
        if key == "address.postal":
            return Answer("text", loc.postalCode) if loc.postalCode else Missing("no postal code")
        if key == "address.country":
            if not loc.countryCode:
                return Missing("no country")
            return Answer(
                "country", country_name(loc.countryCode, page.lang), code=loc.countryCode.upper()
            )
        if key == "address.region":
            if not loc.region:
                return Missing("no region")
            code = region_code(loc.countryCode or "", loc.region) or ""
            alts = (region_name(code), code.split("-")[-1]) if code else ()
            return Answer("region", loc.region, code=code, alternatives=alts)
        if key == "location.full":
            bits = [x for x in (loc.city, loc.region) if x]
            if loc.countryCode:
                bits.append(country_name(loc.countryCode, page.lang))
            if not bits:
                return Missing("no location")
            return Answer(
                "text",
                ", ".join(bits),
                alternatives=tuple(x for x in (loc.city,) if x),
                query=loc.city or "",
            )

    # ---- links
    if key == "links.website":
        return Answer("text", b.url) if b.url else Missing("no website in the profile")
    if key.startswith("links."):
        url = _link(lp, key.split(".", 1)[1])
        return (
            Answer("text", url)
            if url
            else Missing(f"no {key.split('.', 1)[1]} link in the profile")
        )

    # ---- work and education
    if key in ("work.company", "work.title"):
        if not page.application and not names_own_job(ft):
            return Missing("not a job application, and the label does not ask for the current job")
        job = _current_job(p.work)
        if job is None:
            return Missing("no current job in the profile")
        job_value = job.name if key == "work.company" else job.position
        return Answer("text", job_value) if job_value else Missing("not in the profile")
    if key == "work.employed":
        if not p.work:
            return Missing("no work history in the profile")
        return Answer("bool", flag=_current_job(p.work) is not None)
    if key in ("work.current", "work.start", "work.end"):
        latest = p.work[0] if p.work else None
        if latest is None:
            return Missing("no work history in the profile")
        if key == "work.current":
            return Answer("bool", flag=not latest.endDate)
        when = parse_iso(latest.startDate if key == "work.start" else latest.endDate)
        if when is None:
            return Missing(
                "a current job has no end date" if key == "work.end" else "no start date"
            )
        return Answer("date", when.isoformat(), when=when)
    if key == "residence.in":
        return _residence(ft, lp)
    if key == "basics.summary":
        return Answer("text", b.summary) if b.summary else Missing("no summary in the profile")
    if key == "basics.label":
        return Answer("text", b.label) if b.label else Missing("no headline in the profile")
    if key == "skills.pick":
        skill_words = [k for s in p.skills for k in (s.keywords or [])] + [
            s.name for s in p.skills if s.name
        ]
        return (
            Answer("multi", alternatives=tuple(skill_words))
            if skill_words
            else Missing("no skills")
        )
    if key == "language.level":
        from bridge.rules.languages import fluency_of, language_in

        lang_code = language_in(ft.raw_question)
        if lang_code is None:
            return Missing("the question does not name one language")
        fluency = fluency_of(lang_code, p.languages)
        if not fluency:
            return Missing(f"the profile says nothing about language {lang_code}")
        return Answer("language", fluency, note=f"{lang_code}: {fluency}")
    if key == "languages.pick":
        langs = [x.language for x in p.languages if x.language]
        return (
            Answer("multi", alternatives=_language_names(langs))
            if langs
            else Missing("no languages")
        )
    if key == "work.years":
        skill = _names_a_skill(ft, lp)
        if skill:
            return Missing(f"asks years with {skill}; the profile has only total years")
        years = years_of_experience(lp)
        if years is None:
            return Missing("no experience in the profile")
        return Answer("number", _num(years), number=years)
    if key == "work.previous_here":
        return _worked_here(field, ft, page, lp)
    if key.startswith("edu."):
        return _education(key, lp)

    # ---- application questions
    if key in ("auth.work", "sponsorship"):
        return _authorization(key, ft, page, lp)
    if key == "relocate":
        return _bool(app.willingToRelocate, "willingness to relocate")
    if key == "over18":
        return _bool(app.over18, "age")
    if key == "remote":
        if not app.remotePreference:
            return Missing("no remote preference")
        words = {
            "remote": ("Remote", "Fully remote"),
            "hybrid": ("Hybrid",),
            "onsite": ("On-site", "Onsite", "In office", "On site", "Office"),
        }[app.remotePreference]
        return Answer("text", words[0], alternatives=words[1:])
    if key == "notice":
        return (
            Answer("notice", app.noticePeriod) if app.noticePeriod else Missing("no notice period")
        )
    if key == "start_date":
        if not app.earliestStartDate:
            return Missing("no earliest start date")
        return Answer("date", app.earliestStartDate.isoformat(), when=app.earliestStartDate)
    if key == "salary":
        return _salary(ft, lp, page)
    if key == "how_heard":
        if not app.howDidYouHear:
            return Missing("no default source")
        return Answer("text", app.howDidYouHear, alternatives=_source_kinds(app.howDidYouHear))
    if key.startswith("eeo."):
        return _eeo(key, field, app.eeo)
    if key in ("documents.resume", "documents.cover_letter"):
        kind = "resume" if key == "documents.resume" else "coverLetter"
        path = lp.document_path(kind)  # type: ignore[arg-type]
        if path is None:
            return Missing(f"no {kind} file in the profile")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return Answer(
            "file", path.name, file=FileRef(name=path.name, mime=mime, size=path.stat().st_size)
        )
    return Missing(f"no rule gives a value for {key}")


_SOCIAL = ("linkedin", "facebook", "twitter", "instagram", "x", "xing", "tiktok", "youtube")
_BOARDS = ("indeed", "glassdoor", "monster", "stepstone", "ziprecruiter", "welcome to the jungle")


def _source_kinds(source: str) -> tuple[str, ...]:
    """Category wordings for two-level "how did you hear" lists (Taleo, Workday)."""
    s = fold(source)
    if s in _SOCIAL:
        return ("Social Network", "Social Media", "Social Networking Site", "Social Networks")
    if s in _BOARDS:
        return ("Job Board", "Job Boards", "Online Job Board", "Job Site")
    return ()


_EU = frozenset(
    "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split()
)
_EEA = _EU | {"IS", "LI", "NO"}


def _residence(ft: FieldText, lp: LoadedProfile) -> Result:
    """ "Are you currently living in the EU / Germany?" from the profile's country."""
    loc = lp.profile.basics.location
    home = (loc.countryCode or "").upper() if loc else ""
    if not home:
        return Missing("no country in the profile")
    q = fold(ft.raw_question)
    if re.search(r"\b(eu|european union|ue|eu member)\b", q):
        return Answer("bool", flag=home in _EU, note="lives in the EU?")
    if re.search(r"\b(eea|european economic area|eer|ewr)\b", q):
        return Answer("bool", flag=home in _EEA, note="lives in the EEA?")
    named = countries_in(ft.raw_question)
    if len(named) != 1:
        return Missing("the question does not name one country")
    return Answer("bool", flag=named[0] == home, note=f"lives in {named[0]}?")


def _language_names(langs: list[str]) -> tuple[str, ...]:
    """The person's languages, with their names in the other supported languages."""
    from babel import Locale

    out: list[str] = []
    english = Locale.parse("en").languages
    codes = {fold(str(name)): code for code, name in english.items()}
    for lang in langs:
        out.append(lang)
        code = codes.get(fold(lang))
        if code:
            for ui in ("de", "fr", "es", "pt", "nl"):
                name = Locale.parse(ui).languages.get(code)
                if name:
                    out.append(str(name))
    return tuple(out)


_TECH = frozenset(
    "python java javascript typescript go golang rust c cpp c# ruby php kotlin swift scala sql "
    "nosql react angular vue node nodejs aws azure gcp kubernetes docker terraform spark kafka "
    "hadoop salesforce sap excel figma tableau django flask spring rails linux ios android "
    "management managing leadership leading supervisory supervising sales".split()
)


def _names_a_skill(ft: FieldText, lp: LoadedProfile) -> str:
    """A technology or skill named in a years-of-experience question ("years of Python")."""
    words = set(ft.question.split())
    listed = {fold(k) for s in lp.profile.skills for k in (*s.keywords, s.name or "") if k}
    hits = sorted((words & _TECH) | {w for w in words if w in listed})
    return hits[0] if hits else ""


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _bool(value: bool | None, what: str) -> Result:
    return (
        Answer("bool", flag=value)
        if value is not None
        else Missing(f"the profile says nothing about {what}")
    )


def _education(key: str, lp: LoadedProfile) -> Result:
    from bridge.rules.degrees import highest_education

    edu = highest_education(lp.profile.education)
    if edu is None:
        return Missing("no education in the profile")
    if key == "edu.school":
        return Answer("text", edu.institution) if edu.institution else Missing("no school")
    if key == "edu.degree":
        return Answer("degree", edu.studyType) if edu.studyType else Missing("no degree")
    if key == "edu.field":
        return Answer("text", edu.area) if edu.area else Missing("no field of study")
    if key == "edu.gpa":
        return Answer("text", edu.score) if edu.score else Missing("no GPA")
    if key in ("edu.end", "edu.start"):
        when = parse_iso(edu.endDate if key == "edu.end" else edu.startDate)
        return Answer("date", when.isoformat(), when=when) if when else Missing("no date")
    return Missing(f"no rule gives a value for {key}")


def _authorization(key: str, ft: FieldText, page: Page, lp: LoadedProfile) -> Result:
    app = lp.profile.application
    q = read_auth_question(ft.raw_question or " ".join(ft.texts["label"]), key)
    country, how = question_country(ft.raw_question, page.job_country)
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


def _worked_here(field: FormField, ft: FieldText, page: Page, lp: LoadedProfile) -> Result:
    """ "Have you worked for <company> before?": yes only when a past employer is that company."""
    names = [fold(w.name) for w in lp.profile.work if w.name]
    if not names:
        return Answer("bool", flag=False, note="no work history in the profile")
    where = fold(f"{ft.raw_question} {page.title} {page.url}")
    hay = f" {where} "
    for name in names:
        core = re.sub(
            r"\b(inc|llc|ltd|gmbh|corp|corporation|co|labs?|sa|bv|plc|ag)\b", "", name
        ).strip()
        if core and f" {core} " in hay:
            return Answer("bool", flag=True, note=f"worked at {core}")
    return Answer("bool", flag=False, review=False, note="no past employer matches this company")


def _salary(ft: FieldText, lp: LoadedProfile, page: Page) -> Result:
    sal = lp.profile.application.salaryExpectation
    if sal is None:
        return Missing("no salary expectation")
    q = f" {ft.question} {' '.join(ft.texts['placeholder'])} {' '.join(ft.texts['nearby'])} "
    currencies = set(
        re.findall(r"\b(usd|eur|gbp|chf|cad|aud|inr|sek|nok|dkk|pln|jpy|brl|mxn)\b", q)
    )
    symbols = {"$": "usd", "€": "eur", "£": "gbp"}
    raw = ft.raw_question
    for sym, code in symbols.items():
        if sym in raw:
            currencies.add(code)
    if not currencies and page.job_country:
        # No currency on the field: the job's country says which one is meant.
        from babel.numbers import get_territory_currencies

        local = {c.casefold() for c in get_territory_currencies(page.job_country)[:1]}
        if local and sal.currency.casefold() not in local:
            return Missing(
                f"the job is in {page.job_country}; the profile's salary is in {sal.currency}"
            )
    if currencies and sal.currency.casefold() not in currencies:
        return Missing(
            f"the field asks in {'/'.join(sorted(currencies)).upper()}, "
            f"the profile has {sal.currency}"
        )
    periods = {
        "hour": r"\b(hour|hourly|per hour|stunde|heure|hora|uur)\b",
        "month": r"\b(month|monthly|per month|monat|monatlich|mois|mensual|mes|mensal|maand)\b",
        "year": r"\b(year|yearly|annual|annually|per annum|jahr|jahrlich|an|annuel|ano|anual"
        r"|jaar)\b",
    }
    asked = [p for p, rx in periods.items() if re.search(rx, q)]
    if asked and sal.period not in asked:
        return Missing(f"the field asks per {asked[0]}, the profile has per {sal.period}")
    return Answer("number", _num(sal.amount), number=sal.amount, code=sal.currency)


def _eeo(key: str, field: FormField, answers: dict[str, str]) -> Result:
    topic = key.split(".", 1)[1]
    if topic == "ethnicity":
        # "Ethnicity" is the Hispanic/Latino yes-no on some forms and the race list on others.
        topic = "hispanic" if yes_no_options(field.options) else "race"
    profile_key = {
        "gender": "gender",
        "hispanic": "hispanicOrLatino",
        "race": "race",
        "veteran": "veteranStatus",
        "disability": "disabilityStatus",
    }.get(topic, topic)
    wanted = answers.get(profile_key, "decline").strip()
    if not wanted or fold(wanted) in ("decline", "prefer not to say", "prefer not to answer"):
        return Answer("eeo", "decline", code="decline", note=f"eeo.{topic}: decline")
    cat = eeo_mod.category(topic, wanted)
    return Answer("eeo", wanted, code=cat or "", note=f"eeo.{topic}")
