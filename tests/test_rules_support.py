"""Builders shared by the rules-engine tests (no tests here)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from bridge.forms import FieldDecision, FieldOption, FillRequest, FormField, FrameSnapshot
from bridge.profile import LoadedProfile, parse_profile
from bridge.rules.engine import decide

PROFILE: dict[str, Any] = {
    "basics": {
        "name": "Ada Quinn Lovelace",
        "email": "ada.lovelace@example.com",
        "phone": "+1 415 555 0142",
        "url": "https://ada.example.dev",
        "location": {
            "address": "2710 Mission St, Apt 4",
            "postalCode": "94110",
            "city": "San Francisco",
            "countryCode": "US",
            "region": "California",
        },
        "profiles": [
            {"network": "LinkedIn", "url": "https://www.linkedin.com/in/adaqlovelace"},
            {"network": "GitHub", "url": "https://github.com/adaq"},
        ],
    },
    "work": [
        {
            "name": "Analytical Engines Inc",
            "position": "Senior Backend Engineer",
            "startDate": "2021-03-01",
        },
        {
            "name": "Difference Labs",
            "position": "Software Engineer",
            "startDate": "2017-06-01",
            "endDate": "2021-02-15",
        },
    ],
    "education": [
        {
            "institution": "University of California, Berkeley",
            "area": "Computer Science",
            "studyType": "Bachelor of Science",
            "startDate": "2013-08-20",
            "endDate": "2017-05-15",
            "score": "3.8",
        },
    ],
    "languages": [
        {"language": "English", "fluency": "Native speaker"},
        {"language": "Spanish", "fluency": "Professional working proficiency"},
    ],
    "application": {
        "preferredName": "Ada",
        "pronouns": "she/her",
        "authorizedToWork": {"US": True, "CA": False, "GB": False},
        "requiresSponsorship": {"US": False, "CA": True, "GB": True},
        "willingToRelocate": True,
        "noticePeriod": "4 weeks",
        "earliestStartDate": "2027-01-11",
        "salaryExpectation": {"amount": 185000, "currency": "USD", "period": "year"},
        "howDidYouHear": "LinkedIn",
        "yearsOfExperience": 9,
        "over18": True,
        "eeo": {
            "gender": "Female",
            "hispanicOrLatino": "decline",
            "race": "decline",
            "veteranStatus": "I am not a protected veteran",
            "disabilityStatus": "decline",
        },
        "documents": {"resume": "resume.pdf"},
        "answers": [
            {
                "question": "Why are you interested in this role?",
                "answer": "I like owning backend systems end to end.",
            }
        ],
    },
}


def profile(base_dir: Path | None = None, **changes: Any) -> LoadedProfile:
    raw = copy.deepcopy(PROFILE)
    for dotted, value in changes.items():
        node = raw
        *path, last = dotted.split("__")
        for part in path:
            node = node[part]
        node[last] = value
    return parse_profile(raw, base_dir or Path("/nonexistent-relay-test"))


def field(label: str = "", widget: str = "text", **kw: Any) -> FormField:
    options = kw.pop("options", None)
    if options is not None:
        kw["options"] = [
            o if isinstance(o, FieldOption) else FieldOption(value=o, text=o) for o in options
        ]
    return FormField(id=kw.pop("id", "f1"), label=label, widget=widget, **kw)


def run(
    *fields: FormField,
    lp: LoadedProfile | None = None,
    url: str = "https://example.com/apply",
    title: str = "",
    job_text: str = "",
) -> list[FieldDecision]:
    numbered = [f.model_copy(update={"id": f"f{i + 1}"}) for i, f in enumerate(fields)]
    req = FillRequest(
        url=url, title=title, job_text=job_text, frames=[FrameSnapshot(url=url, fields=numbered)]
    )
    return decide(req, lp or profile())


def one(f: FormField, **kw: Any) -> FieldDecision:
    return run(f, **kw)[0]
