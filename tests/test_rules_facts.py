"""Work history, education, languages, skills, residence: what the profile's facts answer."""

from __future__ import annotations

from bridge.forms import Action
from tests.test_rules_support import field, one, profile, run


def test_current_job_and_education() -> None:
    ds = run(
        field("Current company"),
        field("Current job title"),
        field("School"),
        field("Field of study"),
        field("GPA"),
        field("Degree"),
    )
    assert [d.value for d in ds] == [
        "Analytical Engines Inc",
        "Senior Backend Engineer",
        "University of California, Berkeley",
        "Computer Science",
        "3.8",
        "Bachelor of Science",
    ]


def test_no_current_job_leaves_current_employer() -> None:
    lp = profile(
        work=[
            {
                "name": "Old Co",
                "position": "Dev",
                "startDate": "2015-01-01",
                "endDate": "2019-01-01",
            }
        ]
    )
    assert one(field("Current employer"), lp=lp).status.value == "leave"


def test_repeated_blocks_get_only_the_first() -> None:
    ds = run(
        field("Company", attrs={"data-fkit-id": "workExperience-1--companyName"}),
        field("Company", attrs={"data-fkit-id": "workExperience-2--companyName"}),
        url="https://acme.wd5.myworkdayjobs.com/apply",
    )
    assert ds[0].value == "Analytical Engines Inc"
    assert ds[1].status.value == "leave"


def test_work_block_dates_and_current_flag() -> None:
    ds = run(
        field(
            "From",
            "date_text",
            placeholder="MM/YYYY",
            section="Work Experience 1",
            attrs={"data-fkit-id": "workExperience-1--startDate"},
        ),
        field(
            "I currently work here",
            "checkbox",
            attrs={"data-fkit-id": "workExperience-1--currentlyWorkHere"},
        ),
        url="https://acme.wd5.myworkdayjobs.com/apply",
    )
    assert ds[0].value == "03/2021"
    assert ds[1].action == Action.CHECK and ds[1].checked is True


def test_start_date_under_an_employment_heading_is_the_jobs() -> None:
    d = one(field("Start date", "date", section="Employment history"))
    assert d.key == "work.start" and d.value == "2021-03-01"


def test_years_of_experience_derived_from_work_when_absent() -> None:
    lp = profile(application__yearsOfExperience=None)
    d = one(field("Total years of experience", "number"), lp=lp)
    assert d.status.value == "fill" and float(d.value) >= 9


def test_language_levels() -> None:
    opts = ["Grundkenntnisse", "Gut", "Fließend", "Muttersprache"]
    assert one(field("Englischkenntnisse", "select", options=opts)).value == "Muttersprache"
    lp = profile(languages=[{"language": "Spanish", "fluency": "Professional working proficiency"}])
    opts_en = ["Basic", "Intermediate", "Advanced", "Fluent", "Native"]
    assert one(field("Spanish level", "select", options=opts_en), lp=lp).value == "Advanced"
    assert (
        one(field("German proficiency", "select", options=opts_en), lp=lp).status.value == "leave"
    )


def test_pick_the_profiles_skills_and_languages() -> None:
    lp = profile(
        skills=[{"name": "Languages", "keywords": ["Python", "Go", "Kafka"]}],
        languages=[{"language": "English"}, {"language": "Spanish"}],
    )
    d = one(
        field(
            "Which of these technologies have you used?",
            "checkbox_group",
            options=["Python", "Java", "Go", "Kafka", "Rust"],
        ),
        lp=lp,
    )
    assert d.values == ["Python", "Go", "Kafka"]
    d = one(
        field(
            "Welche Sprachen sprechen Sie?",
            "checkbox_group",
            options=["Deutsch", "Englisch", "Spanisch", "Französisch"],
        ),
        lp=lp,
    )
    assert d.values == ["Englisch", "Spanisch"]


def test_residence_questions() -> None:
    assert (
        one(
            field("Are you currently living in the EU?", "radio_group", options=["Yes", "No"])
        ).value
        == "No"
    )
    d = one(
        field("Are you currently based in the United States?", "radio_group", options=["Yes", "No"])
    )
    assert d.value == "Yes"


def test_summary_and_headline() -> None:
    lp = profile(basics__summary="Backend engineer.", basics__label="Senior Backend Engineer")
    ds = run(field("Summary", "textarea"), field("Headline"), lp=lp)
    assert [d.value for d in ds] == ["Backend engineer.", "Senior Backend Engineer"]


def test_how_did_you_hear_and_notice_text() -> None:
    assert one(field("How did you hear about us?")).value == "LinkedIn"
    assert one(field("What is your notice period?")).value == "4 weeks"
