"""The engine end to end over snapshots: keys, keep, never-fill, unknown, adapters, files, speed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bridge.forms import Action, FieldOption, FillRequest, FormField, FrameSnapshot
from bridge.rules.data import rules_dir
from bridge.rules.engine import decide
from tests.test_rules_support import field, one, profile, run


def test_rules_dir_is_the_repo_folder() -> None:
    assert (rules_dir() / "fields" / "en.toml").is_file()


def test_basics_fill() -> None:
    ds = run(
        field("First Name"),
        field("Last Name"),
        field("Email", "email"),
        field("Full name"),
        field("LinkedIn Profile", "url"),
        field("GitHub", "url"),
        field("Website", "url"),
    )
    assert [d.value for d in ds] == [
        "Ada",
        "Lovelace",
        "ada.lovelace@example.com",
        "Ada Quinn Lovelace",
        "https://www.linkedin.com/in/adaqlovelace",
        "https://github.com/adaq",
        "https://ada.example.dev",
    ]
    assert all(d.status.value == "fill" and d.source.value == "profile" for d in ds)
    assert ds[0].key == "name.first" and ds[0].reason.startswith("patterns:")


def test_one_decision_per_field_in_order_across_frames() -> None:
    req = FillRequest(
        frames=[
            FrameSnapshot(frame="0", fields=[FormField(id="f1", label="Email", widget="email")]),
            FrameSnapshot(
                frame="1",
                fields=[
                    FormField(id="f1", frame="1", label="Phone", widget="tel"),
                    FormField(id="f2", frame="1", label="Zzz", widget="text"),
                ],
            ),
        ]
    )
    ds = decide(req, profile())
    assert [(d.frame, d.field_id, d.key) for d in ds] == [
        ("0", "f1", "basics.email"),
        ("1", "f1", "phone.full"),
        ("1", "f2", ""),
    ]


def test_autocomplete_wins() -> None:
    d = one(field("Zzz", autocomplete="given-name"))
    assert d.value == "Ada" and d.reason == "autocomplete:given-name"
    assert one(field("", autocomplete="shipping family-name")).value == "Lovelace"


def test_names_in_parts() -> None:
    ds = run(field("First name"), field("Middle name"), field("Last name"), field("Preferred name"))
    assert [d.value for d in ds] == ["Ada", "Quinn", "Lovelace", "Ada"]


def test_address_lines_split_when_a_second_line_is_asked() -> None:
    ds = run(field("Address line 1"), field("Address line 2"), field("City"), field("ZIP code"))
    assert [d.value for d in ds] == ["2710 Mission St", "Apt 4", "San Francisco", "94110"]
    assert one(field("Street address")).value == "2710 Mission St, Apt 4"


def test_keep_values_and_user_edits() -> None:
    assert one(field("First name", value="Bob")).status.value == "keep"
    assert one(field("First name", user_edited=True)).status.value == "keep"
    placeholder = [
        FieldOption(value="", text="Select...", selected=True),
        FieldOption(value="US", text="United States"),
    ]
    d = one(field("Country", "select", options=placeholder, value="Select..."))
    assert d.status.value == "fill" and d.values == ["US"]


def test_never_fill() -> None:
    cases = [
        field("Password", "password"),
        field("Social Security Number"),
        field("Date of Birth", "date"),
        field("Card number"),
        field("CVV"),
        field("Please leave this field blank", html_id="preferredName"),
        field("I agree to the Terms and Privacy Policy", "checkbox"),
        field("I certify that the information above is true and complete", "checkbox"),
        field("Signature"),
        field("Type your full legal name to certify that the information above is accurate"),
        field("", "hidden", name="website"),
        field("Zzz", autocomplete="cc-number"),
    ]
    for d in run(*cases):
        assert d.status.value == "never", d
        assert d.action == Action.NONE and d.reason.startswith("never-fill:")


def test_unknown_and_no_answer() -> None:
    d = one(field("Favourite colour"))
    assert (d.key, d.status.value, d.reason) == ("", "leave", "unknown")
    d = one(field("Twitter"))
    assert (
        d.key == "links.twitter" and d.status.value == "leave" and d.reason.startswith("no-answer")
    )
    assert one(field("Cover letter", "file")).status.value == "leave"
    assert one(field("Referred by")).status.value == "leave"


def test_saved_answer_is_flagged() -> None:
    d = one(field("Why are you interested in this role?", "textarea"))
    assert d.source.value == "saved_answer" and d.status.value == "flag"
    assert d.value == "I like owning backend systems end to end."


def test_resume_attach(tmp_path: Path) -> None:
    (tmp_path / "resume.pdf").write_bytes(b"%PDF-1.4")
    d = one(field("Resume/CV", "file"), lp=profile(tmp_path))
    assert d.action == Action.ATTACH and d.file is not None
    assert d.file.name == "resume.pdf" and d.file.mime == "application/pdf" and not d.file.data_b64
    assert one(field("Resume/CV", "file")).status.value == "leave"  # the file is not there


def test_radio_group_with_option_controls() -> None:
    opts = [
        FieldOption(value="on", text="Yes", field_id="f2"),
        FieldOption(value="on", text="No", field_id="f3"),
    ]
    d = one(field("Are you willing to relocate?", "radio_group", options=opts))
    # Every radio says value="on": the option is told apart by its label.
    assert d.action == Action.CHOOSE and d.value == "Yes" and d.values == ["Yes"]


def test_single_checkbox_yes_no() -> None:
    d = one(field("I am willing to relocate", "checkbox"))
    assert d.action == Action.CHECK and d.checked is True


def test_ats_adapter_wins() -> None:
    d = one(
        field(
            "Zzz", name="firstName", attrs={"data-automation-id": "formField-legalName--firstName"}
        ),
        url="https://acme.wd5.myworkdayjobs.com/apply",
    )
    assert d.value == "Ada" and d.reason == "ats-adapter:workday"
    d = one(field("", name="urls[LinkedIn]"), url="https://jobs.lever.co/acme/1/apply")
    assert d.key == "links.linkedin" and d.reason == "ats-adapter:lever"


def test_other_persons_details_are_not_the_profiles() -> None:
    d = one(field("Name", section="Emergency contact"))
    assert d.status.value == "leave" and d.action == Action.NONE


def test_typeahead_without_options() -> None:
    d = one(field("Location (City)", "combobox"))
    assert d.action == Action.CHOOSE and d.value == "San Francisco"
    assert one(field("Location (City)")).value == "San Francisco, California, United States"


def test_planning_is_fast() -> None:
    labels = [
        "First name",
        "Last name",
        "Email",
        "Phone",
        "Address",
        "City",
        "State",
        "ZIP",
        "LinkedIn",
        "Website",
        "Current company",
        "Current title",
        "Desired salary",
        "Are you legally authorized to work in the United States?",
        "Gender",
        "Race",
        "Veteran status",
        "Disability status",
        "Why do you want this job?",
        "Resume",
    ]
    fields = [
        field(
            lab,
            "select" if i >= 14 and i < 18 else "text",
            options=["Yes", "No", "Decline to answer"] if 14 <= i < 18 else None,
        )
        for i, lab in enumerate(labels)
    ] * 3
    lp = profile()
    run(*fields, lp=lp)
    start = time.perf_counter()
    for _ in range(10):
        run(*fields, lp=lp)
    per_form_ms = (time.perf_counter() - start) * 100
    assert per_form_ms < 250  # generous for loaded CI machines; a few ms when idle


def test_signature_blocks_are_never_filled() -> None:
    ds = run(
        field("Name", section="Voluntary Self-Identification - Signature"),
        field("Date", "date", section="Voluntary Self-Identification - Signature"),
    )
    assert [d.status.value for d in ds] == ["never", "never"]


def test_lone_nombre_is_the_full_name() -> None:
    assert one(field("Nombre")).value == "Ada Quinn Lovelace"
    ds = run(field("Nombre"), field("Apellidos"))
    assert [d.value for d in ds] == ["Ada", "Lovelace"]


ADAPTER_CASES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "https://job-boards.greenhouse.io/acme/jobs/1",
        {"html_id": "first_name"},
        "greenhouse",
        "Ada",
    ),
    (
        "https://boards.greenhouse.io/acme/jobs/1",
        {"name": "job_application[last_name]"},
        "greenhouse",
        "Lovelace",
    ),
    ("https://jobs.lever.co/acme/1/apply", {"name": "name"}, "lever", "Ada Quinn Lovelace"),
    (
        "https://jobs.ashbyhq.com/acme/1/application",
        {"html_id": "_systemfield_email"},
        "ashby",
        "ada.lovelace@example.com",
    ),
    (
        "https://acme.wd1.myworkdayjobs.com/x",
        {
            "attrs": {
                "data-automation-id": "formField-legalName--lastName",
                "data-fkit-id": "name--legalName--lastName",
            }
        },
        "workday",
        "Lovelace",
    ),
    (
        "https://jobs.smartrecruiters.com/x",
        {"attrs": {"data-test": "personal-info-first-name-input"}},
        "smartrecruiters",
        "Ada",
    ),
    (
        "https://careers-acme.icims.com/jobs/1/apply?in_iframe=1",
        {"html_id": "PersonProfileFields.LastName"},
        "icims",
        "Lovelace",
    ),
    (
        "https://apply.workable.com/acme/j/1/apply",
        {"attrs": {"data-ui": "firstname"}},
        "workable",
        "Ada",
    ),
    (
        "https://acme.bamboohr.com/careers/1",
        {"html_id": "linkedinUrl"},
        "bamboohr",
        "https://www.linkedin.com/in/adaqlovelace",
    ),
    (
        "https://acme.recruitee.com/o/eng",
        {"name": "candidate.email"},
        "recruitee",
        "ada.lovelace@example.com",
    ),
    (
        "https://acme.teamtailor.com/jobs/1/applications/new",
        {"name": "candidate[first_name]"},
        "teamtailor",
        "Ada",
    ),
    (
        "https://acme.taleo.net/careersection/apply",
        {
            "html_id": "et-ef-content-ftf-gp-j_id_id16pc9-page_0-cpi-cfrmsub-frm-"
            "dv_cs_candidate_personal_info_LastName"
        },
        "oracle",
        "Lovelace",
    ),
]


def test_every_adapter() -> None:
    for url, attrs, name, value in ADAPTER_CASES:
        d = one(field("Zzz", **attrs), url=url)
        assert d.reason == f"ats-adapter:{name}", (name, d.reason)
        assert d.value == value, (name, d.value)


def test_adapter_recognised_from_field_signatures_on_loopback() -> None:
    d = one(
        field("", attrs={"data-ui": "firstname"}),
        url="http://127.0.0.1:8000/ats/workable/index.html",
    )
    assert d.reason == "ats-adapter:workable" and d.value == "Ada"


def test_adapter_never_keys() -> None:
    d = one(field("", name="eeo[disabilitySignature]"), url="https://jobs.lever.co/acme/1/apply")
    assert d.status.value == "never"
    d = one(
        field("Website", name="website", attrs={"data-automation-id": "beecatcher"}),
        url="https://acme.wd1.myworkdayjobs.com/x",
    )
    assert d.status.value == "never"


def test_hidden_text_fields_are_never_filled_now() -> None:
    ds = run(
        field("Email", "email", visible=False, hidden_reason="transparent (opacity 0)"),
        field("Website", attrs={"class": "sr-only"}),
    )
    assert [d.status.value for d in ds] == ["never", "never"]
    assert all(d.action.value == "none" and not d.value for d in ds)
    assert ds[0].key == "basics.email"
    assert "you cannot see this field (transparent (opacity 0))" in ds[0].reason
    assert "honeypot" in ds[0].reason


def test_no_field_the_person_cannot_see_is_filled(tmp_path: Path) -> None:
    """Selects, choices, widgets and files too: a page can read them back (a harvester)."""
    (tmp_path / "resume.pdf").write_bytes(b"%PDF-1.4")
    lp = profile(tmp_path)
    gender = ["Male", "Female", "Decline to self-identify"]
    hidden = [
        field("Gender", "select", options=gender, hidden_reason="covered by another element"),
        field("Are you legally authorized to work in the US?", "radio_group", options=["Yes", "No"],
              hidden_reason="outside the page"),
        field("How did you hear about us?", "combobox", options=["LinkedIn", "Indeed"],
              hidden_reason="inside a collapsed container"),
        field("Are you willing to relocate?", "checkbox", hidden_reason="clipped"),
        field("Resume/CV", "file", hidden_reason="in a frame you cannot see"),
        field("Earliest start date", "date", hidden_reason=""),
    ]
    shown = run(*hidden, lp=lp)
    assert [d.status.value for d in shown] == ["fill"] * len(hidden)  # the same fields, seen
    ds = run(*[f.model_copy(update={"visible": False}) for f in hidden], lp=lp)
    for d, f in zip(ds, hidden, strict=True):
        assert d.status.value == "leave" and d.action.value == "none", (f.label, d)
        assert not d.value and not d.values and d.file is None and d.checked is None
        why = f.hidden_reason or "hidden"
        assert d.reason == f"not filled: you cannot see this field ({why})", d.reason
    assert ds[0].key == "eeo.gender"  # what it asks is still known, for the report


def test_a_hidden_field_keeps_its_value_and_never_fill_comes_first() -> None:
    kept = one(field("Email", "email", visible=False, value="a@b.example"))
    assert kept.status.value == "keep"
    never = one(field("Social Security Number", visible=False))
    assert never.status.value == "never" and "cannot see" not in never.reason


def test_hidden_reason_is_bounded() -> None:
    with pytest.raises(ValidationError):
        FormField(id="f1", hidden_reason="x" * 201)
