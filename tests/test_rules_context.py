"""Decisions that depend on the page around a field: page kind, page defaults, neighbours."""

from __future__ import annotations

import pytest

from bridge.forms import FieldOption, FormField
from bridge.rules.countries import countries_in
from tests.test_rules_support import field, one, profile, run

CHECKOUT = "https://shop.example.com/checkout"
STATES = ["State", "Alabama", "Alaska", "Arizona", "California", "Texas"]


def _state_select(selected: str, **kw: object) -> FormField:
    opts = [
        FieldOption(value="" if s == "State" else s, text=s, selected=s == selected) for s in STATES
    ]
    return field("State", "select", options=opts, value=selected, **kw)


def test_employer_and_title_only_on_job_applications() -> None:
    ds = run(field("Company Name"), field("Title"), field("Email", "email"), url=CHECKOUT)
    assert [(d.key, d.status.value) for d in ds[:2]] == [
        ("work.company", "leave"),
        ("work.title", "leave"),
    ]
    assert "not a job application" in ds[0].reason
    # The label says it is the person's own, current job: fine anywhere.
    d = one(field("Current employer"), url=CHECKOUT)
    assert d.value == "Analytical Engines Inc"
    # An application (by URL, or by what the form asks) gets both.
    assert one(field("Company"), url="https://jobs.example.com/123").status.value == "fill"
    ds = run(field("Company"), field("Resume", "file"), url="https://example.com/form")
    assert ds[0].value == "Analytical Engines Inc"


def test_a_gender_question_alone_does_not_make_a_sign_up_an_application() -> None:
    gender = field("Gender", "select", options=["", "Female", "Male"])
    ds = run(gender, field("Job title"), url="https://shop.example.com/register")
    assert (ds[1].key, ds[1].status.value) == ("work.title", "leave"), ds[1].reason
    # Beside something only an application asks, the same fields are an application's.
    ds = run(gender, field("Job title"), field("Resume", "file"), url=CHECKOUT)
    assert ds[1].value == "Senior Backend Engineer"


def test_autocomplete_organization_on_a_checkout_is_left() -> None:
    d = one(field("Company (optional)", autocomplete="organization"), url=CHECKOUT)
    assert d.key == "work.company" and d.status.value == "leave"


def test_first_entry_of_a_state_list_is_the_page_default() -> None:
    d = one(_state_select("Alabama"), url=CHECKOUT)
    assert (d.status.value, d.value) == ("fill", "California")


def test_a_state_picked_further_down_is_kept() -> None:
    assert one(_state_select("Texas"), url=CHECKOUT).status.value == "keep"
    edited = _state_select("Alabama", user_edited=True)
    assert one(edited, url=CHECKOUT).status.value == "keep"


def test_country_list_default_replaced_but_agreement_changes_nothing() -> None:
    names = ["Select Country", "Malta", "Afghanistan", "Canada", "United States"]
    opts = [FieldOption(value=n, text=n, selected=n == "Malta") for n in names]
    d = one(field("Country/Region", "select", options=opts, value="Malta"), url=CHECKOUT)
    assert (d.key, d.value) == ("address.country", "United States")


def test_editable_combobox_with_empty_text_has_no_value() -> None:
    stray = [FieldOption(value="Standard", text="Standard delivery", selected=True)]
    f = field("Address line 1", "combobox", tag="input", role="combobox", options=stray)
    d = one(f, url=CHECKOUT)
    assert d.key == "address.line1" and d.status.value != "keep"


def test_select_without_options_is_not_typed_into() -> None:
    d = one(field("Please select your city", "select"), url=CHECKOUT)
    assert d.action.value == "none"


def test_additional_information_after_the_street_is_line_two() -> None:
    ds = run(field("Dirección"), field("Información adicional"), field("Ciudad"), url=CHECKOUT)
    assert [d.value for d in ds] == ["2710 Mission St", "Apt 4", "San Francisco"]
    # Not after a street line: an open question, left alone.
    assert one(field("Información adicional"), url=CHECKOUT).status.value == "leave"


def test_country_question_wording_does_not_hide_the_job_country() -> None:
    yes_no = ["", "Yes", "No"]
    ds = run(
        field(
            "Are you legally authorized to work in the country where this job is?",
            "select",
            options=yes_no,
        ),
        field(
            "Do you have the right to work in the United Kingdom without sponsorship?",
            "select",
            options=yes_no,
        ),
        job_text="Are you legally authorized to work in the country where this job is?\n"
        "Do you have the right to work in the United Kingdom without sponsorship?\n"
        "Are you willing to relocate to Santa Clara, CA?",
    )
    assert [d.value for d in ds] == ["Yes", "No"]


def test_countries_in_running_text() -> None:
    assert countries_in("Offices in New Mexico and Germany") == ["DE"]
    assert countries_in("Based in the United Kingdom, remote from the USA") == ["GB", "US"]
    assert countries_in("Nothing here") == []


def test_a_label_without_letters_is_a_sample_value() -> None:
    d = one(field("94107", placeholder="94107", html_id="example3-zip"), url=CHECKOUT)
    assert (d.key, d.value) == ("address.postal", "94110")


def test_country_names_under_a_country_code_id_are_the_country() -> None:
    names = [
        "Select a country",
        "Afghanistan",
        "Albania",
        "Canada",
        "Germany",
        "France",
        "Spain",
        "United States",
        "Mexico",
    ]
    f = field("Country", "select", options=names, name="shippingAddress.countryCode")
    assert one(f, url=CHECKOUT).key == "address.country"


def test_saved_answer_offered_for_the_same_question_in_another_language() -> None:
    d = one(field("Warum interessieren Sie sich für diese Position?", "textarea"))
    assert d.source.value == "saved_answer" and d.status.value == "flag"
    assert d.value == "I like owning backend systems end to end."
    assert "same question" in d.reason
    # A different question (about the company, not the role) gets nothing.
    assert one(field("Warum möchten Sie bei uns arbeiten?", "textarea")).status.value == "leave"
    # A list cannot take a sentence in another language.
    d = one(field("Pourquoi ce poste vous intéresse-t-il ?", "select", options=["", "A", "B"]))
    assert d.status.value == "leave"
    # Two saved answers that would both fit: the person chooses.
    both = profile(
        application__answers=[
            {"question": "Why are you interested in this role?", "answer": "One."},
            {"question": "Why do you want this job?", "answer": "Two."},
        ]
    )
    d = one(field("Pourquoi ce poste vous intéresse-t-il ?", "textarea"), lp=both)
    assert d.status.value == "leave"


def test_ats_adapters_for_taleo_blocks_and_jobvite_attachments() -> None:
    prefix = "et-ef-content-ftf-gp-j_id_id16pc9-page_1-"
    ds = run(
        field("Job Function", html_id=f"{prefix}we-wei-0-frm-dv_cs_experience_JobFunction"),
        field("Program", html_id=f"{prefix}csef-efi-0-frm-dv_cs_education_Program"),
    )
    assert [d.value for d in ds] == ["Senior Backend Engineer", "Computer Science"]
    ds = run(
        field("First", html_id="jv-field-abc", autocomplete="given-name"),
        field("File", "file", html_id="file-input-0"),
        field("File", "file", html_id="file-input-1"),
    )
    assert [d.key for d in ds[1:]] == ["documents.resume", "documents.cover_letter"]
    assert ds[2].action.value == "none"  # the profile has no cover letter


# Someone else's details: a gift's recipient, a child. (A plain "Recipient name" on a shipping
# form is the buyer's own, so it is not among them.)
@pytest.mark.parametrize(
    ("label", "widget"),
    [
        ("Gift recipient email", "email"),
        ("Recipient's email", "text"),
        ("Child's name", "text"),
        ("Child's email", "email"),
    ],
)
def test_a_recipients_or_childs_details_are_left(label: str, widget: str) -> None:
    d = one(field(label, widget), url=CHECKOUT)
    assert d.status.value == "leave" and not d.value, (d.key, d.reason)


def test_a_shipping_recipient_is_the_buyer() -> None:
    d = one(field("Recipient name"), url=CHECKOUT)
    assert d.value == "Ada Quinn Lovelace", d.reason


# A field whose own label names another person (a supervisor, a recruiter, a friend) is theirs,
# typed as an email box or not, in each language Relay reads.
@pytest.mark.parametrize(
    ("label", "widget"),
    [
        ("Supervisor email", "email"),
        ("Recruiter email", "email"),
        ("Friend's email", "email"),
        ("Manager email (optional)", "email"),
        ("E-Mail Ihres Vorgesetzten", "email"),
        ("Correo de tu jefe", "email"),
        ("E-mail do seu gestor", "email"),
        ("E-mailadres van je leidinggevende", "email"),
        ("Téléphone de votre supérieur", "tel"),
        ("Nombre de tu reclutador", "text"),
    ],
)
def test_another_persons_details_named_by_the_label_are_left(label: str, widget: str) -> None:
    d = one(field(label, widget, type=widget))
    assert d.status.value == "leave" and not d.value, (d.key, d.reason)


def test_the_persons_own_email_is_still_given() -> None:
    for label in ("Email", "Work email", "E-Mail-Adresse", "Correo electrónico", "Your email"):
        d = one(field(label, "email", type="email"))
        assert d.value == "ada.lovelace@example.com", (label, d.reason)
