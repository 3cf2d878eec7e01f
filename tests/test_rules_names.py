"""Names parsed, not split on spaces: suffixes, particles, two surnames, a preferred name."""

from __future__ import annotations

import pytest

from tests.test_rules_support import field, one, profile, run


def values(name: str, *labels: str, preferred: str | None = None) -> list[str]:
    lp = profile(basics__name=name, application__preferredName=preferred)
    ds = run(*(field(label) for label in labels), lp=lp)
    return [d.value if d.status.value in ("fill", "flag") else "" for d in ds]


@pytest.mark.parametrize(
    ("name", "first", "middle", "last"),
    [
        ("Martin Luther King Jr.", "Martin", "Luther", "King Jr."),
        ("Ludwig Mies van der Rohe", "Ludwig", "Mies", "van der Rohe"),
        ("Juan de la Cruz", "Juan", "", "de la Cruz"),
        ("Anne-Marie van den Berg", "Anne-Marie", "", "van den Berg"),
        ("Dr. Jane Doe", "Jane", "", "Doe"),
    ],
)
def test_first_middle_last(name: str, first: str, middle: str, last: str) -> None:
    assert values(name, "First name", "Middle name", "Last name") == [first, middle, last]


def test_a_suffix_goes_to_its_own_field_when_the_form_has_one() -> None:
    got = values("Martin Luther King Jr.", "First name", "Last name", "Suffix")
    assert got == ["Martin", "King", "Jr."]


def test_two_surnames_when_the_form_asks_for_both() -> None:
    got = values(
        "María José García López", "Nombre", "Primer apellido", "Segundo apellido"
    )
    assert got == ["María José", "García", "López"]


def test_nickname_in_quotes_is_the_preferred_name_and_not_part_of_the_full_name() -> None:
    got = values('Robert "Bob" Smith III', "Full name", "Preferred name", "Last name")
    assert got == ["Robert Smith III", "Bob", "Smith III"]
    assert values('Robert "Bob" Smith', "Preferred name", preferred="Rob") == ["Rob"]


def test_a_salutation_list_is_read_by_the_profiles_gender() -> None:
    # SuccessFactors, Eightfold (de) and Phenom (fr) ask Anrede / Civilité before the name.
    ds = run(
        field("Anrede", "select", options=["Bitte wählen", "Frau", "Herr", "Divers"]),
        field("Civilité", "select", options=["Madame", "Monsieur", "Autre"]),
    )
    assert [d.value for d in ds] == ["Frau", "Madame"]
    assert all(d.status.value == "flag" for d in ds)  # filled, and shown for review
    # Only a plain form: Mrs / Miss tell marital status; a text box or no gender: left.
    assert one(field("Salutation", "select", options=["Mr", "Mrs", "Miss", "Dr"])).value == ""
    assert one(field("Salutation")).value == ""
    lp = profile(application__eeo={"gender": "decline"})
    assert one(field("Anrede", "select", options=["Frau", "Herr"]), lp=lp).value == ""


def test_pronouns_are_found_as_the_pages_language_writes_them() -> None:
    opts = ["", "il/lui", "elle/elle", "iel/iel", "Je préfère ne pas répondre"]
    ds = run(field("Pronoms", "select", options=opts), field("Prénom"), field("Nom de famille"),
             title="Candidature : Ingénieur backend")
    assert ds[0].key == "pronouns" and ds[0].value == "elle/elle", ds[0].reason
    # "elle" is a neutral pronoun in Spanish: never taken there for "she/her".
    opts = ["", "él", "elle", "ella"]
    ds = run(field("Pronombres", "select", options=opts), field("Nombre"), field("Apellidos"),
             title="Solicitud: Ingeniera de backend")
    assert ds[0].value == "ella", ds[0].reason


def test_a_middle_initial_box_gets_the_initial() -> None:
    assert one(field("Middle initial")).value == "Q"
    assert one(field("MI", name="mi")).value == "Q"
    assert one(field("Middle name", max_length=1)).value == "Q"
    assert one(field("Middle name")).value == "Quinn"
