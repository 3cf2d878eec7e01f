"""What a request may carry: never EEO answers, credentials, ID numbers or date of birth."""

from __future__ import annotations

import json
from typing import Any

from bridge.forms import Widget
from bridge.llm.escalate import escalate
from bridge.llm.facts import profile_facts
from bridge.llm.ledger import MemoryLedger
from bridge.llm.privacy import field_privacy
from bridge.profile import parse_profile
from tests.llm_server import (
    SAMPLE_PROFILE,
    LlmServer,
    Reply,
    ffield,
    leave,
    llm_server,
    llm_server_session,
    make_config,
    question_ids,
    request_of,
)

__all__ = ["llm_server", "llm_server_session"]


def _profile() -> Any:
    raw = json.loads(SAMPLE_PROFILE.read_text())
    raw["basics"]["birthDate"] = "1990-04-17"
    raw["application"]["passportNumber"] = "X12345678"
    raw["application"]["ssn"] = "078-05-1120"
    raw["application"]["portalPassword"] = "hunter2-portal"
    return parse_profile(raw, SAMPLE_PROFILE.parent)


PRIVATE_FIELDS = [
    ffield("e1", "Gender", Widget.SELECT, ["Male", "Female", "Decline to self identify"]),
    ffield("e2", "Are you Hispanic/Latino?", Widget.RADIO_GROUP, ["Yes", "No"]),
    ffield(
        "e3",
        "Veteran status",
        Widget.SELECT,
        ["I am a protected veteran", "I am not a protected veteran"],
    ),
    ffield("e4", "Disability status", Widget.SELECT, ["Yes", "No", "I don't wish to answer"]),
    ffield("e5", "Race", Widget.SELECT, ["Asian", "White", "Decline"]),
    ffield("c1", "Create a password", Widget.PASSWORD),
    ffield("c2", "Security question: mother's maiden name"),
    ffield("i1", "Social Security Number"),
    ffield("i2", "Passport number"),
    ffield("i3", "National Insurance number"),
    ffield("d1", "Date of birth", Widget.DATE),
    ffield("d2", "Birthday"),
]


def test_private_fields_are_recognised() -> None:
    assert all(field_privacy(f) for f in PRIVATE_FIELDS)
    assert field_privacy(ffield("x", "Current employer")) is None


def test_private_profile_paths_are_not_facts() -> None:
    paths = {f.path for f in profile_facts(_profile())}
    assert not any(p.startswith("application.eeo") for p in paths)
    assert (
        not {
            "basics.birthDate",
            "application.passportNumber",
            "application.ssn",
            "application.portalPassword",
            "basics.email",
            "basics.phone",
        }
        & paths
    )


def test_no_private_text_in_any_request(llm_server: LlmServer) -> None:
    def everything(body: dict[str, Any]) -> Reply:
        return Reply({"fields": {q: {"skip": "no"} for q in question_ids(body)}})

    llm_server.script = everything
    public = [ffield("p1", "Current employer"), ffield("p2", "Describe a project", Widget.TEXTAREA)]
    fields = [*PRIVATE_FIELDS, *public]
    job = (
        "Great job. Date of birth: 1990-04-17 is required. Candidate SSN 078-05-1120. "
        "We value Female engineers."
    )
    config = make_config(llm_server)
    result = escalate(
        request_of(fields, job_text=job),
        _profile(),
        [leave(f) for f in fields],
        run_id="p",
        ledger=MemoryLedger(),
        config=config,
    )
    assert result.asked == 2
    assert len(llm_server.requests) == 2
    forbidden = [
        "Female",
        "I am not a protected veteran",
        "Gender",
        "Veteran",
        "Disability",
        "Hispanic",
        "1990-04-17",
        "1990",
        "X12345678",
        "078-05-1120",
        "hunter2",
        "maiden",
        "Passport",
        "Social Security",
        config.api_key,
        "ada.lovelace@example.com",
        "415 555 0142",
        "2710 Mission",
        "94110",
    ]
    for raw in llm_server.raw_bodies:
        for text in forbidden:
            assert text not in raw, text


def test_a_question_is_private_by_its_self_identification_options() -> None:
    vague = ffield("v1", "How do you identify?", Widget.RADIO_GROUP, ["Woman", "Man", "Female",
                                                                       "Male", "Non-binary"])
    assert field_privacy(vague) == "private: self-identification question"
    group = ffield("v2", "Which best describes you?", Widget.SELECT,
                   ["Asian", "Black or African American", "White", "Prefer not to say"])
    assert field_privacy(group) == "private: self-identification question"
    ordinary = ffield("v3", "Which cloud do you use most?", Widget.SELECT, ["AWS", "GCP", "Azure"])
    assert field_privacy(ordinary) is None


def test_scrub_drops_whole_lines_and_never_marks_a_value() -> None:
    from bridge.llm.privacy import scrub, scrub_contact

    text = "Gender\nSelect…\nMale\nFemale\nWe hire engineers.\nSSN 078-05-1120\nBorn on 1 May 1990"
    out = scrub(text, ["Male", "No", "decline"])
    assert out.splitlines() == ["Gender", "Select…", "Female", "We hire engineers."]
    assert "[" not in out and "removed" not in out
    resume = "Ada Lovelace\nada@example.com | +1 415 555 0142\nAcme, 2015 - 2019 (4 years)\n"
    kept = ["Ada Lovelace", "Acme, 2015 - 2019 (4 years)"]
    assert scrub_contact(resume, "US").splitlines() == kept


def test_canadas_employment_equity_questions_stay_private() -> None:
    # Relay leaves "a visible minority?" where the profile gives a race: it must not go out.
    for label in ("Do you identify as a member of a visible minority?",
                  "Vous identifiez-vous comme une personne autochtone ?",
                  "Do you identify as a woman?"):
        asked = ffield("e1", label, Widget.RADIO_GROUP, ["Yes", "No", "I prefer not to answer"])
        assert field_privacy(asked) == "private: self-identification question", label
