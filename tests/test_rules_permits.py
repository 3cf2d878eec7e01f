"""Work authorization read by meaning, in six languages: 0 wrong answers over a table of questions.

Each row gives a question as a person would read it: the country it is about and what it asks,
as a formula over A (the person may work there) and S (the person needs sponsorship there).
"A&!S" is "authorized … without sponsorship"; "A/S" asks two things that must agree; "?" cannot be
told. Four profiles answer every row: yes everywhere, no everywhere, silent, and one that differs by
country. The expected answer is the formula's value under the profile, or a blank when the profile
(or the question) does not settle it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridge.rules.permits import read_permit_question
from tests.test_rules_support import field, profile, run

YES_NO = {
    "en": ("Yes", "No"),
    "de": ("Ja", "Nein"),
    "fr": ("Oui", "Non"),
    "es": ("Sí", "No"),
    "pt": ("Sim", "Não"),
    "nl": ("Ja", "Nee"),
}
JOB_TEXT = {
    "US": "Location: Austin, TX\nWe build payment systems.",
    "DE": "Standort: München, Deutschland\nWir bauen Zahlungssysteme.",
    "FR": "Lieu : Paris, France\nNous construisons des systèmes de paiement.",
    "ES": "Ubicación: Madrid, España\nConstruimos sistemas de pago.",
    "BR": "Localização: São Paulo, Brasil\nConstruímos sistemas de pagamento.",
    "NL": "Locatie: Amsterdam, Nederland\nWij bouwen betaalsystemen.",
}

# (language, question, country, meaning, the country comes from the job's location)
ROWS: list[tuple[str, str, str, str, bool]] = [
    ("en", "Are you legally authorized to work in the United States?", "US", "A", False),
    ("en", "Will you now or in the future require sponsorship for employment visa status "
     "(e.g., H-1B visa status) in the United States?", "US", "S", False),
    ("en", "Do you need a work permit to work in Germany?", "DE", "!A", False),
    ("en", "Do you NOT require visa sponsorship to work in the UK?", "GB", "!S", False),
    ("en", "Are you able to work in Canada without sponsorship?", "CA", "A&!S", False),
    ("en", "Do you have the right to work in the United Kingdom?", "GB", "A", False),
    ("en", "Do you hold a valid work permit for Switzerland?", "CH", "A", False),
    ("en", "Will you need a visa to work in France?", "FR", "S", False),
    ("en", "Are you eligible to work in the country where this job is located?", "DE", "A", True),
    ("en", "Would you require us to sponsor your work visa for this role?", "US", "S", True),
    ("en", "If you are not a citizen, do you need sponsorship to work in Spain?", "ES", "S", False),
    ("en", "Do you hold a visa for the United States?", "US", "?", False),
    ("en", "Are you authorized to work in the US, or will you need sponsorship?", "US", "A/S",
     False),
    ("en", "Are you unable to work in the Netherlands without visa sponsorship?", "NL", "S",
     False),
    ("en", "Is it correct that you don't need a work permit for Portugal?", "PT", "A", False),
    ("de", "Benötigen Sie eine Arbeitserlaubnis für Deutschland?", "DE", "!A", False),
    ("de", "Sind Sie berechtigt, in Deutschland zu arbeiten?", "DE", "A", False),
    ("de", "Besitzen Sie eine gültige Arbeitserlaubnis für die Schweiz?", "CH", "A", False),
    # The country's adjectives declined as the sentence wants ("das Vereinigte Königreich").
    ("de", "Besitzen Sie eine gültige Arbeitserlaubnis für das Vereinigte Königreich?", "GB", "A",
     False),
    ("de", "Benötigen Sie ein Visum, um in Deutschland zu arbeiten?", "DE", "S", False),
    ("de", "Benötigen Sie für eine Beschäftigung in Österreich keine Arbeitserlaubnis?", "AT",
     "A", False),
    ("de", "Benötigen Sie jetzt oder in Zukunft ein Visumsponsoring für die USA?", "US", "S",
     False),
    ("de", "Dürfen Sie ohne Visumsponsoring in Großbritannien arbeiten?", "GB", "A&!S", False),
    ("de", "Haben Sie eine Aufenthalts- und Arbeitserlaubnis für die Niederlande?", "NL", "A",
     False),
    ("de", "Sind Sie nicht berechtigt, in Frankreich zu arbeiten?", "FR", "!A", False),
    ("de", "Brauchen Sie eine Arbeitserlaubnis, um am Standort der Stelle zu arbeiten?", "DE",
     "!A", True),
    ("de", "Falls Sie kein EU-Bürger sind: Benötigen Sie ein Visum für Spanien?", "ES", "S",
     False),
    ("fr", "Avez-vous besoin d'un permis de travail pour travailler en France ?", "FR", "!A",
     False),
    ("fr", "Êtes-vous autorisé(e) à travailler en France ?", "FR", "A", False),
    ("fr", "Avez-vous le droit de travailler au Royaume-Uni ?", "GB", "A", False),
    ("fr", "Aurez-vous besoin d'un parrainage pour un visa de travail au Canada ?", "CA", "S",
     False),
    ("fr", "Vous n'avez pas besoin de visa pour travailler en Suisse ?", "CH", "!S", False),
    ("fr", "Pouvez-vous travailler en Belgique sans permis de travail ?", "BE", "A", False),
    ("fr", "Êtes-vous titulaire d'un titre de séjour vous permettant de travailler en France ?",
     "FR", "A", False),
    ("fr", "Nécessitez-vous un visa pour travailler aux États-Unis ?", "US", "S", False),
    ("fr", "Êtes-vous éligible pour travailler dans le pays du poste ?", "FR", "A", True),
    ("fr", "Si vous n'êtes pas citoyen de l'UE, avez-vous besoin d'un permis de travail pour "
     "l'Allemagne ?", "DE", "!A", False),
    ("fr", "Avez-vous un visa ?", "FR", "?", True),
    # The employer named after the sponsorship it gives: the permit is still what is sponsored.
    ("fr", "Aurez-vous besoin, maintenant ou à l'avenir, d'un parrainage de l'employeur pour "
     "obtenir un permis de travail au Canada ?", "CA", "S", False),
    ("es", "¿Necesitará el patrocinio del empleador para obtener un permiso de trabajo en "
     "Canadá?", "CA", "S", False),
    ("pt", "Necessitará de patrocínio do empregador para obter uma autorização de trabalho no "
     "Canadá?", "CA", "S", False),
    ("es", "¿Necesita un permiso de trabajo para trabajar en España?", "ES", "!A", False),
    ("es", "¿Está autorizado para trabajar en España?", "ES", "A", False),
    ("es", "¿Requerirá patrocinio de visado para trabajar en los Estados Unidos?", "US", "S",
     False),
    ("es", "¿No necesitará ningún visado para trabajar en México?", "MX", "!S", False),
    ("es", "¿Tiene permiso de trabajo vigente en Alemania?", "DE", "A", False),
    ("es", "¿Puede trabajar en Portugal sin necesitar patrocinio?", "PT", "A&!S", False),
    ("es", "¿Tienes derecho a trabajar en el Reino Unido?", "GB", "A", False),
    ("es", "¿Necesitas visado para trabajar en Francia?", "FR", "S", False),
    ("es", "¿Está legalmente habilitado para trabajar en el país de la vacante?", "ES", "A", True),
    ("es", "Si no eres ciudadano de la UE, ¿necesitas un permiso de trabajo para los Países "
     "Bajos?", "NL", "!A", False),
    ("es", "¿Cuenta con visa?", "ES", "?", True),
    ("pt", "Você precisa de visto para trabalhar no Brasil?", "BR", "S", False),
    ("pt", "Você está autorizado a trabalhar em Portugal?", "PT", "A", False),
    ("pt", "Você precisa de autorização de trabalho para trabalhar na Alemanha?", "DE", "!A",
     False),
    ("pt", "Você não precisará de patrocínio para trabalhar nos Estados Unidos?", "US", "!S",
     False),
    ("pt", "Possui autorização de residência que lhe permita trabalhar em Portugal?", "PT", "A",
     False),
    ("pt", "Tem o direito de trabalhar no Reino Unido?", "GB", "A", False),
    ("pt", "Tem autorização legal para trabalhar nos Estados Unidos?", "US", "A", False),
    ("pt", "Precisa de autorização legal para trabalhar na Alemanha?", "DE", "!A", False),
    ("pt", "Pode trabalhar na Espanha sem patrocínio de visto?", "ES", "A&!S", False),
    ("pt", "Necessitará de visto de trabalho para a França?", "FR", "S", False),
    ("pt", "Você está legalmente autorizado a trabalhar no país da vaga?", "BR", "A", True),
    ("pt", "Se não for cidadão da UE, precisa de autorização de trabalho para a Holanda?", "NL",
     "!A", False),
    ("pt", "Você tem visto?", "BR", "?", True),
    ("nl", "Heeft u een werkvergunning nodig voor Nederland?", "NL", "!A", False),
    ("nl", "Bent u bevoegd om in Nederland te werken?", "NL", "A", False),
    ("nl", "Heb je geen werkvergunning nodig voor België?", "BE", "A", False),
    ("nl", "Heeft u nu of in de toekomst visumsponsoring nodig om in de Verenigde Staten te "
     "werken?", "US", "S", False),
    ("nl", "Mag je in Duitsland werken zonder sponsoring?", "DE", "A&!S", False),
    ("nl", "Heb je een visum nodig om in het Verenigd Koninkrijk te werken?", "GB", "S", False),
    ("nl", "Heeft u het recht om te werken in Frankrijk?", "FR", "A", False),
    ("nl", "Bent u niet bevoegd om in Spanje te werken?", "ES", "!A", False),
    ("nl", "Heeft u een geldige verblijfsvergunning voor het land van de vacature?", "NL", "A",
     True),
    ("nl", "Als je geen EU-burger bent, heb je dan een werkvergunning nodig voor Zwitserland?",
     "CH", "!A", False),
    ("nl", "Heeft u een visum?", "NL", "?", True),
    ("en", "Will you now or in the future require employer sponsorship for a work permit in "
     "Canada?", "CA", "S", False),
    ("en", "Do you hold a work permit for Germany or require sponsorship?", "DE", "A/S", False),
    ("en", "Are you willing to obtain a work permit for Switzerland?", "CH", "?", False),
    ("en", "Have you ever been sponsored for a visa in the United States?", "US", "?", False),
    ("en", "Are you authorized to work in the US for any employer without restrictions?", "US",
     "A", False),
    ("de", "Läuft Ihre Arbeitserlaubnis für Deutschland ab?", "DE", "?", False),
    # Where or when one works, not whether one may: the job's arrangement.
    ("en", "This role is hybrid, three days a week in Boston, MA: are you able to work on-site "
     "on that schedule?", "US", "?", False),
    ("en", "Are you able to work weekends in the United States?", "US", "?", False),
    ("es", "¿Puede trabajar de forma presencial en España?", "ES", "?", False),
]

EVERYWHERE = ("US", "DE", "GB", "FR", "ES", "PT", "BR", "NL", "CH", "CA", "AT", "BE", "MX")
# Per country: (authorized, needs sponsorship); missing countries: the profile is silent.
MIXED = {
    "US": (True, False),
    "DE": (True, False),
    "GB": (False, True),
    "FR": (False, True),
    "ES": (True, False),
    "PT": (False, True),
    "BR": (True, False),
    "NL": (False, True),
    "CH": (True, True),
    "CA": (False, False),
}
PROFILES: dict[str, dict[str, tuple[bool, bool]]] = {
    "yes": {c: (True, False) for c in EVERYWHERE},
    "no": {c: (False, True) for c in EVERYWHERE},
    "silent": {},
    "mixed": MIXED,
}


def expected(meaning: str, facts: tuple[bool, bool] | None) -> bool | None:
    """The row's answer under one country's facts (None: left for the person)."""
    if meaning == "?" or facts is None:
        return None
    a, s = facts
    return {
        "A": a,
        "!A": not a,
        "S": s,
        "!S": not s,
        "A&!S": a and not s,
        "A/S": a if a == s else None,
    }[meaning]


def _profile(kind: str) -> Any:
    table = PROFILES[kind]
    return profile(
        application__authorizedToWork={c: v[0] for c, v in table.items()},
        application__requiresSponsorship={c: v[1] for c, v in table.items()},
    )


@pytest.mark.parametrize("kind", sorted(PROFILES))
def test_permit_table_gives_no_wrong_answer(kind: str) -> None:
    assert len(ROWS) >= 60 and {r[0] for r in ROWS} == set(YES_NO)
    lp = _profile(kind)
    wrong, blank_instead, answered_unsure = [], [], []
    for lang, question, country, meaning, from_job in ROWS:
        yes, no = YES_NO[lang]
        d = run(
            field(question, "radio_group", options=[yes, no]),
            lp=lp,
            job_text=JOB_TEXT[country] if from_job else "",
        )[0]
        want = expected(meaning, PROFILES[kind].get(country))
        got = None if d.status.value not in ("fill", "flag") else d.value == yes
        row = f"{question!r} -> {d.value or '(left)'} [{d.key}: {d.reason}]"
        if want is None and got is not None:
            answered_unsure.append(row)
        elif want is not None and got is None:
            blank_instead.append(row)
        elif want != got:
            wrong.append(row)
    assert not wrong, f"{len(wrong)} wrong answers:\n" + "\n".join(wrong)
    assert not answered_unsure, "answered what cannot be told:\n" + "\n".join(answered_unsure)
    assert not blank_instead, "left what the profile answers:\n" + "\n".join(blank_instead)


@pytest.mark.parametrize(
    ("question", "reads"),
    [
        ("Do you need a work permit for Germany?", "not authorized"),
        ("Are you authorized to work in Germany?", "authorized"),
        ("Heeft u geen werkvergunning nodig?", "authorized"),
        ("Vous n'avez pas besoin de visa ?", "not sponsorship"),
        ("¿No necesitará ningún visado?", "not sponsorship"),
        ("Are you authorized to work in the US without sponsorship?",
         "authorized and not sponsorship"),
    ],
)
def test_polarity_and_negation(question: str, reads: str) -> None:
    assert read_permit_question(question).describe() == reads


def test_portuguese_no_is_not_a_negation() -> None:
    """ "no Brasil" is "in Brazil": read in Portuguese, not as Spanish "no"."""
    reading = read_permit_question("Você precisa de visto para trabalhar no Brasil?")
    assert reading.lang == "pt" and reading.describe() == "sponsorship"


def test_eligible_for_something_else_is_not_a_permit_question() -> None:
    assert read_permit_question("Are you eligible for rehire?").unclear
    d = run(field("Are you eligible for rehire?", "radio_group", options=["Yes", "No"]))[0]
    assert d.key not in ("auth.work", "sponsorship")


def test_a_visa_named_alone_is_unclear() -> None:
    """A citizen holds no visa and may still work: "Do you have a visa?" says nothing sure."""
    assert read_permit_question("Do you have a valid visa?").unclear
    assert read_permit_question("Besitzen Sie ein Visum?").unclear
