"""Options: yes/no wordings, EEO incl. decline variants, countries in several languages, states,
buckets, notice periods, degrees."""

from __future__ import annotations

import pytest

from bridge.forms import FieldOption
from bridge.rules.options import is_decline, is_placeholder, option_range, yes_no_options
from tests.test_rules_support import field, one, profile


@pytest.mark.parametrize(
    "text",
    [
        "Decline To Self Identify",
        "I don't wish to answer",
        "Prefer not to say",
        "I prefer not to disclose",
        "I do not want to answer",
        "I decline to self-identify for protected veteran status",
        "Choose not to disclose",
        "Keine Angabe",
        "Je ne souhaite pas répondre",
        "Prefiero no decirlo",
        "Prefiro não responder",
        "Zeg ik liever niet",
        "I do not wish to self-identify",
    ],
)
def test_decline_variants(text: str) -> None:
    assert is_decline(FieldOption(text=text))


@pytest.mark.parametrize("text", ["Female", "No", "I am not a protected veteran", "Asian"])
def test_not_decline(text: str) -> None:
    assert not is_decline(FieldOption(text=text))


@pytest.mark.parametrize(
    ("yes", "no"),
    [
        ("Yes", "No"),
        ("Ja", "Nein"),
        ("Oui", "Non"),
        ("Sí", "No"),
        ("Sim", "Não"),
        ("Ja", "Nee"),
        ("Yes, I am", "No, I am not"),
        ("true", "false"),
    ],
)
def test_yes_no_wordings(yes: str, no: str) -> None:
    pairs = yes_no_options(
        [FieldOption(text="Select one"), FieldOption(text=yes), FieldOption(text=no)]
    )
    assert pairs is not None
    assert pairs["yes"].text == yes and pairs["no"].text == no


def test_placeholders() -> None:
    for text in (
        "Select...",
        "-- Please select --",
        "— Make a Selection —",
        "Bitte wählen",
        "Choose one",
    ):
        assert is_placeholder(FieldOption(value="", text=text))
    assert not is_placeholder(FieldOption(value="US", text="United States"))


GENDER = ["Male", "Female", "Non-binary", "Decline To Self Identify"]


def test_eeo_from_profile_and_decline() -> None:
    assert one(field("Gender", "select", options=GENDER)).value == "Female"
    woman = one(field("Gender", "select", options=["Man", "Woman", "Prefer not to say"]))
    assert woman.value == "Woman"
    race = [
        "White",
        "Asian",
        "Black or African American",
        "Two or more races",
        "I don't wish to answer",
    ]
    assert one(field("Race", "select", options=race)).value == "I don't wish to answer"
    vet = [
        "I identify as one or more of the classifications of protected veteran",
        "I am not a protected veteran",
        "I don't wish to answer",
    ]
    assert (
        one(field("Veteran Status", "select", options=vet)).value == "I am not a protected veteran"
    )


def test_eeo_missing_key_means_decline_and_no_decline_option_leaves() -> None:
    lp = profile(application__eeo={})
    assert one(field("Gender", "select", options=GENDER), lp=lp).value == "Decline To Self Identify"
    d = one(field("Gender", "select", options=["Male", "Female"]), lp=lp)
    assert d.status.value == "leave" and d.key == "eeo.gender"


def test_eeo_options_alone_tell_the_question() -> None:
    d = one(field("", "radio_group", options=GENDER))
    assert d.key == "eeo.gender" and d.value == "Female"


@pytest.mark.parametrize(
    "options",
    [
        [("US", "United States"), ("DE", "Germany"), ("FR", "France")],
        [("1", "Vereinigte Staaten"), ("2", "Deutschland"), ("3", "Frankreich")],
        [("a", "États-Unis"), ("b", "Allemagne"), ("c", "France")],
        [("x", "Estados Unidos"), ("y", "Alemania"), ("z", "Francia")],
        [("n", "Verenigde Staten"), ("m", "Duitsland"), ("o", "Frankrijk")],
        [("US", "USA"), ("GB", "UK"), ("DE", "Germany")],
        [("840", "United States of America"), ("276", "Germany"), ("250", "France")],
    ],
)
def test_countries_in_several_languages(options: list[tuple[str, str]]) -> None:
    opts = [FieldOption(value=v, text=t) for v, t in options]
    d = one(field("Country", "select", options=opts))
    assert d.key == "address.country" and d.values == [options[0][0]]


def test_country_list_recognised_without_label() -> None:
    names = [
        "Canada",
        "Germany",
        "France",
        "Spain",
        "Italy",
        "Japan",
        "Brazil",
        "India",
        "United States",
        "Mexico",
    ]
    d = one(field("", "select", options=names))
    assert d.key == "address.country" and d.value == "United States"


def test_states_by_name_and_code() -> None:
    assert (
        one(field("State", "select", options=["Arizona", "California", "Texas"])).value
        == "California"
    )
    opts = [FieldOption(value="AZ", text="AZ"), FieldOption(value="CA", text="CA")]
    assert one(field("State", "select", options=opts)).values == ["CA"]


def test_phone_country_code_options() -> None:
    opts = ["Canada +1", "Germany +49", "United States +1", "United Kingdom +44"]
    d = one(field("Country code", "select", options=opts))
    assert d.key == "phone.country_code" and d.value == "United States +1"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["0-2 years", "3-5 years", "6-10 years", "10+ years"], "6-10 years"),
        (["Less than 2 years", "2-4 years", "5-8 years", "More than 8 years"], "More than 8 years"),
        (["1 to 3", "3 to 5", "5 to 10", "10 or more"], "5 to 10"),
    ],
)
def test_experience_buckets(options: list[str], expected: str) -> None:
    assert one(field("Years of experience", "select", options=options)).value == expected


def test_option_ranges() -> None:
    assert option_range("10+ years") == (10.0, float("inf"))
    assert option_range("3-5") == (3.0, 5.0)


def test_notice_period_options() -> None:
    opts = ["Immediately", "2 Weeks", "1 Month", "2 Months", "3 Months or more"]
    assert one(field("Notice period", "select", options=opts)).value == "1 Month"
    assert (
        one(field("Kündigungsfrist", "select", options=["Sofort", "4 Wochen", "3 Monate"])).value
        == "4 Wochen"
    )


def test_degree_levels() -> None:
    opts = [
        "High School",
        "Associate's Degree",
        "Bachelor's Degree",
        "Master's Degree",
        "Doctorate",
    ]
    d = one(field("Highest level of education", "select", options=opts))
    assert d.key == "edu.degree" and d.value == "Bachelor's Degree"


def test_how_heard_category_for_two_level_lists() -> None:
    opts = ["Job Board", "Social Network", "Employee Referral"]
    assert one(field("Source Type", "select", options=opts, name="sourceType")).value in (
        "",
        "Social Network",
    )
    assert (
        one(field("How did you hear about us?", "select", options=opts)).value == "Social Network"
    )


def test_salary_buckets() -> None:
    opts = ["$100,000 - $150,000", "$150,001 - $200,000", "$200,001+"]
    assert one(field("Desired salary (USD)", "select", options=opts)).value == "$150,001 - $200,000"
    assert (
        one(field("Salary expectation", "select", options=["100k-150k", "150k-200k"])).value
        == "150k-200k"
    )
