"""Phone numbers and dates shaped to the field's format."""

from __future__ import annotations

from datetime import date

from bridge.forms import FieldOption
from bridge.rules.formats import date_hint, format_date, phone_parts
from tests.test_rules_support import field, one, profile, run


def test_phone_parts() -> None:
    parts = phone_parts("+1 415 555 0142", "US")
    assert parts["country_code"] == "+1"
    assert parts["national_digits"] == "4155550142"
    assert parts["international"] == "+1 415-555-0142"
    de = phone_parts("0151 23456789", "DE")
    assert de["country_code"] == "+49"


def test_single_phone_field_is_international() -> None:
    assert one(field("Phone", "tel")).value == "+1 415-555-0142"


def test_phone_with_country_code_field_is_national() -> None:
    ds = run(
        field("Country code", "select", options=["Germany (+49)", "United States (+1)"]),
        field("Phone number", "tel"),
    )
    assert ds[0].value == "United States (+1)"
    assert ds[1].value == "(415) 555-0142"


def test_dial_code_preset_by_the_page_is_replaced_but_not_a_persons_choice() -> None:
    opts = [
        FieldOption(text="+49 Deutschland", value="+49", selected=True),
        FieldOption(text="+1 Vereinigte Staaten", value="+1"),
    ]
    d = run(field("Ländervorwahl", "select", options=opts, value="+49 Deutschland"))[0]
    assert d.status.value == "fill" and d.value == "+1 Vereinigte Staaten"
    edited = run(
        field("Ländervorwahl", "select", options=opts, value="+49 Deutschland", user_edited=True)
    )[0]
    assert edited.status.value == "keep"


def test_phone_box_holding_its_dial_code_gets_the_full_number() -> None:
    ds = run(
        field("Phone number country", "select", options=["Netherlands", "United States"]),
        field("Phone number", "tel", value="+31"),
    )
    assert ds[1].status.value == "fill" and ds[1].value == "+1 415-555-0142"


def test_phone_split_parts() -> None:
    ds = run(
        field("Phone", "tel", autocomplete="tel-national"),
        field("Country code", "text", autocomplete="tel-country-code"),
        field("Extension", "text", autocomplete="tel-extension"),
    )
    assert ds[0].value == "(415) 555-0142"
    assert ds[1].value == "United States" or ds[1].value == "+1"
    assert ds[2].status.value == "leave"


def test_area_code_and_the_number_after_it() -> None:
    # One "Phone Number" question in two boxes, named by their sub-labels (Jotform): a North
    # American number splits into its three-digit area code and the seven digits after it.
    ds = run(
        field("Phone Number Area Code", "tel", type="tel", name="q5_phoneNumber[area]"),
        field("Phone Number Phone Number", "tel", type="tel", name="q5_phoneNumber[phone]"),
    )
    assert [d.key for d in ds] == ["phone.area_code", "phone.local"]
    assert [d.value for d in ds] == ["415", "5550142"]
    # A phone box with no area code box before it is the whole number, as before, and so is
    # one that asks for the number with its area code.
    assert one(field("Phone Number", "tel", type="tel")).value == "+1 415-555-0142"
    assert one(field("Phone (with area code)", "tel", type="tel")).value == "+1 415-555-0142"


def test_area_code_outside_north_america_is_left_with_the_number_after_it() -> None:
    # A German area code is two to five digits: neither box can be told from the profile.
    lp = profile(basics__phone="+49 30 901820", basics__location__countryCode="DE")
    ds = run(field("Area Code", "tel", type="tel"), field("Phone Number", "tel", type="tel"), lp=lp)
    assert [d.status.value for d in ds] == ["leave", "leave"]
    assert [d.value for d in ds] == ["", ""]


def test_a_date_in_month_day_and_year_boxes() -> None:
    # "Start Date" over three boxes with the sub-labels "Month", "Day", "Year".
    ds = run(
        field("Start Date Month", max_length=2, section="Employment history"),
        field("Start Date Day", max_length=2, section="Employment history"),
        field("Start Date Year", max_length=4, section="Employment history"),
    )
    assert [d.value for d in ds] == ["03", "01", "2021"]
    # "Start day" alone in a wide box names no part: it is the whole date.
    assert one(field("Earliest start day", "date_text", placeholder="MM/DD/YYYY")).value == (
        "01/11/2027"
    )


def test_date_hints() -> None:
    assert date_hint(field(placeholder="MM/DD/YYYY")) == (["m", "d", "Y"], "/")
    assert date_hint(field(placeholder="TT.MM.JJJJ")) == (["d", "m", "Y"], ".")
    assert date_hint(field(placeholder="jj/mm/aaaa")) == (["d", "m", "Y"], "/")
    assert format_date(date(2027, 1, 11), ["d", "m", "Y"], ".") == "11.01.2027"


def test_start_date_in_the_fields_format() -> None:
    assert one(field("Earliest start date", "date")).value == "2027-01-11"
    assert (
        one(field("Earliest start date", "date_text", placeholder="MM/DD/YYYY")).value
        == "01/11/2027"
    )
    assert (
        one(field("Date de disponibilité", "date_text", placeholder="JJ/MM/AAAA")).value
        == "11/01/2027"
    )
    assert one(field("Start date", "date_parts")).value == "2027-01-11"
    assert one(field("Earliest start date", "text")).value == "2027-01-11"


def test_a_read_only_date_box_gets_the_day_for_its_calendar() -> None:
    # Nobody types into a read-only date box (HubSpot's Pikaday): the plan gives the ISO day and
    # the calendar's driver picks it, whatever format the help text names.
    d = one(field("Earliest start date", "date_text", readonly=True, placeholder="MM/DD/YYYY",
                  nearby="Please use the format MM/DD/YYYY."))
    assert (d.action.value, d.value) == ("set_date", "2027-01-11"), d.reason
    # A typed box keeps the field's own format.
    d = one(field("Earliest start date", "date_text", placeholder="MM/DD/YYYY"))
    assert (d.action.value, d.value) == ("set_text", "01/11/2027")


def test_year_and_month_only() -> None:
    assert one(field("Graduation year", "text", max_length=4)).value == "2017"
    assert (
        one(field("Graduation date (month)", "text", placeholder="MM", max_length=2)).value == "05"
    )


def test_education_dates_are_not_the_start_date() -> None:
    d = one(
        field("Start date month", "text", name="job_application[educations][][start_date][month]")
    )
    assert d.key != "start_date"


def test_salary_only_in_the_profiles_currency_and_period() -> None:
    assert one(field("Desired salary (USD)", "text")).value == "185000"
    assert one(field("Desired salary", "number")).value == "185000"
    assert one(field("Salary expectations (in €)", "text")).status.value == "leave"
    assert one(field("Expected hourly rate", "text")).status.value == "leave"


def test_salary_without_a_currency_follows_the_jobs_country() -> None:
    assert (
        one(field("Salary expectations"), title="Engineer - Berlin, Germany").status.value
        == "leave"
    )
    assert one(field("Salary expectations"), title="Engineer - Austin, TX").value == "185000"


def test_notice_period_in_the_fields_unit() -> None:
    assert one(field("Notice period (in days)", "number")).value == "28"
    assert one(field("Notice period (weeks)", "text")).value == "4"
    assert one(field("Notice period in months", "number")).value == "1"
    assert one(field("Notice period")).value == "4 weeks"
    # A placeholder's example shows how to write it, unit and all.
    assert one(field("Notice period", placeholder="e.g. 2 weeks")).value == "4 weeks"
    assert one(field("Notice period", placeholder="e.g. 30 days")).value == "28 days"
    assert one(field("Notice period (in days)", placeholder="e.g. 30 days")).value == "28"
