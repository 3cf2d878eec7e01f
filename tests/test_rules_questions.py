"""Work authorization vs sponsorship: polarity, which country, and leaving what cannot be told."""

from __future__ import annotations

import pytest

from tests.test_rules_support import field, one, profile

YES_NO = ["", "Yes", "No"]


def answer(label: str, **kw: object) -> str:
    d = one(field(label, "select", options=YES_NO), **kw)
    return d.value if d.status.value in ("fill", "flag") else f"leave:{d.key}"


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Are you legally authorized to work in the United States?", "Yes"),
        ("Are you legally authorized to work in Canada?", "No"),
        ("Do you have the right to work in the UK?", "No"),
        (
            "Will you now or in the future require sponsorship for employment visa status "
            "(e.g., H-1B) in the United States?",
            "No",
        ),
        ("Will you now or in the future require visa sponsorship to work in Canada?", "Yes"),
        ("Do you NOT require sponsorship to work in the US?", "Yes"),
        ("Are you able to work in the U.S. without sponsorship?", "Yes"),
        ("Are you authorized to work in the United States without requiring sponsorship?", "Yes"),
        ("Are you authorized to work in Canada without sponsorship?", "No"),
        # Only the aside names the country, by its visa: a US one.
        ("Will you now or in the future require Lumina Health to sponsor an employment visa "
         "(e.g. H-1B) for you?", "No"),
    ],
)
def test_polarity_and_named_country(label: str, expected: str) -> None:
    assert answer(label) == expected


def test_country_from_the_job_location() -> None:
    label = "Are you legally authorized to work in the country for which you are applying?"
    assert answer(label, title="Senior Engineer - San Francisco, CA") == "Yes"
    assert answer(label, job_text="Location: Toronto, Canada\nWe build things.") == "No"


def test_unknown_country_is_left() -> None:
    label = "Are you legally authorized to work in the country for which you are applying?"
    assert answer(label) == "leave:auth.work"
    assert answer("Will you require sponsorship?") == "leave:sponsorship"


def test_several_countries_or_a_region_are_left() -> None:
    assert answer("Are you authorized to work in the US or Canada?") == "leave:auth.work"
    assert answer("Do you hold a valid work permit for the European Union?") == "leave:auth.work"


def test_profile_silent_for_that_country_is_left() -> None:
    assert answer("Are you legally authorized to work in Germany?") == "leave:auth.work"
    lp = profile(application__authorizedToWork={})
    assert answer("Are you authorized to work in the United States?", lp=lp) == "leave:auth.work"


def test_yes_no_mapped_onto_statement_options() -> None:
    opts = ["Select...", "Yes, I am authorized to work in the US", "No, I am not authorized"]
    d = one(field("Work authorization in the United States", "select", options=opts))
    assert d.value == "Yes, I am authorized to work in the US"
    opts = ["I will require sponsorship", "I will not require sponsorship"]
    d = one(field("Sponsorship for the US", "radio_group", options=opts))
    assert d.value == "I will not require sponsorship"
    assert d.key == "sponsorship"


def test_text_field_gets_yes_or_no_in_page_language() -> None:
    d = one(field("Are you at least 18 years of age?", "radio_group", options=["Ja", "Nein"]))
    assert d.value == "Ja"


def test_other_yes_no_questions() -> None:
    assert answer("Are you willing to relocate to Austin, TX?") == "Yes"
    assert answer("Are you 18 years of age or older?") == "Yes"
    assert answer("Have you previously worked for Acme Corp?") == "No"
    assert answer("Have you ever been employed by Difference Labs?") == "Yes"
