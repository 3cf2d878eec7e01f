"""Fill only the application: a site search, a log-in, a newsletter or talent-community form on
the same page are left alone, and the job title never goes into a search box."""

from __future__ import annotations

from bridge.forms import FormField
from tests.test_rules_support import field, run

APPLY = "https://example.com/careers/backend-engineer/apply"


def in_form(f: FormField, form: str, hint: str = "") -> FormField:
    return f.model_copy(update={"form": form, "form_hint": hint})


def page() -> list[FormField]:
    return [
        in_form(field("Search jobs"), "site-search", "search /jobs/search"),
        in_form(field("Email", "email", type="email"), "login", "login /account/login"),
        in_form(field("Password", "password", type="password"), "login", "login"),
        in_form(field("First name"), "application", "application-form"),
        in_form(field("Email", "email", type="email"), "application", "application-form"),
        in_form(field("Current job title"), "application", "application-form"),
        in_form(field("Resume/CV", "file"), "application", "application-form"),
        in_form(field("Your email", "email", type="email", section="Join our talent community"),
                "talent", "talent-community"),
        in_form(field("I want to receive job alerts", "checkbox"), "talent", "talent-community"),
    ]


def test_only_the_application_is_filled() -> None:
    ds = run(*page(), url=APPLY)
    filled = [(d.label, d.value) for d in ds if d.status.value in ("fill", "flag")]
    assert filled == [
        ("First name", "Ada"),
        ("Email", "ada.lovelace@example.com"),
        ("Current job title", "Senior Backend Engineer"),
    ], [(d.label, d.reason) for d in ds]
    reasons = {d.field_id: d.reason for d in ds}
    assert "a log-in form" in reasons["f2"] and "newsletter" in reasons["f8"]


def test_the_job_title_never_goes_into_a_search_box() -> None:
    for f in (
        field("Job title or keyword"),
        field("", placeholder="Search", type="search"),
        field("Title", role="searchbox"),
        in_form(field("Title"), "f", "search"),
    ):
        d = run(f, field("Resume", "file"), url=APPLY)[0]
        assert d.value == "" and d.key == "never.search", (f.label, d.key, d.reason)


def test_a_short_label_that_starts_with_search_is_a_search_box() -> None:
    for label in ("search by name", "Suche nach Stellen", "Rechercher un poste", "Buscar ofertas"):
        d = run(field(label), url=APPLY)[0]
        assert d.value == "" and d.key == "never.search", (label, d.key, d.reason)
    # A question that merely starts so is not.
    d = run(field("Search firm that referred you, if any, and your full name"), url=APPLY)[0]
    assert d.key != "never.search"


def test_a_location_typeahead_typed_as_search_still_takes_the_city() -> None:
    d = run(field("City", "combobox", type="search"), url=APPLY)[0]
    assert d.value == "San Francisco", d.reason


def test_a_select_whose_text_box_is_typed_as_search_is_answered() -> None:
    # Ant Design's Select: a type=search combobox input labelled by its question.
    years = ["0-1 years", "3-5 years", "8-12 years", "12+ years"]
    d = run(field("Years of experience", "combobox", type="search", options=years), url=APPLY)[0]
    assert d.value == "8-12 years", d.reason
    d = run(field("How did you hear about us?", "combobox", type="search"), url=APPLY)[0]
    assert d.key != "never.search", d.reason
    # A site search is still one by its label or its form.
    d = run(field("Search", "combobox", type="search"), url=APPLY)[0]
    assert d.key == "never.search", d.reason


def test_a_log_in_page_on_its_own_is_still_filled() -> None:
    ds = run(
        in_form(field("Email", "email", type="email"), "login", "login"),
        in_form(field("Password", "password", type="password"), "login", "login"),
        url="https://example.com/login",
    )
    assert ds[0].value == "ada.lovelace@example.com"


def test_a_short_application_is_told_from_the_newsletter_beside_it() -> None:
    # Nothing here is asked only by an application; the form that names no other purpose is it.
    ds = run(
        in_form(field("First name"), "application", "/apply application"),
        in_form(field("Last name"), "application", "/apply application"),
        in_form(field("Email", "email", type="email"), "application", "/apply application"),
        in_form(field("First name"), "newsletter", "/newsletter newsletter"),
        in_form(field("Email", "email", type="email"), "newsletter", "/newsletter newsletter"),
        url=APPLY,
    )
    assert [d.value for d in ds] == ["Ada", "Lovelace", "ada.lovelace@example.com", "", ""], [
        (d.label, d.reason) for d in ds
    ]
    assert "newsletter" in ds[3].reason


def test_a_form_that_names_its_purpose_only_on_its_button_or_by_its_place_is_left() -> None:
    # The snapshot gives a form's submit text and its place in the footer in the form's hint:
    # a "Sign up" form, or any small form in the footer, beside the application is no part of it.
    own = "wpforms-form-418 wpforms-form Submit Application"
    application = [
        in_form(field("First"), "wpforms-form-418", own),
        in_form(field("Email", "email", type="email"), "wpforms-form-418", own),
        in_form(field("Resume / CV", "file"), "wpforms-form-418", own),
    ]
    for hint in ("mc4wp-form-1 mc4wp-form Sign up", "signup-box Abonnieren",
                 "mc4wp-form-1 mc4wp-form Go footer"):
        ds = run(
            *application,
            in_form(field("First name"), "side", hint),
            in_form(field("Email address:", "email", type="email"), "side", hint),
            url=APPLY,
        )
        assert [d.value for d in ds[:2]] == ["Ada", "ada.lovelace@example.com"], hint
        assert [d.value for d in ds[3:]] == ["", ""], (hint, [(d.label, d.reason) for d in ds])
    # A form in the footer that asks what only an application asks is still the application.
    asks = (field("First"), field("Resume", "file"))
    footer_form = [in_form(f, "apply", "apply footer") for f in asks]
    ds = run(*footer_form, in_form(field("Search"), "s", "search"), url=APPLY)
    assert ds[0].value == "Ada", ds[0].reason


LOGIN = "Login loginForm form"


def test_a_log_in_form_beside_an_application_in_no_form_is_left() -> None:
    # The application's fields sit in no <form> (a single-page app); the log-in is a real form.
    ds = run(
        in_form(field("Username", name="username"), "loginForm", LOGIN),
        in_form(field("Password", "password", type="password"), "loginForm", LOGIN),
        field("First Name"),
        field("Last Name"),
        field("Email Address", "email", type="email"),
        field("Upload your resume", "file"),
        url=APPLY,
    )
    values = [d.value for d in ds]
    assert values[:2] == ["", ""], [(d.label, d.reason) for d in ds]
    assert values[2:5] == ["Ada", "Lovelace", "ada.lovelace@example.com"]
    assert "a log-in form" in ds[0].reason


def test_fields_in_no_form_beside_a_search_form_are_still_the_application() -> None:
    ds = run(
        in_form(field("Keywords"), "search", "search /jobs/search"),
        field("First Name"),
        field("Email", "email", type="email"),
        url=APPLY,
    )
    assert [d.value for d in ds][1:] == ["Ada", "ada.lovelace@example.com"]


def test_a_form_named_only_by_its_button_is_told_from_the_application() -> None:
    # A vendor's forms share one id and class scheme (HubSpot: hsForm_<guid>, "hs-form stacked"):
    # the footer's sign-up says what it is only on its button.
    def hs(f: FormField, guid: str, submit: str) -> FormField:
        return f.model_copy(update={
            "form": f"hsForm_{guid}", "form_submit": submit,
            "form_hint": f"https://forms.hsforms.com/submissions/v3/public/submit/{guid} "
                         f"hsForm_{guid} hs-form stacked hs-form-private"})

    ds = run(
        hs(field("First name"), "a1", "Submit application"),
        hs(field("Email", "email", type="email"), "a1", "Submit application"),
        hs(field("Resume/CV", "file"), "a1", "Submit application"),
        hs(field("Email", "email", type="email"), "b2", "Subscribe"),
        hs(field("First name"), "b2", "Subscribe"),
        hs(field("Email", "email", type="email"), "c3", "Sign in"),
        hs(field("Password", "password", type="password"), "c3", "Sign in"),
        url=APPLY,
    )
    assert [d.value for d in ds[:2]] == ["Ada", "ada.lovelace@example.com"]
    assert [d.value for d in ds[3:]] == ["", "", "", ""], [(d.label, d.reason) for d in ds]
    assert "newsletter" in ds[3].reason and "log-in" in ds[5].reason
