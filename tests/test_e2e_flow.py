"""The Fill's flow on pages built for it (issue 9): real Chromium, the real extension and bridge,
the sample profile, rules only, one browser for the module.

Late forms (9.12): the application arrives after the page has loaded — an SPA that boots, a form
swapped into a turbo-frame, an application iframe the career page builds on window load. Fill is
pressed as soon as the page has loaded, as a person who sees the page does; it waits for the
application instead of answering "no fields" or filling the page's newsletter box.
Pages: tests/fixtures/pages/late/.

Dependent fields (9.1): what an answer reveals or changes (a state list that follows the chosen
country, a question shown by another answer) is planned and filled in the same Fill: one run,
one panel. Page: tests/fixtures/pages/dependent.html.

Repeated blocks (9.11): every work-history and education block is filled from the profile's
entries, most recent first, and a section's own "Add another" is pressed to make room for them,
never a submit control. Page: tests/fixtures/pages/repeated.html.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from bridge.store import Store
from tests.conftest import FIXTURES, SAMPLE_PROFILE
from tests.fixture_scoring import read_all_frames

ADA = {"first": "Ada", "last": "Lovelace", "email": "ada.lovelace@example.com"}
# page → what the application must hold after one Fill, and the boxes beside it left empty
LATE = {
    "late/spa.html": (
        {**ADA, "phone": "+1 415-555-0142", "linkedin": "https://www.linkedin.com/in/adaqlovelace",
         "resume": "ada-lovelace-resume.pdf"},
        ("nl_first_name", "nl_email"),
    ),
    "late/swap.html": (
        {**ADA, "phone": "+1 415-555-0142"}, ("connect_first_name", "connect_email"),
    ),
    "late/iframe.html": ({**ADA, "resume": "ada-lovelace-resume.pdf"}, ("site_search",)),
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("relay-home-flow")


@pytest.fixture(scope="module")
def session(home: Path, chromium: str) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    with (
        StaticServer(FIXTURES / "pages") as server,
        relay_browser(SAMPLE_PROFILE, home=home) as browser,
    ):
        yield browser, server


@pytest.mark.parametrize("path", sorted(LATE))
def test_a_late_application_is_waited_for_and_filled(
    session: tuple[RelayBrowser, StaticServer], path: str,
) -> None:
    browser, server = session
    expected, beside = LATE[path]
    page = browser.open(server.url(path))  # back once "load" has fired: no form there yet
    try:
        assert "first" not in _present(page), "the application should not be there at load"
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        values = read_all_frames(page)
    finally:
        page.close()
    got = {key: values.get(key) for key in expected}
    assert got == expected
    assert all(values.get(key) == "" for key in beside), {k: values.get(k) for k in beside}
    assert outcome.report.page_submits == 0


def _present(page: Any) -> set[str]:
    """The fixture keys whose control exists in some frame right now."""
    keys: set[str] = set()
    for frame in page.frames:
        try:
            keys |= set(frame.evaluate(
                "() => Object.keys(window.__fixture ? window.__fixture.read() : {})"
                ".filter((k) => window.__fixture.locate(k))"))
        except Exception:  # a frame that went away
            continue
    return keys


def test_fields_that_follow_other_answers_settle_in_one_fill(
    session: tuple[RelayBrowser, StaticServer], home: Path,
) -> None:
    browser, server = session
    page = browser.open(server.url("dependent.html"))
    try:
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        values = read_all_frames(page)
        state = browser.worker.evaluate(_STATE, page.url)
        review = browser.worker.evaluate(_REVIEW, page.url)
    finally:
        page.close()
    keys = ("country", "state", "zip", "auth", "sponsor", "source", "specify")
    assert {k: values[k] for k in keys} == {
        "country": "United States", "state": "California", "zip": "94110", "auth": "Yes",
        "sponsor": "No", "source": "LinkedIn", "specify": "",
    }
    # One run holds every round's decisions, and the one panel lists each field once.
    assert outcome.raw.get("rounds", 1) >= 2
    run_id = outcome.report.run_id
    with Store.open(home) as store:
        runs = [r for r in store.history() if r["url"] == outcome.report.url]
        plans = [e for e in store.audit_entries(run_id) if e["action"] == "fill.plan"]
    assert [r["run_id"] for r in runs] == [run_id]
    [run] = runs
    labels = [d["label"] for d in run["decisions"]]
    assert "State / Province" in labels and len(run["decisions"]) == len(outcome.report.fields)
    # A field decided again in a later round is one row, with the later decision.
    assert len(labels) == len(set(labels)), labels
    [state_row] = [f for f in outcome.report.fields if f.label == "State / Province"]
    assert state_row.value == "California"
    assert plans[0]["payload"].get("later_round") is None
    assert all(e["payload"].get("later_round") for e in plans[1:])
    # One review (the side panel's) listing each field once, and a mark on every field that was
    # filled, the later rounds' too.
    assert review["run_id"] == run_id
    rows = [(r["frame"], r["field_id"]) for r in review["rows"]]
    assert len(rows) == len(set(rows))
    assert set(rows) == {(f.frame, f.field_id) for f in outcome.report.fields}
    assert state["marks"]["filled"] + state["marks"]["review"] >= 7, state["marks"]


def test_repeated_blocks_take_the_entries_most_recent_first(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = browser.open(server.url("repeated.html"))
    try:
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        values = read_all_frames(page)
    finally:
        page.close()
    assert values["jobs"] == [
        ["Analytical Engines Inc", "Senior Backend Engineer", True],
        ["Difference Labs", "Software Engineer", False],
    ]
    # Boxes that read the same in each block are questions of their own, not one group's choices.
    current = [f for f in outcome.report.fields if f.label == "I currently work here"]
    assert [f.value for f in current] == ["checked", "unchecked"], current
    # One school in the profile: its section is not given another block.
    assert values["schools"] == [["University of California, Berkeley", "Bachelor of Science"]]
    assert outcome.report.page_submits == 0 and outcome.report.blocked == []


def test_numbered_sets_in_no_form_take_the_entries_by_row(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    # Rows named "182-<row>-<field>", dates as Month / Year selects under a legend, a work
    # question after the section and a log-in form above (pages/repeated_sets.html).
    browser, server = session
    page = browser.open(server.url("repeated_sets.html"))
    try:
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        values = read_all_frames(page)
    finally:
        page.close()
    assert values["jobs"] == [
        ["Analytical Engines Inc", "Senior Backend Engineer", "March", "2021", True, "", ""],
        ["Difference Labs", "Software Engineer", "June", "2017", False, "February", "2021"],
    ], [(f.label, f.key, f.value, f.reason) for f in outcome.report.fields]
    assert values["years"] == "7-10 years"
    assert values["first"] == "Ada" and values["username"] == ""
    assert outcome.report.page_submits == 0 and outcome.report.blocked == []


_REVIEW = """async (url) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === url);
    return await globalThis.relayReview.read(tab.id);
}"""
_STATE = """async (url) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === url);
    return await chrome.tabs.sendMessage(tab.id, {relay: "state"}, {frameId: 0});
}"""


# A snapshot's change watcher (content/changes.js) in Relay's isolated world of the top frame:
# the count of MutationObservers there that are still reachable (queryObjects collects garbage
# first, so a disconnected watcher nobody holds is not counted).
def _observers(page: Any) -> int:
    cdp = page.context.new_cdp_session(page)
    contexts: list[dict[str, Any]] = []
    cdp.on("Runtime.executionContextCreated", lambda e: contexts.append(e["context"]))
    try:
        cdp.send("Runtime.enable")  # reports every context that exists, Relay's world too
        top = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
        [world] = [c for c in contexts if c["name"] == "Relay"
                   and c.get("auxData", {}).get("frameId") == top]
        proto = cdp.send("Runtime.evaluate", {
            "expression": "MutationObserver.prototype", "contextId": world["id"]})["result"]
        found = cdp.send("Runtime.queryObjects", {"prototypeObjectId": proto["objectId"]})
        length = cdp.send("Runtime.callFunctionOn", {
            "objectId": found["objects"]["objectId"], "returnByValue": True,
            "functionDeclaration": "function () { return this.length; }"})
        return int(length["result"]["value"])
    finally:
        cdp.detach()


_SNAPSHOT_ONLY = """async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    const reply = await chrome.tabs.sendMessage(tab.id, { relay: "snapshot" }, { frameId: 0 });
    return reply.ok;
}"""


def test_a_fill_that_stops_after_its_snapshot_leaves_no_watcher_running(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    """A Fill that ends between its snapshot and the question after the apply (an error, a
    closed panel) must not leave the page watched for good: the watcher stops by itself."""
    browser, server = session
    page = browser.open(server.url("dependent.html"))
    try:
        assert browser.fill(page).report.ok  # a whole Fill: its watcher stopped at the question
        settled = _observers(page)
        assert browser.worker.evaluate(_SNAPSHOT_ONLY, page.url) is True  # and no question after
        assert _observers(page) == settled + 1
        page.wait_for_timeout(10_500)  # changes.js WATCH_MOST_MS, and a little
        assert _observers(page) == settled
    finally:
        page.close()
