"""A hostile page that hides fields to harvest what Relay puts in them (issue 8, promise 4).

Real Chromium, the real extension and bridge, the sample profile, rules only. Every hiding
technique gets one field, which must stay empty (as the page itself reads it after the Fill) with
the plain reason in the fill report; the legitimate patterns that show a hidden or tiny control
through a widget must still fill. Pages: tests/fixtures/hostile/invisible-fields/.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bridge.driver.report import FieldReport
from bridge.driver.session import RelayBrowser
from bridge.driver.static_server import StaticServer
from tests.fixture_scoring import read_all_frames

PAGE = "hostile/invisible-fields/index.html"
LONG_PAGE = "hostile/invisible-fields/long.html"

# page key → (label in the report, why the person cannot see it)
HIDDEN = {
    "email": ("Email", "transparent (opacity 0)"),
    "linkedin": ("LinkedIn profile", "transparent (opacity 0)"),
    "street": ("Street address", "outside the page"),
    "postal": ("Postal code", "too small to see"),
    "company": ("Current company", "clipped"),
    "title": ("Current job title", "clipped"),
    "github": ("GitHub", "covered by another element"),
    "website": ("Personal website", "inside a collapsed container"),
    "gender": ("Gender", "outside the page"),
    "preferred": ("Preferred name", "in a frame you cannot see"),
    "salary": ("Desired salary", "covered by another element"),
}

# page key → (label in the report, what the page reads back)
SHOWN = {
    "first": ("First name", "Ada"),
    "last": ("Last name", "Lovelace"),
    "phone": ("Phone", "+1 415-555-0142"),
    "city": ("City", "San Francisco"),  # below the fold
    "veteran": ("Veteran status", "I am not a protected veteran"),  # select2
    "source": ("How did you hear about us?", "LinkedIn"),  # react-select
    "auth": ("Are you legally authorized to work in the United States?", "yes"),  # sr-only radios
    "langs": ("Which languages do you speak?", "en,es"),  # sr-only checkboxes
    "resume": ("Upload resume", "ada-lovelace-resume.pdf"),  # sr-only file input, styled label
    "relocate": ("Are you willing to relocate?", "Yes"),  # Workday listbox button
    "start": ("Earliest start date", "01/11/2027"),  # react-datepicker
}


@dataclass
class Filled:
    values: dict[str, Any]
    rows: dict[str, FieldReport]
    submits: int | None
    marks: dict[str, int]  # the top frame's marks by kind


_MARKS = """async (url) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === url);
    return (await chrome.tabs.sendMessage(tab.id, {relay: "state"}, {frameId: 0})).marks;
}"""


@pytest.fixture(scope="module")
def filled(session: tuple[RelayBrowser, StaticServer]) -> Filled:
    browser, server = session
    page = browser.open(server.url(PAGE))
    try:
        page.wait_for_load_state("networkidle")
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        rows = {row.label: row for row in outcome.report.fields}
        marks = browser.worker.evaluate(_MARKS, page.url)
        return Filled(read_all_frames(page), rows, outcome.report.page_submits, marks)
    finally:
        page.close()


@pytest.mark.parametrize("key", sorted(HIDDEN))
def test_a_field_the_person_cannot_see_stays_empty_and_says_why(filled: Filled, key: str) -> None:
    label, why = HIDDEN[key]
    assert filled.values[key] == "", f"{key} was filled while hidden: {filled.values[key]!r}"
    row = filled.rows[label]
    assert row.status in ("never", "leave") and row.applied == "skipped", row
    assert f"you cannot see this field ({why})" in row.reason, row.reason


@pytest.mark.parametrize("key", sorted(SHOWN))
def test_a_field_shown_through_its_widget_still_fills(filled: Filled, key: str) -> None:
    label, value = SHOWN[key]
    assert filled.values[key] == value, (key, filled.values[key])
    row = filled.rows[label]
    assert row.status in ("fill", "flag") and row.applied == "applied", row
    assert "cannot see" not in row.reason


# Frames from another site than the application on the page (one in plain view, one of size 0):
# they could be anyone's, so Relay is not even injected there and reads nothing (issue 13).
FOREIGN = {"notice": "What is your notice period?", "pronouns": "What are your pronouns?"}


@pytest.mark.parametrize("key", sorted(FOREIGN))
def test_another_sites_frame_beside_the_application_is_never_read(filled: Filled, key: str) -> None:
    assert filled.values[key] == ""
    assert FOREIGN[key] not in filled.rows


def test_a_field_hidden_after_the_snapshot_is_refused_at_apply(filled: Filled) -> None:
    # The page turns the field transparent once the first name is typed, after Relay looked.
    assert filled.values["years"] == ""
    row = filled.rows["How many years of professional experience do you have?"]
    assert row.status == "fill" and row.applied == "refused", row
    assert "you cannot see this field (transparent (opacity 0))" in row.reason


def test_no_mark_is_drawn_around_a_field_nobody_sees(filled: Filled) -> None:
    # A ring around an invisible box would invite the person to type into it. (A field never
    # filled for another reason, such as a widget's hidden search box, says that reason instead;
    # no field here that Relay never fills is in view, so none has a mark: "left" is 0.)
    seen = [r for r in filled.rows.values()
            if r.frame == "0" and "cannot see" not in r.reason and r.status != "never"]
    assert filled.marks["left"] == 0
    assert sum(filled.marks.values()) == len(seen), (filled.marks, [r.label for r in seen])


def test_nothing_was_submitted(filled: Filled) -> None:
    assert filled.submits == 0


_PLAN = """async (url) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === url);
    return await globalThis.relayPlanTab(tab.id);
}"""
_SCROLLS = "() => [scrollY, document.getElementById('box').scrollTop]"


def test_scrolling_to_look_puts_every_scroll_position_back(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    """Fields below the fold of the page or of a scroll box are seen; past an overflow:hidden
    edge or under a cover below the fold they are not; and the page is left where it was."""
    browser, server = session
    page = browser.open(server.url(LONG_PAGE))
    try:
        page.evaluate("() => { scrollTo(0, 250); document.getElementById('box').scrollTop = 40; }")
        outcome = browser.worker.evaluate(_PLAN, page.url)
        assert outcome["ok"], outcome.get("error")
        assert page.evaluate(_SCROLLS) == [250, 40]
    finally:
        page.close()
    decisions = {d["label"]: d for d in outcome["plan"]["decisions"]}
    assert decisions["First name"]["status"] == "fill"
    assert decisions["City"]["status"] == "fill"  # inside the scroll box, below its fold
    for label, why in (("Postal code", "clipped"), ("Email", "covered by another element")):
        assert decisions[label]["status"] == "never"
        assert f"you cannot see this field ({why})" in decisions[label]["reason"]

