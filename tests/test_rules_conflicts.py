"""Conflicting signals resolve toward the narrower, safer meaning; values that do not validate for
their field are not filled; codes, captchas and new account names are never filled."""

from __future__ import annotations

import pytest

from bridge.forms import FieldDecision
from tests.test_rules_support import field, one, profile, run

SIGNUP = "https://example.com/signup"


def filled(d: FieldDecision) -> str:
    status = d.status.value
    return d.value if status in ("fill", "flag") else f"({status})"


def test_a_label_that_asks_a_part_beats_the_whole_the_autocomplete_says() -> None:
    d = one(field("First or given name", autocomplete="name"))
    assert d.value == "Ada" and d.key == "name.first"
    assert one(field("Family name", autocomplete="name")).value == "Lovelace"
    assert one(field("Full name", autocomplete="name")).value == "Ada Quinn Lovelace"


@pytest.mark.parametrize(
    ("label", "kw"),
    [
        ("Verification code", {}),
        ("Enter the 6-digit code we sent to your email", {}),
        ("One-time password", {}),
        ("Confirm code", {}),
        ("", {"name": "email-verification-single-otp-input-1"}),
        ("Code", {"autocomplete": "one-time-code"}),
        ("Type the characters you see in the picture below.", {}),
        ("Bestätigungscode", {}),
        ("Code de vérification", {}),
        ("Código de verificación", {}),
    ],
)
def test_codes_and_captchas_are_never_filled(label: str, kw: dict[str, str]) -> None:
    d = one(field(label, **kw), url=SIGNUP)
    assert d.status.value == "never" and d.value == "", (d.key, d.reason)


@pytest.mark.parametrize(
    ("label", "value"),
    [("Street address", "2710 Mission St, Apt 4"), ("Email Address", "ada.lovelace@example.com")],
)
def test_a_password_token_on_a_box_labelled_as_something_else_is_read_by_its_label(
    label: str, value: str
) -> None:
    # autocomplete="new-password" on a text box: the site's way to keep browsers out of it.
    d = one(field(label, autocomplete="new-password"), url=SIGNUP)
    assert d.value == value, (d.key, d.reason)


@pytest.mark.parametrize(
    ("label", "kw"),
    [
        ("Street address", {"type": "password", "widget": "password"}),
        ("Choose a password", {}),
        ("", {}),
        ("Enter it again", {}),
    ],
)
def test_a_password_token_stays_never_where_the_label_does_not_say_otherwise(
    label: str, kw: dict[str, str]
) -> None:
    d = one(field(label, autocomplete="new-password", **kw), url=SIGNUP)
    assert d.status.value == "never" and d.value == "", (d.key, d.reason)


def test_a_phone_box_that_says_a_code_will_be_sent_is_still_the_phone() -> None:
    d = one(field("Mobile No. (A one-time password will be sent via SMS to you.)", "tel"))
    assert d.key == "phone.full" and d.value


def test_a_user_name_is_offered_the_email_for_review_never_the_name() -> None:
    d = one(field("Username"), url=SIGNUP)
    assert d.value == "ada.lovelace@example.com" and d.status.value == "flag"
    assert one(field("Benutzerkennung"), url=SIGNUP).value == "ada.lovelace@example.com"


@pytest.mark.parametrize(
    ("label", "kw"),
    [
        ("Choose a username", {}),
        ("Think up your mailbox name", {}),
        ("Nickname", {}),
        ("Sign up with email or phone number", {"name": "display_name", "html_id": "display_name"}),
        ("Display name", {}),
        ("Nick Please choose a nick (alias)", {"autocomplete": "nickname"}),
    ],
)
def test_a_name_for_a_new_account_is_left(label: str, kw: dict[str, str]) -> None:
    d = one(field(label, **kw), url=SIGNUP)
    assert filled(d).startswith("("), (d.key, d.value, d.reason)


@pytest.mark.parametrize("ident", ["formusername", "new_formusername", "loginname", "userid"])
def test_a_bare_name_label_over_a_user_name_id_is_the_user_name(ident: str) -> None:
    # "name" in a log-in table, the id gluing "user" and "name" into one word: not the person.
    d = one(field("name", name=ident, html_id=f"already_{ident}"), url=SIGNUP)
    assert d.key == "account.username" and d.status.value == "flag", (d.key, d.reason)
    assert d.value == "ada.lovelace@example.com"


def test_a_name_label_that_says_more_stays_the_name_whatever_the_id() -> None:
    d = one(field("Full legal name", name="formusername"), url=SIGNUP)
    assert d.key == "name.full" and d.value == "Ada Quinn Lovelace"
    assert one(field("name", name="first_name"), url=SIGNUP).key != "account.username"


def test_a_firm_name_is_a_company_never_the_persons_name() -> None:
    # An id alone ("firmName" under a label Relay does not read), and the label itself.
    for f in (field("Место работы", name="firmName", html_id="firmName"), field("Firm name")):
        d = one(f, url=SIGNUP)
        assert d.key == "work.company" and d.value == "", (d.key, d.reason)
    assert one(field("Firm name"), url="https://example.com/careers/apply").key == "work.company"


@pytest.mark.parametrize("label", ["メールアドレス", "", "Login"])
@pytest.mark.parametrize("sample", ["name@example.com", "jane.doe@company.co.uk"])
def test_a_sample_email_as_placeholder_asks_the_email_not_a_name(label: str, sample: str) -> None:
    # Read as words, "name@example.com" and "jane.doe@…" would ask a name.
    d = one(field(label, placeholder=sample), url=SIGNUP)
    assert d.key.startswith(("basics.email", "account.username")), (d.key, d.reason)
    assert d.value == "ada.lovelace@example.com"


def test_a_bare_name_id_under_a_label_relay_cannot_read_is_left() -> None:
    # "Имя пользователя" is a user name; the id `name` alone cannot tell it from the person's.
    d = one(field("Имя пользователя: *", name="name", html_id="edit-name"), url=SIGNUP)
    assert d.value == "" and d.key == "name.full", d.reason
    # An id that says more, or a label Relay reads, still speaks.
    assert one(field("Имя", name="firstName"), url=SIGNUP).value == "Ada"
    assert one(field("Full name", name="name"), url=SIGNUP).value == "Ada Quinn Lovelace"


def test_a_nickname_on_a_job_application_is_the_preferred_name() -> None:
    ds = run(field("Nickname"), field("Resume", "file"), url="https://example.com/careers/apply")
    assert ds[0].value == "Ada"


def test_either_identifier_boxes_get_the_email() -> None:
    assert one(field("Phone number, username, or email")).value == "ada.lovelace@example.com"
    d = one(field("Mobile Number or Email", autocomplete="tel"))
    assert d.value == "ada.lovelace@example.com", d.reason


def test_a_new_email_address_is_the_email_not_a_postal_address() -> None:
    d = one(field("New email address"), url=SIGNUP)
    assert d.key == "basics.email" and d.value == "ada.lovelace@example.com"


def test_school_and_email_words_together_ask_the_email() -> None:
    d = one(field("Your institution email", "email", type="email"))
    assert d.key == "basics.email" and d.value == "ada.lovelace@example.com"


def test_a_value_that_does_not_fit_the_box_is_not_filled() -> None:
    # A phone box labelled "College": the school never goes there.
    d = one(field("College", "tel", type="tel"), url="https://example.com/careers/apply")
    assert d.value == "", (d.key, d.reason)
    # An email that is not an email, and a phone number phonenumbers calls invalid.
    lp = profile(basics__email="ada at example", basics__phone="+1 555 01")
    ds = run(field("Email", "email", type="email"), field("Phone", "tel"), lp=lp)
    assert [d.value for d in ds] == ["", ""], [d.reason for d in ds]
    # The field's own pattern.
    assert one(field("Postal code", pattern="[0-9]{4}")).value == ""


def test_ids_that_put_the_part_after_the_word() -> None:
    ds = run(field("", name="traits.name.first"), field("", name="traits.name.last"))
    assert [d.value for d in ds] == ["Ada", "Lovelace"]


def test_a_phone_is_written_the_way_the_fields_pattern_asks() -> None:
    d = one(field("Phone number", "tel", type="tel", pattern="[0-9]{10}"))
    assert d.value == "4155550142", d.reason


def test_an_email_input_with_no_words_is_an_autofill_catcher_not_the_email() -> None:
    assert one(field("", "email", type="email", name="fakeemailremembered")).value == ""
    d = one(field("We'll send you news and offers.", "email", type="email"))
    assert d.value == "ada.lovelace@example.com"
