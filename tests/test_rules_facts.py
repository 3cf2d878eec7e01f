"""Work history, education, languages, skills, residence: what the profile's facts answer."""

from __future__ import annotations

import pytest

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


def test_repeated_blocks_take_the_entries_most_recent_first() -> None:
    # Issue 9.11: every block the form shows, from the profile's entries (it has two jobs).
    ds = run(
        field("Company", attrs={"data-fkit-id": "workExperience-1--companyName"}),
        field("Company", attrs={"data-fkit-id": "workExperience-2--companyName"}),
        field("Company", attrs={"data-fkit-id": "workExperience-3--companyName"}),
        url="https://acme.wd5.myworkdayjobs.com/apply",
    )
    assert [d.value for d in ds] == ["Analytical Engines Inc", "Difference Labs", ""]
    assert "the profile has 2 jobs" in ds[2].reason


def test_blocks_the_page_repeats_are_counted_per_family() -> None:
    # The snapshot's attrs.block: a block's company, title and dates take the same entry.
    ds = run(
        field("Company", attrs={"block": "job:0"}),
        field("Title", attrs={"block": "job:0"}),
        field("Company", attrs={"block": "job:1"}),
        field("Title", attrs={"block": "job:1"}),
        field("Start date", "date", section="Employment history", attrs={"block": "job:1"}),
        field("School", attrs={"block": "school:0"}),
    )
    assert [d.value for d in ds] == [
        "Analytical Engines Inc", "Senior Backend Engineer", "Difference Labs",
        "Software Engineer", "2017-06-01", "University of California, Berkeley",
    ]


def test_an_entry_asked_twice_with_nothing_telling_blocks_apart_is_answered_once() -> None:
    # Two "Company" boxes and no block: which job the second wants is a guess.
    ds = run(field("Company", name="company"), field("Company", name="company"))
    assert ds[0].value == "Analytical Engines Inc" and ds[1].value == ""
    # Numbered question lists are no blocks: a company and a title each ask the current job.
    ds = run(
        field("Current company", name="answers[2][text]"),
        field("Current job title", name="answers[3][text]"),
    )
    assert [d.value for d in ds] == ["Analytical Engines Inc", "Senior Backend Engineer"]


def test_a_current_job_box_asked_again_with_no_block_is_answered_once() -> None:
    # Two work blocks the snapshot could not tell apart: ticking the second copy too would say
    # the older job is current as well.
    ds = run(
        field("Employer", name="w-0-employer", section="Work Experience"),
        field("I currently work here", "checkbox", name="w-0-current", section="Work Experience"),
        field("I currently work here", "checkbox", name="w-1-current", section="Work Experience"),
    )
    assert ds[1].action == Action.CHECK and ds[1].checked is True
    assert ds[2].action != Action.CHECK and ds[2].value == "", (ds[2].key, ds[2].reason)
    # Told apart by their blocks, each box answers its own job.
    ds = run(
        field("I currently work here", "checkbox", attrs={"block": "row:0"}),
        field("I currently work here", "checkbox", attrs={"block": "row:1"}),
    )
    assert ds[0].checked is True and ds[1].checked is not True, [(d.action, d.reason) for d in ds]


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


def test_a_heading_naming_the_employment_application_is_no_history_block() -> None:
    # The form's title names employment: a bare start date under it is still availability,
    # and under the form's own "Employment History" heading it is the job's.
    d = one(field("Start Date", "date", section="Employment Application"))
    assert d.key == "start_date" and d.value == "2027-01-11"
    d = one(field("Start Date", "date", section="Application for Employment"))
    assert d.key == "start_date"
    d = one(field("Start Date", "date", section="Employment History"))
    assert d.key == "work.start" and d.value == "2021-03-01"


def test_available_start_date_under_an_employment_heading_is_availability() -> None:
    # An "Employment Application" heading over the whole form: the label's own words say it asks
    # when the person can start, not when a job began.
    for label in ("Available Start Date", "Earliest start date", "When can you start?"):
        d = one(field(label, "date", section="Employment Application"))
        assert d.key == "start_date" and d.value == "2027-01-11", label


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


def test_a_list_of_technologies_is_a_skills_question_by_its_options() -> None:
    # The label says only "which of these": the options say what is asked.
    lp = profile(skills=[{"name": "Languages", "keywords": ["Python", "Go", "SQL"]},
                         {"name": "Infra", "keywords": ["PostgreSQL", "Kafka", "Kubernetes"]}])
    opts = ["Python", "Go", "Java", "Rust", "Kafka", "PostgreSQL", "Kubernetes"]
    d = one(field("Which of these have you run in production?", "checkbox_group", options=opts),
            lp=lp)
    assert d.key == "skills.pick"
    assert d.values == ["Python", "Go", "Kafka", "PostgreSQL", "Kubernetes"]
    assert d.reason.startswith("options:technologies"), d.reason
    # One technology to pick is not the person's list of skills.
    d = one(field("Which of these do you know best?", "select", options=opts), lp=lp)
    assert d.key != "skills.pick" and d.value == "", d.reason
    # A list of other things is not read as technologies.
    d = one(field("Which of these apply?", "checkbox_group",
                  options=["Part-time", "Full-time", "Contract", "Go-getter"]), lp=lp)
    assert d.key != "skills.pick", d.reason


@pytest.mark.parametrize(
    ("label", "options", "values"),
    [
        # "Languages" unqualified: programming languages when no option is a spoken one.
        ("Which of these languages have you used in production?",
         ["Python", "Go", "Java", "TypeScript", "Rust", "C++"], ["Python", "Go", "TypeScript"]),
        ("Languages", ["Python", "Java", "Go", "Ruby"], ["Python", "Go"]),
        # Worded like a skills question, but the options are spoken languages.
        ("Which languages have you used at work?", ["English", "French", "Spanish", "German"],
         ["English", "Spanish"]),
        ("Which languages can you work in?", ["English", "Portuguese (Brazil)", "Spanish"],
         ["English", "Spanish"]),
    ],
)
def test_a_list_of_languages_is_read_by_its_options(
    label: str, options: list[str], values: list[str]
) -> None:
    lp = profile(
        skills=[{"name": "Languages", "keywords": ["Python", "Go", "TypeScript"]}],
        languages=[{"language": "English"}, {"language": "Spanish"}],
    )
    d = one(field(label, "checkbox_group", options=options), lp=lp)
    assert d.values == values


@pytest.mark.parametrize("widget", ["listbox", "select", "combobox"])
def test_a_list_of_several_answers_picks_like_checkboxes(widget: str) -> None:
    # MUI's multiple Select, a <select multiple>: every option in the profile's list is chosen.
    lp = profile(
        skills=[{"name": "Languages", "keywords": ["Python", "Go", "TypeScript"]}],
        languages=[{"language": "English"}, {"language": "Spanish"}],
    )
    skills = ["Go", "Java", "Python", "Rust"]
    d = one(field("Languages you have used", widget, options=skills, multiple=True), lp=lp)
    assert d.key == "skills.pick" and d.values == ["Go", "Python"]
    spoken = ["English", "French", "Spanish"]
    d = one(field("Which languages do you speak?", widget, options=spoken, multiple=True), lp=lp)
    assert d.values == ["English", "Spanish"]
    # One answer only: a list of the profile's skills does not say which one; left.
    d = one(field("Languages you have used", widget, options=skills), lp=lp)
    assert d.values == [] and not d.value


def test_a_single_choice_of_language_is_not_a_pick_list() -> None:
    # One language to be written to in (a select of language names) stays that question.
    d = one(field("Preferred language", "select", options=["English", "German", "French"]))
    assert d.key != "languages.pick"


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


def test_where_the_person_lives_asked_as_city_and_country() -> None:
    d = one(field("Which city and country do you live in?"))
    assert (d.key, d.status.value) == ("location.full", "fill"), d.reason
    assert d.value.startswith("San Francisco")


def test_summary_and_headline() -> None:
    lp = profile(basics__summary="Backend engineer.", basics__label="Senior Backend Engineer")
    ds = run(field("Summary", "textarea"), field("Headline"), lp=lp)
    assert [d.value for d in ds] == ["Backend engineer.", "Senior Backend Engineer"]


def test_how_did_you_hear_and_notice_text() -> None:
    assert one(field("How did you hear about us?")).value == "LinkedIn"
    assert one(field("What is your notice period?")).value == "4 weeks"


def test_a_block_on_a_page_that_is_no_application_is_not_the_persons_job() -> None:
    # A shop's sign-up: its "Company Name" asks for a business, whatever block it sits in.
    d = run(
        field("Company Name", name="company_1_name", attrs={"block": "row:0"}),
        url="https://shop.example.com/account/signup", title="Create an account",
    )[0]
    assert d.value == "", d.reason


def test_a_blocks_bare_from_and_to_are_its_dates_in_every_language() -> None:
    # Breezy, Phenom, SmartRecruiters: "Desde (mm/aaaa)", "Date de fin", "From (MM/YYYY)" inside
    # the blocks of an employment or education heading are that block's start and end.
    ds = run(
        field("Puesto", section="Experiencia laboral", attrs={"block": "job:0"}),
        field("Desde (mm/aaaa)", section="Experiencia laboral", attrs={"block": "job:0"}),
        field("Trabajo aquí actualmente", "checkbox", section="Experiencia laboral",
              attrs={"block": "job:0"}),
        field("Puesto", section="Experiencia laboral", attrs={"block": "job:1"}),
        field("Date de fin (mm/aaaa)", section="Expérience professionnelle",
              attrs={"block": "job:1"}),
        field("Poste actuel", "checkbox", section="Expérience professionnelle",
              attrs={"block": "job:1"}),
        field("Año de finalización (aaaa)", section="Formación"),
    )
    assert [d.value for d in ds[:2]] == ["Senior Backend Engineer", "03/2021"]
    assert ds[2].action == Action.CHECK and ds[2].checked is True
    assert ds[4].key == "work.end" and ds[4].value == "02/2021"
    assert ds[5].key == "work.current" and ds[5].checked is False
    assert ds[6].key == "edu.end" and ds[6].value == "2017"
    # Outside such a heading a bare "From" or "To" says nothing.
    assert one(field("To", section="Contact details")).key == ""
    # An id that only weakly suggests another meaning ("positions[1][start]": a start date)
    # does not outrank the block's bare "Desde".
    d = one(field("Desde (mm/aaaa)", section="Experiencia laboral", name="positions[1][start]",
                  html_id="position-1-start", attrs={"block": "job:0"}))
    assert (d.key, d.value) == ("work.start", "03/2021"), d.reason


def test_a_block_field_in_no_block_among_repeated_blocks_is_left() -> None:
    # SmartRecruiters: an "I currently work here" box whose block cannot be told, beside two
    # numbered blocks, was checked from the latest job for the second block (a wrong fill).
    ds = run(
        field("Title", attrs={"block": "entry:0"}),
        field("Title", attrs={"block": "entry:1"}),
        field("I currently work here", "checkbox"),
    )
    assert [d.value for d in ds[:2]] == ["Senior Backend Engineer", "Software Engineer"]
    assert ds[2].status.value == "leave" and ds[2].checked is None


def test_a_professional_title_is_the_job_headline_not_a_degree() -> None:
    # Workable (pt): "Título profissional" was answered with the degree ("Bachelor of Science").
    for label in ("Título profissional", "Título profesional", "Titre professionnel"):
        d = one(field(label))
        assert d.key == "work.title" and d.value == "Senior Backend Engineer", label


def test_a_region_list_in_another_language_names_the_profiles_region() -> None:
    # SuccessFactors and Eightfold (de) list US states as "Kalifornien"; Phenom (fr) "Californie".
    for label, options in (
        ("Bundesland / Bundesstaat", ["Bitte wählen", "Alabama", "Kalifornien", "Florida"]),
        ("Région / État", ["Sélectionner", "Californie", "New York", "Texas"]),
    ):
        d = one(field(label, "select", options=options))
        assert d.key == "address.region" and d.value == options[2 if label[0] == "B" else 1]


def test_a_blocks_date_asked_in_parts_fills_each_part() -> None:
    # Greenhouse (remix): "Start date month" / "Start date year" lists in each employment block.
    ds = run(
        field("Company name", attrs={"block": "job:0"}),
        field("Start date month", "select", section="Employment", attrs={"block": "job:0"},
              options=["Month", "January", "February", "March", "April"]),
        field("Start date year", "select", section="Employment", attrs={"block": "job:0"},
              options=["Year", "2020", "2021", "2022"]),
        field("End date year", section="Education", attrs={"block": "school:0"}),
        field("Fecha de inicio (mes)", "select", section="Experiencia", attrs={"block": "job:0"},
              options=["Mes", "enero", "febrero", "marzo"]),
    )
    assert [d.value for d in ds] == ["Analytical Engines Inc", "March", "2021", "2017", "marzo"]
    # A month list whose options load only when opened (react-select): the month is typed by name.
    ds = run(
        field("Company name", attrs={"block": "job:0"}),
        field("Start date month", "combobox", section="Employment", attrs={"block": "job:0"}),
        field("Current role", "checkbox", section="Employment", attrs={"block": "job:0"}),
    )
    assert ds[1].value == "March" and ds[2].checked is True


def test_years_in_a_field_count_the_jobs_whose_titles_name_it() -> None:
    # Both jobs ("Senior Backend Engineer", "Software Engineer") share a word with the field.
    d = one(field("How many years of experience do you have in backend software development?"))
    assert (d.key, d.value, d.status.value) == ("work.years.in", "9", "flag"), d.reason
    # Only the current job's title says backend: how many of the other job's years were is not
    # known, so it is left rather than under-counted.
    d = one(field("Years of experience in backend", "number"))
    assert d.value == "" and d.key == "work.years.in", d.reason


def test_years_in_a_field_named_before_experience() -> None:
    # Every job is an Engineer's: engineering, development and software are what both titles
    # work in.
    for asked in ("Years of professional engineering experience",
                  "How many years of professional software engineering experience do you have?",
                  "How many years of backend development experience do you have?",
                  "How many years of professional software development experience do you have?"):
        d = one(field(asked, "number"))
        assert (d.key, d.value, d.status.value) == ("work.years.in", "9", "flag"), (asked, d.reason)
    # A field no title names, and a skill, are left with the reason.
    for asked in ("Years of sales experience", "Years of people management experience",
                  "Years of Python experience"):
        d = one(field(asked, "number"))
        assert d.value == "" and d.key == "work.years.in", (asked, d.reason)
    # No field between the words: the total, as before.
    for asked in ("Years of professional experience", "Years of work experience",
                  "Years of relevant experience",
                  "How many years of relevant professional experience do you have?"):
        d = one(field(asked, "number"))
        assert d.value == "9" and d.key.startswith("work.years"), (asked, d.key, d.reason)


def test_years_in_a_field_in_german_and_dutch() -> None:
    asked = {
        "Wie viele Jahre Berufserfahrung haben Sie in der Softwareentwicklung?": "9",
        "Hoeveel jaar ervaring heeft u in softwareontwikkeling?": "9",
        "Wie viele Jahre Berufserfahrung haben Sie im Vertrieb?": "",  # sales: no title says so
        "Wie viele Jahre Berufserfahrung haben Sie?": "9",  # the total
    }
    for question, expected in asked.items():
        d = run(field("Vorname"), field(question), title="Bewerbung")[1]
        assert d.value == expected and d.key.startswith("work.years"), (question, d.reason)


def test_years_in_a_field_no_job_title_names_are_left() -> None:
    for asked in (
        "Years of experience in data science",
        "How many years of experience do you have in people management?",
        "Years of experience in Python",
        "Years of experience in the industry",
    ):
        d = one(field(asked))
        assert d.value == "" and d.key == "work.years.in", (asked, d.reason)


MONTHS = ["", "January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def test_a_block_field_between_two_of_its_blocks_fields_takes_that_block() -> None:
    # A month list the snapshot could not place, between its block's company and year boxes.
    emp = "Employment"
    ds = run(
        field("Company", attrs={"block": "job:0"}),
        field("Start date year", section=emp, attrs={"block": "job:0"}),
        field("Company", attrs={"block": "job:1"}),
        field("Start date month", "select", section=emp, options=MONTHS),
        field("Start date year", section=emp, attrs={"block": "job:1"}),
        field("End date month", "select", section=emp, options=MONTHS),
        url="https://example.com/careers/apply",
    )
    assert [d.value for d in ds[:5]] == [
        "Analytical Engines Inc", "2021", "Difference Labs", "June", "2017",
    ], [d.reason for d in ds]
    # After the last placed field, nothing says which block it is: left.
    assert ds[5].value == "", ds[5].reason


def test_a_block_field_between_two_blocks_is_left() -> None:
    emp = "Employment"
    ds = run(
        field("Company", attrs={"block": "job:0"}),
        field("Start date month", "select", section=emp, options=MONTHS),
        field("Company", attrs={"block": "job:1"}),
        url="https://example.com/careers/apply",
    )
    assert ds[1].value == "", ds[1].reason


def test_the_language_to_be_written_to_in_is_the_native_one_for_review() -> None:
    for label, opts, want in (
        ("Preferred language of correspondence", ["", "English", "French"], "English"),
        ("Langue de correspondance", ["", "Anglais", "Français"], "Anglais"),
        ("Bevorzugte Sprache", ["", "Deutsch", "Englisch"], "Englisch"),
    ):
        d = run(field(label, "select", options=opts), url="https://example.com/careers/apply")[0]
        assert (d.key, d.value, d.status.value) == ("language.preferred", want, "flag"), d.reason
    # No single native language in the profile: left.
    lp = profile(languages=[{"language": "English", "fluency": "Professional"}])
    d = one(field("Preferred language", "select", options=["", "English", "French"]), lp=lp)
    assert d.value == "", d.reason


def test_a_us_county_is_not_the_state() -> None:
    d = one(field("County"))
    assert d.status.value == "leave" and not d.value, d.reason
    # A box that takes county or state takes the state, and so does a list of the states.
    assert one(field("County/State/Province")).value == "California"
    states = ["Alabama", "Alaska", "Arizona", "California", "Colorado", "Texas", "Utah", "Ohio"]
    assert one(field("County", "select", options=states)).value == "California"
    # A "County" box whose name says it keeps the state is the state's.
    assert one(field("County", name="address.stateProvince")).value == "California"


def test_do_you_speak_a_language_is_answered_from_the_profiles_languages() -> None:
    yes_no = ["Yes", "No"]
    for label in ("Do you speak Spanish?", "Sprechen Sie Englisch?", "¿Hablas inglés?",
                  "Você fala espanhol?", "Spreek je Engels?", "Parlez-vous anglais couramment ?"):
        d = one(field(label, "radio_group", options=yes_no))
        assert d.values == ["Yes"], (label, d.key, d.reason)
    # Not listed, or listed below the level asked ("fluent" over professional working): left.
    for label in ("Do you speak French?", "Are you fluent in Spanish?"):
        d = one(field(label, "radio_group", options=yes_no))
        assert d.values == [] and d.status.value == "leave", (label, d.reason)


def test_holding_a_degree_is_answered_from_the_highest_education() -> None:
    yes_no = ["Yes", "No"]
    for label in ("Do you have a bachelor's degree?", "¿Tienes un título universitario?"):
        assert one(field(label, "radio_group", options=yes_no)).values == ["Yes"], label
    # A higher degree than the profile's highest is left, not answered No.
    d = one(field("Do you hold a Master's degree?", "radio_group", options=yes_no))
    assert d.values == [] and d.status.value == "leave", d.reason


YEARS_BUCKETS = ["Less than 1 year", "1-3 years", "4-6 years", "7-10 years", "More than 10 years"]


def test_years_in_a_similar_role_are_the_years_of_jobs_like_the_postings() -> None:
    # The posting's title names an Engineer: both of the profile's jobs are an Engineer's.
    title = "Apply: Senior Backend Engineer, Payments | Halcyon Freight Careers"
    for asked in ("How many years of professional experience do you have in a similar role?",
                  "Years of experience in a comparable position"):
        d = run(field("First name"), field(asked, "number"), title=title)[1]
        assert (d.key, d.value, d.status.value) == ("work.years.in", "9", "flag"), (asked, d.reason)
    # A posting whose role none of the jobs had, and a page that names no role, are left.
    for other in ("Apply: Regional Sales Manager | Halcyon Freight", "Halcyon Freight: apply"):
        d = run(field("First name"),
                field("Years of experience in a similar role", "number"), title=other)[1]
        assert d.value == "" and d.key == "work.years.in", (other, d.reason)


def test_years_in_a_field_asked_with_bucket_radios_take_the_bucket() -> None:
    d = run(
        field("First name"),
        field("How many years of professional experience do you have in a similar role?",
              "radio_group", options=YEARS_BUCKETS),
        title="Apply: Senior Backend Engineer",
    )[1]
    assert d.value == "7-10 years", (d.key, d.reason)
    d = one(field("How many years of experience do you have in backend software development?",
                  "radio_group", options=YEARS_BUCKETS))
    assert d.value == "7-10 years", (d.key, d.reason)


def test_the_role_applied_for_is_the_one_the_pages_title_names() -> None:
    roles = ["Senior Backend Engineer", "Product Designer", "Data Analyst"]
    for label in ("Which position are you applying for?", "¿A qué puesto aplica?",
                  "Vaga pretendida", "Auf welche Stelle bewerben Sie sich?"):
        d = run(field(label, "select", options=roles),
                title="Senior Backend Engineer \u2013 Careers \u2013 Northwind")[0]
        assert d.value == "Senior Backend Engineer", (label, d.key, d.reason)
    # A title that names none of them, or several, leaves the choice to the person.
    for title in ("Employment Application - Tidewater", "Product Designer or Data Analyst"):
        d = run(field("Position Applied For", "select", options=roles), title=title)[0]
        assert d.value == "" and d.status.value == "leave", (title, d.reason)
