"""Choice groups whose inputs all say value="on" (or nothing) are read and answered by their labels,
bucket labels included."""

from __future__ import annotations

from bridge.forms import FieldOption
from tests.test_rules_support import field, one, run


def on(*texts: str, value: str = "on") -> list[FieldOption]:
    return [FieldOption(value=value, text=t, field_id=f"o{i}") for i, t in enumerate(texts)]


def test_years_bucket_chosen_by_its_label_and_sent_by_its_text() -> None:
    bucket = "6\u20139 years"  # an en dash, as pages write ranges
    opts = on("0-2 years", "3-5 years", bucket, "10+ years")
    d = one(field("How many years of experience do you have?", "radio_group", options=opts))
    assert d.value == bucket and d.values == [bucket]


def test_buckets_in_other_languages() -> None:
    opts = on("0-2 ans", "3-5 ans", "6-9 ans", "plus de 10 ans")
    d = one(field("Combien d'années d'expérience avez-vous ?", "radio_group", options=opts))
    assert d.values == ["6-9 ans"]


def test_yes_no_radios_without_values_are_sent_by_their_text() -> None:
    d = one(field("Are you willing to relocate?", "radio_group", options=on("Yes", "No", value="")))
    assert d.values == ["Yes"]


def test_checkbox_group_of_on_values_sends_each_chosen_label() -> None:
    opts = on("English", "French", "Spanish", "German")
    d = one(field("Which languages do you speak?", "checkbox_group", options=opts))
    assert d.values == ["English", "Spanish"]


def test_distinct_values_are_still_sent_as_values() -> None:
    opts = [FieldOption(value="y", text="Yes"), FieldOption(value="n", text="No")]
    assert one(field("Are you willing to relocate?", "radio_group", options=opts)).values == ["y"]


def test_canadas_employment_equity_questions() -> None:
    # SmartRecruiters (en) and Teamtailor (fr), Canadian roles: each a yes / no of its own.
    from tests.test_rules_support import profile

    en = ["Yes", "No", "I prefer not to answer"]
    fr = ["Oui", "Non", "Je préfère ne pas répondre"]
    ds = run(
        field("Do you identify as a woman?", "radio_group", options=en),
        field("Do you identify as an Indigenous person?", "radio_group", options=en),
        field("Vous identifiez-vous comme membre d'une minorité visible ?", "radio_group",
              options=fr),
    )
    assert [d.value for d in ds] == ["Yes", "I prefer not to answer", "Je préfère ne pas répondre"]
    # A race category does not say whether someone is a visible minority: left.
    lp = profile(application__eeo={"gender": "Male", "race": "White"})
    ds = run(
        field("Do you identify as a woman?", "radio_group", options=en),
        field("Do you identify as a member of a visible minority?", "radio_group", options=en),
        lp=lp,
    )
    assert [d.value for d in ds] == ["No", ""]


def test_self_identification_and_everyday_questions_in_other_languages() -> None:
    # JazzHR (es), Rippling (pt), Pinpoint (nl) asked these in their own words; all were left.
    cases = [
        ("Raza / origen étnico", ["Blanco", "Hispano", "Prefiero no responder"],
         "Prefiero no responder"),
        ("Condición de veterano", ["Soy un veterano protegido", "No soy un veterano protegido",
                                   "Prefiero no responder"], "No soy un veterano protegido"),
        ("Raça/cor (classificação do IBGE)", ["Branca", "Parda", "Preta", "Prefiro não informar"],
         "Prefiro não informar"),
        ("Você é uma pessoa com deficiência (PcD)?", ["Sim", "Não", "Prefiro não informar"],
         "Prefiro não informar"),
        ("Etnische achtergrond", ["Nederlands", "Europees", "Zeg ik liever niet"],
         "Zeg ik liever niet"),
        ("Como você soube desta vaga?", ["Site", "LinkedIn", "Indicação"], "LinkedIn"),
        ("¿Estarías dispuesto/a a trasladarte a Madrid?", ["Sí", "No"], "Sí"),
        ("Hoe goed spreek je Engels?", ["Basis", "Goed", "Vloeiend", "Moedertaal"], "Moedertaal"),
    ]
    for label, options, expected in cases:
        assert one(field(label, "select", options=options)).value == expected, label


def test_a_technology_checklist_picks_the_persons_skills_in_every_language() -> None:
    # The question need not say "skills": "which of these have you used" over a list of tools.
    from tests.test_rules_support import profile

    skilled = profile(skills=[{"name": "Backend", "keywords": ["Python", "PostgreSQL", "Kafka"]}])
    opts = on("Python", "Ruby", "PostgreSQL", "MongoDB", "Kafka")
    for label in (
        "Which of these have you used in production?",
        "Which of the following have you worked with?",
        "Welche dieser Technologien haben Sie bereits eingesetzt?",
        "Avez-vous déjà utilisé l'une de ces technologies ?",
        "¿Con cuáles de estas tecnologías has trabajado?",
        "Quais destas tecnologias você já utilizou?",
        "Met welke van deze technologieën heb je gewerkt?",
    ):
        d = one(field(label, "checkbox_group", options=opts), lp=skilled)
        assert d.values == ["Python", "PostgreSQL", "Kafka"], (label, d.key, d.reason)
    # A checklist of anything else the person's skills do not name is left.
    d = one(field("Which of these have you used?", "checkbox_group", options=on("Slack", "Jira")),
            lp=skilled)
    assert d.values == [], d.reason
