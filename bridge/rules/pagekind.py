"""Whether a page is a job application, and whether a field asks for the person's own job.

"Company" on a checkout, donation or sign-up form is whoever pays or signs up, not the person's
employer, and "Title" there is a salutation: employer and job title are only the profile's answer
on a job application, or where the label says it is the person's current job.
"""

from __future__ import annotations

import re

from bridge.rules.features import FieldText

# Keys only a job application asks. Not gender: shops, airlines and sign-ups ask it too.
APPLICATION_KEYS = frozenset(
    {
        "documents.resume",
        "documents.cover_letter",
        "auth.work",
        "sponsorship",
        "work.years",
        "work.years.in",
        "work.previous_here",
        "notice",
        "salary",
        "relocate",
        "edu.school",
        "edu.degree",
        "edu.field",
        "how_heard",
        "eeo.race",
        "eeo.veteran",
        "eeo.disability",
        "eeo.hispanic",
    }
)
_URL_WORDS = re.compile(
    r"(?:^|[^a-z])(careers?|jobs?|apply|application|applications|candidate|candidat\w*|bewerb\w*"
    r"|karriere|stellen\w*|vacatures?|vacanc(?:y|ies)|empleos?|vagas?|recrut\w*|recruit\w*"
    r"|postul\w*|emplois?|greenhouse|lever|workday|myworkdayjobs|smartrecruiters|icims|jobvite"
    r"|workable|bamboohr|recruitee|teamtailor|taleo|personio|ashbyhq)(?:[^a-z]|$)"
)
# Label words saying the employer or title asked is the person's own, current one.
_OWN_JOB = re.compile(
    r"\b(current|currently|present|most recent|latest|employer|employers|arbeitgeber|aktuell\w*"
    r"|derzeitig\w*|jetzig\w*|employeur|actuel\w*|empleador|actual|empregador|atual|werkgever"
    r"|huidig\w*)\b"
)


def is_application(urls: list[str], title: str, keys: set[str], adapters: tuple[str, ...]) -> bool:
    if adapters or keys & APPLICATION_KEYS:
        return True
    hay = " ".join([title, *urls]).casefold()
    return bool(_URL_WORDS.search(hay))


def names_own_job(ft: FieldText) -> bool:
    """The label (or aria / placeholder) says current employer / title, not just "Company"."""
    text = " ".join(" ".join(ft.texts.get(a, ())) for a in ("label", "aria", "placeholder"))
    return bool(_OWN_JOB.search(text))
