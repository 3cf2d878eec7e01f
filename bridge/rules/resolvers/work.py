"""Work: current employer and title, employment, dates, years of experience, past employer here;
the headline and summary."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from bridge.profile import LoadedProfile, Work
from bridge.rules.data import load_toml
from bridge.rules.features import FieldText
from bridge.rules.formats import parse_iso
from bridge.rules.model import Answer, Missing
from bridge.rules.options import option_text, real_options
from bridge.rules.pagekind import names_own_job
from bridge.rules.resolvers.base import Ask, Result, num_text, text_or, unknown
from bridge.rules.text import fold

_TECH = frozenset(
    "python java javascript typescript go golang rust c cpp c# ruby php kotlin swift scala sql "
    "nosql react angular vue node nodejs aws azure gcp kubernetes docker terraform spark kafka "
    "hadoop salesforce sap excel figma tableau django flask spring rails linux ios android "
    "management managing leadership leading supervisory supervising sales".split()
)


def current_job(work: list[Work]) -> Work | None:
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


def _names_a_skill(ft: FieldText, lp: LoadedProfile) -> str:
    """A technology or skill named in a years-of-experience question ("years of Python")."""
    words = set(ft.question.split())
    listed = {fold(k) for s in lp.profile.skills for k in (*s.keywords, s.name or "") if k}
    hits = sorted((words & _TECH) | {w for w in words if w in listed})
    return hits[0] if hits else ""


# Words of a field's name that say nothing of the field itself, and title words that say
# nothing of it either ("Senior", "Engineer").
_FIELD_NOISE = frozenset(
    "a an the of and or your our this my field fields area areas role roles position positions "
    "industry space domain professional relevant experience "
    # the small words of German and Dutch questions ("in der Softwareentwicklung")
    "der die das den dem des einem einer im bereich het de een".split()
)
_TITLE_NOISE = frozenset(
    "senior junior lead head staff principal chief associate assistant intern trainee engineer "
    "engineers developer manager specialist consultant i ii iii iv sr jr".split()
)


def _total_years(ask: Ask) -> Result:
    skill = _names_a_skill(ask.ft, ask.lp)
    if skill:
        return Missing(f"asks years with {skill}; the profile has only total years")
    years = years_of_experience(ask.lp)
    if years is None:
        return Missing("no experience in the profile")
    return Answer("number", num_text(years), number=years)


def _field_words(words: list[str]) -> list[str]:
    """The field a years question names: after its last "in" ("years of experience in backend
    development"; German "im"), else between "years of" and "experience" ("years of sales
    experience")."""
    ins = [i for i, w in enumerate(words) if w in ("in", "im")]
    if ins:
        return words[ins[-1] + 1 :]
    if "years" in words and "experience" in words:
        start, end = words.index("years") + 1, words.index("experience")
        return [w for w in words[start:end] if w != "of"]
    return []


def _title_names(title: list[str], asked: set[str]) -> bool:
    """Whether a job title names the field: a word they share beyond the title's role words, or
    a field the title's role works in ("development" for an Engineer, "management" for a
    Manager: options/wordings.toml `role_fields`)."""
    if (set(title) - _TITLE_NOISE) & asked:
        return True
    fields = _role_fields()
    return any(w in fields.get(t, ()) for t in title for w in asked)


@lru_cache(maxsize=1)
def _role_fields() -> dict[str, frozenset[str]]:
    doc = load_toml("options/wordings.toml")["role_fields"]
    return {fold(role): frozenset(fold(f) for f in fields) for role, fields in doc.items()}


@lru_cache(maxsize=1)
def _similar_words() -> frozenset[str]:
    return frozenset(fold(w) for w in load_toml("options/wordings.toml")["similar_role"]["words"])


def _posting_role_fields(title: str) -> set[str]:
    """The fields of the role words in the posting's title ("Apply: Senior Backend Engineer" →
    engineering, development, software, …), and those words; empty when it names no role."""
    fields = _role_fields()
    roles = {w.rstrip("s") for w in fold(title).split()} & fields.keys()
    return set().union(*(fields[r] for r in roles), roles) if roles else set()


def _years_in(ask: Ask) -> Result:
    """ "Years of experience in backend software development": when every job's title shares a
    word with the field asked (a "Software Engineer" and a "Backend Engineer" both do), the total
    years, flagged for review; a field only some or no job titles name is left."""
    skill = _names_a_skill(ask.ft, ask.lp)
    if skill:
        return Missing(f"asks years with {skill}; the profile has only total years")
    words = ask.ft.question.split()
    after = _field_words(words)
    asked = {w for w in after if w not in _FIELD_NOISE}
    if asked and asked <= _similar_words():
        # "…in a similar role": the field is what the posting's role works in.
        asked = _posting_role_fields(ask.page.title)
        if not asked:
            return Missing("asks years in a role like the posting's; the page names no role")
    if not asked and not {"in", "im"} & set(words):
        return _total_years(ask)  # "years of relevant professional experience": the total
    if not asked:
        return Missing("asks years in a field it does not name")
    jobs = ask.lp.profile.work
    named = [j for j in jobs if _title_names(fold(j.position or "").split(), asked)]
    if not named:
        return Missing(f"no job title in the profile names {' '.join(after)}")
    if len(named) < len(jobs):
        # The other jobs may have been in that field too: how many years were is not known.
        return Missing(f"only some of the profile's job titles name {' '.join(after)}")
    years = years_of_experience(ask.lp)
    if years is None:
        return Missing("no experience in the profile")
    titles = ", ".join(sorted({j.position or "" for j in named}))
    return Answer(
        "number", num_text(years), number=years, review=True, note=f"years as {titles}"
    )


def _worked_here(ask: Ask) -> Result:
    """ "Have you worked for <company> before?": yes only when a past employer is that company."""
    names = [fold(w.name) for w in ask.lp.profile.work if w.name]
    if not names:
        return Answer("bool", flag=False, note="no work history in the profile")
    hay = f" {fold(f'{ask.ft.raw_question} {ask.page.title} {ask.page.url}')} "
    for name in names:
        core = re.sub(
            r"\b(inc|llc|ltd|gmbh|corp|corporation|co|labs?|sa|bv|plc|ag)\b", "", name
        ).strip()
        if core and f" {core} " in hay:
            return Answer("bool", flag=True, note=f"worked at {core}")
    return Answer("bool", flag=False, review=False, note="no past employer matches this company")


def by_recency(work: list[Work]) -> list[Work]:
    """Jobs most recent first: current ones, then by end and start date."""
    return sorted(work, key=lambda w: (not w.endDate, w.endDate or "", w.startDate or ""),
                  reverse=True)


def _in_block(ask: Ask, block: int) -> Result:
    """A field of the block-th repeated employment block: that entry, most recent first."""
    jobs = by_recency(ask.lp.profile.work)
    if block >= len(jobs):
        return Missing(f"the profile has {len(jobs)} jobs; this is block {block + 1}")
    job = jobs[block]
    if ask.key == "work.company":
        return text_or(job.name, "no employer in this entry")
    if ask.key == "work.title":
        return text_or(job.position, "no title in this entry")
    if ask.key == "work.current":
        return Answer("bool", flag=not job.endDate)
    when = parse_iso(job.startDate if ask.key == "work.start" else job.endDate)
    if when is None:
        why = "a current job has no end date" if ask.key == "work.end" else "no start date"
        return Missing(why)
    return Answer("date", when.isoformat(), when=when)


def _posting_option(ask: Ask) -> Result:
    """ "Which position are you applying for?": the one option the posting's page title names;
    a text box, or a title that names none or several, is left (the person's choice)."""
    options = [o for o in real_options(ask.field.options) if fold(option_text(o))]
    if not options:
        return Missing("the role applied for is yours to name")
    title = f" {fold(ask.page.title)} "
    named = [o for o in options if f" {fold(option_text(o))} " in title]
    if len(named) != 1:
        return Missing("the page's title names no single one of the roles listed")
    return Answer("text", option_text(named[0]), note="the role the page's title names")


def resolve(ask: Ask) -> Result:
    key, p = ask.key, ask.lp.profile
    if key in ("work.company", "work.title"):
        if not ask.page.application and not names_own_job(ask.ft):
            return Missing("not a job application, and the label does not ask for the current job")
    block = ask.block
    if block is not None and key in ("work.company", "work.title", "work.current", "work.start",
                                     "work.end"):
        return _in_block(ask, block)
    if key in ("work.company", "work.title"):
        job = current_job(p.work)
        if job is None:
            return Missing("no current job in the profile")
        return text_or(job.name if key == "work.company" else job.position, "not in the profile")
    if key == "work.applying":
        return _posting_option(ask)
    if key == "work.employed":
        if not p.work:
            return Missing("no work history in the profile")
        return Answer("bool", flag=current_job(p.work) is not None)
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
    if key == "work.years":
        return _total_years(ask)
    if key == "work.years.in":
        return _years_in(ask)
    if key == "work.previous_here":
        return _worked_here(ask)
    if key == "basics.summary":
        return text_or(p.basics.summary, "no summary in the profile")
    if key == "basics.label":
        return text_or(p.basics.label, "no headline in the profile")
    return unknown(ask)
