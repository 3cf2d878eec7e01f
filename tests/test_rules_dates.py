"""Start dates asked in words, in every language, map to the earliest start date in the field's
format: a native date, date parts, a format the field shows, else the page language's own."""

from __future__ import annotations

import pytest

from tests.test_rules_support import field, run

SIBLINGS = {
    "de": [field("Vorname"), field("Nachname")],
    "es": [field("Nombre"), field("Apellidos")],
    "fr": [field("Prénom"), field("Nom")],
    "pt": [field("Nome"), field("Sobrenome")],
    "nl": [field("Voornaam"), field("Achternaam")],
    "en": [field("First name"), field("Last name")],
}


@pytest.mark.parametrize(
    ("lang", "label", "widget", "kw", "action", "value"),
    [
        ("de", "Ab wann könnten Sie frühestens anfangen?", "text", {}, "set_text", "11.01.2027"),
        ("es", "¿Cuándo podrías incorporarte?", "text", {}, "set_text", "11/01/2027"),
        ("fr", "Date de disponibilité", "date", {"type": "date"}, "set_date", "2027-01-11"),
        ("fr", "À partir de quand êtes-vous disponible ?", "text", {}, "set_text", "11/01/2027"),
        ("pt", "Quando pode começar?", "text", {"placeholder": "aaaa-mm-dd"}, "set_text",
         "2027-01-11"),
        ("nl", "Wanneer kunt u beginnen?", "date_parts", {}, "set_date", "2027-01-11"),
        ("nl", "Per wanneer ben je beschikbaar?", "text", {}, "set_text", "11-01-2027"),
        ("en", "How soon could you join?", "text", {}, "set_text", "2027-01-11"),
        ("en", "When would you be able to start?", "text", {"placeholder": "MM/DD/YYYY"},
         "set_text", "01/11/2027"),
    ],
)
def test_start_date_in_words(
    lang: str, label: str, widget: str, kw: dict[str, str], action: str, value: str
) -> None:
    d = run(*SIBLINGS[lang], field(label, widget, **kw))[-1]
    assert d.key == "start_date", d.reason
    assert (d.action.value, d.value) == (action, value)
