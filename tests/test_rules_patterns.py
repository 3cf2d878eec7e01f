"""Patterns: whole-word matching, exclusions, every language, ids and names."""

from __future__ import annotations

import pytest

from bridge.rules.features import field_text
from bridge.rules.patterns import sum_scores
from tests.test_rules_support import field, one


def best_key(label: str = "", widget: str = "text", **kw: object) -> str:
    ft = field_text(field(label, widget, **kw))
    totals = sum_scores(ft.hits())
    return max(totals, key=lambda k: totals[k]) if totals else ""


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Username", "account.username"),  # `name` is a word, never a part of one
        ("User name", "account.username"),  # an account, not the person's name
        ("What is your marketing budget?", ""),  # `tin` never inside `marketing`
        ("Grace period (days)", ""),  # `race` never inside `Grace`
        ("Company name", "work.company"),
        ("Last name", "name.last"),
        ("First and last name", "name.full"),
        ("Name", "name.full"),
        ("Email address", "basics.email"),
        ("Confirm email", "basics.email.confirm"),
        ("IP address", ""),
        ("Address line 2", "address.line2"),
        ("Emergency contact phone", ""),
        ("Date of birth", "never.dob"),
        ("Social Security Number", "never.national_id"),
        ("Race", "eeo.race"),
        ("TIN", "never.national_id"),
    ],
)
def test_word_boundaries_and_exclusions(label: str, expected: str) -> None:
    widget = "select" if expected.startswith("eeo.") else "text"
    assert best_key(label, widget) == expected


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Vorname", "name.first"),
        ("Nachname", "name.last"),
        ("Telefonnummer", "phone.full"),
        ("Postleitzahl", "address.postal"),
        ("E-Mail-Adresse", "basics.email"),
        ("Prénom", "name.first"),
        ("Nom de famille", "name.last"),
        ("Nom", "name.last"),
        ("Courriel", "basics.email"),
        ("Code postal", "address.postal"),
        ("Ville", "address.city"),
        ("Nombre", "name.first"),
        ("Primer apellido", "name.last.first"),
        ("Segundo apellido", "name.last.second"),
        ("Correo electrónico", "basics.email"),
        ("Teléfono", "phone.full"),
        ("Sobrenome", "name.last"),
        ("Telefone", "phone.full"),
        ("CEP", "address.postal"),
        ("Voornaam", "name.first"),
        ("Achternaam", "name.last"),
        ("Woonplaats", "address.city"),
        ("Kündigungsfrist", "notice"),
        ("Lebenslauf", "documents.resume"),
        ("Geburtsdatum", "never.dob"),
        ("Mot de passe", "never.password"),
        ("Burgerservicenummer", "never.national_id"),
    ],
)
def test_languages(label: str, expected: str) -> None:
    widget = "file" if expected.startswith("documents.") else "text"
    assert best_key(label, widget) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("first_name", "name.first"),
        ("lastName", "name.last"),
        ("job_application[email]", "basics.email"),
        ("candidate_phone_number", "phone.full"),
        ("zipCode", "address.postal"),
        ("username", "account.username"),
        ("cards[3da58b41][field0]", ""),
    ],
)
def test_names_and_ids(name: str, expected: str) -> None:
    assert best_key(name=name) == expected


def test_a_form_prefix_on_an_id_says_nothing_of_the_field() -> None:
    # Ant Design writes ids as <form>_<field>: a form called "apply" is no "applying for".
    d = one(field("Current title", html_id="apply_current_title", form="apply"))
    assert (d.key, d.value) == ("work.title", "Senior Backend Engineer"), d.reason
    # The same words that are the field's own still exclude.
    d = one(field("Title", html_id="position_applying_for", form="apply"))
    assert d.key != "work.title", d.reason


def test_localized_patterns_do_not_read_ids() -> None:
    # German words in an id are not read (only English patterns read name/id attributes), but
    # for the name parts that some records declare for ids (see below).
    assert best_key(name="strasse_feld") == ""
    assert best_key(name="vorname_feld") == "name.first"


def test_why_questions_are_not_profile_fields() -> None:
    assert best_key("Warum interessieren Sie sich für diese Position?", "textarea") == ""
    assert one(field("Why do you want to work at our company?", "textarea")).status.value == "leave"


def test_name_beside_surname_is_the_given_name() -> None:
    from tests.test_rules_support import run

    ds = run(field("Name:"), field("Surname:"))
    assert [d.value for d in ds] == ["Ada", "Lovelace"]


def test_two_spanish_surnames() -> None:
    from tests.test_rules_support import profile, run

    lp = profile(basics__name="María José García López")
    ds = run(field("Nombre"), field("Primer apellido"), field("Segundo apellido"), lp=lp)
    assert [d.value for d in ds] == ["María José", "García", "López"]
    assert ds[1].status.value == "flag"  # two surnames split by position: for review


@pytest.mark.parametrize(
    ("ident", "value"),
    [
        ("RegisterForm[vorname]", "Ada"),
        ("RegisterForm[nachname]", "Lovelace"),
        ("contact_voornaam", "Ada"),
        ("achternaam", "Lovelace"),
        ("prenom", "Ada"),
        ("cliente_apellidos", "Lovelace"),
        ("sobrenome", "Lovelace"),
    ],
)
def test_name_parts_in_ids_written_in_other_languages(ident: str, value: str) -> None:
    d = one(field("", name=ident), url="https://example.com/register")
    assert d.value == value, (d.key, d.reason)


@pytest.mark.parametrize(
    ("label", "widget", "key"),
    [
        ("Site ou portefólio", "text", "links.website"),
        ("Período de pré-aviso", "text", "notice"),
        ("Como teve conhecimento desta vaga?", "combobox", "how_heard"),
        ("Em que línguas consegue trabalhar?", "checkbox_group", "languages.pick"),
    ],
)
def test_european_portuguese_wordings(label: str, widget: str, key: str) -> None:
    # Portugal's Portuguese says portefólio, pré-aviso, línguas where Brazil's says portfólio,
    # aviso prévio, idiomas.
    assert best_key(label, widget) == key


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Years of professional engineering experience", "work.years.in"),  # 2 words in the gap
        ("Years of sales experience", "work.years.in"),  # 1 word
        ("Years of professional experience", "work.years"),  # the full phrase outranks the gap
        ("Years of experience", "work.years"),  # a gap is never empty
        # More than three words between: not one phrase any more.
        ("Years of age and four more words before experience", ""),
    ],
)
def test_a_gap_stands_for_one_to_three_words(label: str, expected: str) -> None:
    assert best_key(label) == expected


def test_a_repeated_block_s_name_in_an_id_vetoes_nothing() -> None:
    # "schools[1][degree]": "school" names the block; excludes read the field's own part.
    assert best_key("Degree", name="schools[1][degree]", html_id="school-1-degree") == "edu.degree"
    assert best_key("Titulación", name="schools[1][degree]", html_id="school-1-degree") == (
        "edu.degree")
    # An id that is the field's own words still vetoes: a school's name is not a degree.
    assert best_key("Degree or school", name="school_name") != "edu.degree"
