"""Yes/no questions asked in a text box are answered from the profile in words, in the page's
language, and flagged for review; other text boxes are not."""

from __future__ import annotations

import pytest

from tests.test_rules_support import field, profile, run

SIBLINGS = {
    "en": [field("First name")],
    "de": [field("Vorname"), field("Nachname")],
    "fr": [field("Prénom"), field("Nom")],
    "es": [field("Nombre"), field("Apellidos")],
    "nl": [field("Voornaam"), field("Achternaam")],
}


@pytest.mark.parametrize(
    ("lang", "label", "widget", "value"),
    [
        ("en", "Willing to relocate to Austin, TX?", "text", "Yes"),
        ("en", "This role is based in our Austin, TX office. Are you willing to relocate to"
         " Austin, TX?", "text", "Yes"),
        ("en", "Are you 18 years of age or older?", "textarea", "Yes"),
        ("en", "Are you legally authorized to work in Canada?", "text", "No"),
        ("de", "Sind Sie bereit, nach Berlin umzuziehen?", "text", "Ja"),
        ("fr", "Êtes-vous prêt(e) à déménager à Lyon ?", "text", "Oui"),
        ("es", "¿Necesita un permiso de trabajo para trabajar en los Estados Unidos?", "text",
         "No"),
        ("nl", "Bent u bereid te verhuizen naar Utrecht?", "text", "Ja"),
    ],
)
def test_answered_in_words(lang: str, label: str, widget: str, value: str) -> None:
    d = run(*SIBLINGS[lang], field(label, widget))[-1]
    assert (d.value, d.status.value) == (value, "flag"), (d.key, d.reason)


def test_unknown_profile_fact_is_left() -> None:
    lp = profile(application__willingToRelocate=None)
    d = run(field("Willing to relocate to Austin, TX?"), lp=lp)[0]
    assert d.value == ""


@pytest.mark.parametrize(
    "label",
    ["Where would you like to relocate?", "Relocation preferences", "Tell us about yourself",
     "Are you open to relocation? Tell us where you would like to live."],
)
def test_not_a_yes_no_question(label: str) -> None:
    d = run(field(label, "textarea"))[0]
    assert d.value not in ("Yes", "No"), (d.key, d.reason)


def test_a_spanish_page_full_of_de_and_en_is_answered_in_spanish() -> None:
    # "de" and "en" are Spanish words too: they do not make the page Dutch.
    labels = ["Nombre", "Apellidos", "Correo electrónico", "Número de teléfono",
              "Carta de presentación", "Perfil de LinkedIn", "Ciudad de residencia",
              "Años de experiencia", "Nivel de inglés", "Disponibilidad en julio"]
    question = "El puesto es híbrido en Miami. ¿Estaría dispuesto/a a mudarse a Miami, FL?"
    d = run(*[field(label) for label in labels], field(question))[-1]
    assert (d.value, d.status.value) == ("Sí", "flag"), (d.key, d.reason)
