"""The extension's widget drivers (extension/content/drivers/) against real widget libraries.

Each page under tests/fixtures/widgets/ holds one kind of widget built with the vendored library
(React + react-select, react-datepicker, Material UI and MUI X, jQuery + select2 3/4) or a faithful
re-creation (Workday, Fabric, MUI, Ashby). The content script's files are loaded into the page
straight from extension/, in the worker's order (tests/content_script.py), so these tests exercise
the shipped files without the rest of the extension. For every widget:
describe() reports the options and value, apply() commits a value the library itself reports,
an answer that is not offered is refused, and nothing is ever submitted.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from bridge.driver.chromium import chromium_args
from bridge.driver.static_server import StaticServer
from tests.content_script import content_source

REPO = Path(__file__).resolve().parents[1]
ATS = REPO / "tests" / "fixtures" / "ats"

HARNESS = """
window.__drivers = relayContent["drivers/index"];
window.__ready = true;
"""

# Runs one driver on one element: describe, then each decision in turn, then reads the page.
# `pick` is a CSS selector, or "shadow:<host selector>" for a host's shadow root input.
RUN = """async ([pick, decisions, driverName]) => {
  const el = document.querySelector(pick);
  if (!el) return { error: `no element ${pick}` };
  const found = window.__drivers.findDriver(el);
  const driver = driverName ? window.__drivers.DRIVERS_BY_NAME[driverName] : found;
  const out = { found: found ? found.name : null, driver: driver ? driver.name : null };
  if (!driver) return out;
  const before = document.activeElement;
  out.described = await driver.describe(el);
  out.focus_kept = document.activeElement === before;
  out.results = [];
  for (const d of decisions) out.results.push(await driver.apply(el, d));
  out.read_now = driver.read(el);
  out.read = window.__fixture.read();
  out.submits = window.__fixtureSubmits;
  out.submit_log = window.__fixtureSubmitLog;
  return out;
}"""


# A driver's clear (undo's way back for widgets whose choice lives in the page's script).
CLEAR = """async (pick) => {
  const el = document.querySelector(pick);
  const driver = window.__drivers.findDriver(el);
  const result = await driver.clear(el);
  return { result, read: driver.read(el), state: window.__fixture.read(),
           submits: window.__fixtureSubmits };
}"""


# Undo (content/undo.js) of one widget Relay filled: its state remembered, the decision applied,
# then put back through its driver.
UNDO = """async ([pick, decision]) => {
  const undo = relayContent.undo;
  const el = document.querySelector(pick);
  const driver = window.__drivers.findDriver(el);
  const entry = { el, kind: "driver", driver, members: [], widget: "listbox" };
  undo.rememberBefore(entry);
  const applied = await driver.apply(el, decision);
  const [undone] = await undo.undoMany([entry]);
  return { applied: applied.status, undone, state: window.__fixture.read(),
           submits: window.__fixtureSubmits };
}"""


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The repository root over loopback HTTP: fixtures and extension/ share one origin."""
    with StaticServer(REPO) as server:
        yield server.url("").rstrip("/")


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=chromium_args())
        yield b
        b.close()


@pytest.fixture
def open_page(browser: Browser, base_url: str) -> Iterator[Any]:
    pages: list[Page] = []

    def _open(path: str) -> Page:
        page = browser.new_page()
        pages.append(page)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base_url}/{path}")
        page.add_script_tag(content=content_source())
        page.add_script_tag(content=HARNESS)
        page.wait_for_function("window.__ready === true", timeout=5000)
        assert not errors, errors
        return page

    yield _open
    for page in pages:
        page.close()


def run(page: Page, pick: str, decisions: list[dict[str, Any]], driver: str = "") -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(RUN, [pick, decisions, driver])
    assert "error" not in out, out
    # read() is the driver's synchronous view of the control: it agrees with what apply reported
    # (a file input may be reset or replaced once the page has taken the file, so not for files).
    if not out.get("results"):
        assert out.get("read_now", "") == out.get("described", {}).get("value", ""), out
    elif out["driver"] != "file":
        assert out["read_now"] == out["results"][-1]["value_after"], out
    return out


def texts(described: dict[str, Any]) -> list[str]:
    return [o["text"] for o in described["options"]]


def statuses(out: dict[str, Any]) -> list[str]:
    return [r["status"] for r in out["results"]]


def no_submit(out: dict[str, Any]) -> None:
    assert out["submits"] == 0, out["submit_log"]


MATCHING = """async (cases) => {
  const util = relayContent["drivers/util"];
  return cases.map(([options, wanted, typeahead]) => {
    const opts = options.map((o) => (Array.isArray(o)
      ? { value: o[0], text: o[1] } : { value: o, text: o }));
    const hit = (typeahead ? util.matchSuggestion : util.matchOption)(opts, wanted);
    return hit ? hit.text : null;
  });
}"""


def test_option_matching(open_page: Any) -> None:
    """A wrong answer is worse than none: only clear matches are picked."""
    page = open_page("tests/fixtures/widgets/contenteditable.html")
    disability = [
        "Yes, I have a disability",
        "No, I do not have a disability",
        "I don't wish to answer",
    ]
    cases: list[tuple[list[Any], str, bool, str | None]] = [
        ([["1", "Male"], ["2", "Female"]], "2", False, "Female"),  # by value
        (["Male", "Female"], "female", False, "Female"),  # by text, any case
        (["Décliner", "Oui"], "decliner", False, "Décliner"),  # accents folded
        (disability, "Yes", False, "Yes, I have a disability"),  # unique prefix
        (["Yes, I have a disability", "Yes, in the past"], "Yes", False, None),  # ambiguous
        (["Not a student", "No"], "No", False, "No"),  # exact beats prefix
        (["Nothing", "Notice"], "No", False, None),  # no word prefix
        (
            ["White (Not Hispanic) (United States of America)", "Asian"],
            "White (Not Hispanic)",
            False,
            "White (Not Hispanic) (United States of America)",
        ),
        (
            ["I do not wish to answer. (United States of America)"],
            "I do not wish to answer.",
            False,
            "I do not wish to answer. (United States of America)",
        ),
        (["San Francisco, CA", "San Francisco de Macorís"], "San Francisco", False, None),
        (
            ["San Francisco, CA", "San Francisco de Macorís"],
            "San Francisco",
            True,
            "San Francisco, CA",
        ),
        (["Yes, I have one", "Yes, in the past"], "Yes", True, None),  # too short to guess
    ]
    got = page.evaluate(MATCHING, [[o, w, t] for o, w, t, _ in cases])
    assert got == [want for *_, want in cases]


def test_native_select(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/native_select.html")
    out = run(
        page,
        "#country",
        [
            {"action": "choose", "values": ["CA"]},
            {"action": "choose", "value": "United Kingdom"},
            {"action": "choose", "values": ["FR"]},
        ],
    )
    assert out["driver"] == "native-select"
    assert out["described"]["widget"] == "select"
    assert out["described"]["value"] == ""
    assert [o["value"] for o in out["described"]["options"]] == ["", "US", "CA", "GB"]
    assert statuses(out) == ["applied", "applied", "refused"]
    assert out["results"][0]["value_after"] == "Canada"
    assert out["read"]["country"] == "United Kingdom"
    assert page.evaluate("window.__changes") == 2
    no_submit(out)

    multi = run(page, "#langs", [{"action": "choose", "values": ["fr", "German"]}])
    assert multi["described"]["multiple"] is True
    assert multi["described"]["value"] == "English"
    assert statuses(multi) == ["applied"]
    assert multi["read"]["langs"] == ["French", "German"]


def test_react_select(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/react_select.html")
    out = run(
        page,
        "#grad",
        [
            {"action": "choose", "values": ["Later than 2026"]},
            {"action": "choose", "values": ["Never"]},
        ],
    )
    assert out["driver"] == "react-select"
    assert texts(out["described"]) == ["2025", "2026", "Later than 2026", "Not a student"]
    assert out["described"]["value"] == ""
    assert out["focus_kept"]
    assert statuses(out) == ["applied", "refused"]
    assert "Never" in out["results"][1]["detail"]
    # The library's own state (onChange) and its rendering agree.
    assert out["read"]["grad"] == "Later than 2026"
    shown = page.eval_on_selector("#grad-root .select__single-value", "e => e.textContent")
    assert shown == "Later than 2026"
    assert page.locator(".select__menu").count() == 0
    no_submit(out)

    multi = run(page, "#skills", [{"action": "choose", "values": ["Go", "Rust"]}])
    assert multi["described"]["multiple"] is True
    assert statuses(multi) == ["applied"]
    assert multi["read"]["skills"] == ["Go", "Rust"]
    plain = run(page, "#plain", [{"action": "choose", "value": "They/them"}])
    assert plain["driver"] == "react-select"  # matched by emotion's class labels alone
    assert texts(plain["described"]) == ["She/her", "He/him", "They/them"]
    assert statuses(plain) == ["applied"]
    assert plain["read"]["plain"] == "They/them"

    again = run(page, "#skills", [])
    assert again["described"]["value"] == "Go, Rust"
    assert {o["text"] for o in again["described"]["options"] if o["selected"]} == {"Go", "Rust"}

    # Undo's way back, as a person would: the chips go, the library's state too; a single list
    # without a clear button keeps its choice and says so (undo's check then reports it).
    gone = page.evaluate(CLEAR, "#skills")
    assert (gone["result"]["status"], gone["read"], gone["state"]["skills"]) == ("applied", "", [])
    kept = page.evaluate(CLEAR, "#grad")
    assert kept["result"]["status"] == "refused" and kept["read"] == "Later than 2026"
    assert gone["submits"] == kept["submits"] == 0

    # A places lookup: the person's San Francisco, not the first one offered; a place it does
    # not offer is refused.
    springfield = [["Springfield"], ["Illinois", "IL"]]
    city = run(page, "#city", [
        {"action": "choose", "value": "San Francisco", "place": PLACE},
        {"action": "choose", "value": "Springfield", "place": springfield},
    ])
    assert statuses(city) == ["applied", "refused"], city["results"]
    assert city["read"]["city"] == "San Francisco, California, United States"


@pytest.mark.parametrize("version", ["3", "4"])
def test_select2(open_page: Any, version: str) -> None:
    page = open_page(f"tests/fixtures/widgets/select2_{version}.html")
    out = run(
        page,
        "#job_application_gender",
        [
            {"action": "choose", "values": ["3"]},
            {"action": "choose", "values": ["Other"]},
        ],
    )
    assert out["driver"] == "select2"
    assert [o["value"] for o in out["described"]["options"]] == ["", "1", "2", "3"]
    assert out["described"]["value"] == ""
    assert statuses(out) == ["applied", "refused"]
    assert out["read"]["gender"] == "Decline To Self Identify"
    assert page.evaluate("__select2Shown('job_application_gender')") == "Decline To Self Identify"
    assert page.evaluate("window.__changes") == 1
    no_submit(out)

    # Handed select2's own stand-in instead of the hidden select, by text.
    stand_in = (
        "#s2id_job_application_source"
        if version == "3"
        else "#job_application_source + .select2-container"
    )
    other = run(page, stand_in, [{"action": "choose", "value": "Job board"}])
    assert other["driver"] == "select2"
    assert statuses(other) == ["applied"]
    assert other["read"]["source"] == "Job board"
    assert page.locator(".select2-drop:visible, .select2-container--open").count() == 0
    multi = run(page, "#job_application_langs", [{"action": "choose", "values": ["fr", "German"]}])
    assert multi["described"]["multiple"] is True
    assert statuses(multi) == ["applied"], multi["results"]
    assert multi["read"]["langs"] == ["French", "German"]
    if version == "3":
        # On a hidden input with query results: typed into select2's search box, then picked.
        school = run(
            page,
            "#school",
            [
                {"action": "choose", "value": "University of California, Berkeley"},
                {"action": "choose", "value": "Harvard University"},
            ],
        )
        assert school["driver"] == "select2"
        assert school["described"]["options"] == []
        assert statuses(school) == ["applied", "refused"]
        assert school["read"]["school"] == "University of California, Berkeley"
    if version == "4":
        # A list the server fills (ajax): no option until a search is answered; typed, then
        # picked from the results, and an answer the server does not offer is refused.
        country = run(
            page,
            "#country",
            [
                {"action": "choose", "value": "Narnia"},
                {"action": "choose", "value": "United States"},
            ],
        )
        assert country["driver"] == "select2"
        assert country["described"]["options"] == []
        assert statuses(country) == ["refused", "applied"], country["results"]
        assert country["read"]["country"] == "United States"
        assert page.locator(".select2-container--open").count() == 0
    # Its inner parts are not fields of their own in a snapshot.
    parts = page.evaluate("""() => [...document.querySelectorAll(
        '.select2-container input, .select2-container [role=combobox]')]
        .map((e) => window.__drivers.isPartOfWidget(e))""")
    assert parts and all(parts)


def test_listbox_buttons(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/listbox.html")
    gender = run(
        page,
        "#personalInfoUS--gender",
        [
            {"action": "choose", "values": ["Female"]},
            {"action": "choose", "values": ["Robot"]},
        ],
    )
    assert gender["driver"] == "workday-listbox"
    assert gender["described"]["widget"] == "listbox"
    assert texts(gender["described"]) == [
        "Select One", "Male", "Female", "Non-binary", "I do not wish to answer"]
    assert gender["focus_kept"]
    assert statuses(gender) == ["applied", "refused"]
    assert gender["read"]["gender"] == "Female"
    assert page.evaluate("__drivers.isPartOfWidget(document.querySelector('.mirror'))")

    # A listbox button without type=button is a submit button: opened without a click.
    phone = run(page, "#phoneType", [{"action": "choose", "values": ["Mobile"]}])
    assert texts(phone["described"]) == ["Home", "Mobile", "Work"]
    assert statuses(phone) == ["applied"]
    assert phone["read"]["phoneType"] == "Mobile"
    no_submit(phone)

    source = run(
        page,
        "#source--source",
        [
            {"action": "choose", "value": "Indeed"},  # an item inside a category
            {"action": "choose", "values": ["Referral", "Friend"]},  # category, then item
            {"action": "choose", "value": "Company Website"},  # a top-level item
            {"action": "choose", "value": "Carrier pigeon"},
        ],
    )
    assert "Job Board > LinkedIn" in texts(source["described"])
    assert "Company Website" in texts(source["described"])
    assert "Job Board" not in texts(source["described"])
    assert statuses(source) == ["applied", "applied", "applied", "refused"]
    assert [r["value_after"] for r in source["results"][:3]] == [
        "Indeed",
        "Friend",
        "Company Website",
    ]
    assert source["read"]["source"] == "Company Website"

    state = run(
        page,
        "#state-toggle",
        [
            {"action": "choose", "value": "Alaska"},
            {"action": "choose", "value": "Texas"},
        ],
    )
    assert state["driver"] == "popup-select"
    assert texts(state["described"]) == ["Alabama", "Alaska", "Arizona", "California"]
    assert state["described"]["value"] == ""
    assert statuses(state) == ["applied", "refused"]
    assert state["read"]["state"] == "Alaska"

    degree = run(
        page,
        "#degree",
        [
            {"action": "choose", "values": ["ms"]},
            {"action": "choose", "value": "High school"},
        ],
    )
    assert degree["driver"] == "popup-select"
    assert statuses(degree) == ["applied", "refused"]
    assert degree["read"]["degree"] == "Master's Degree"
    assert page.locator(".portal").count() == 0
    no_submit(degree)

    # Undo's way back to empty, as a person would: the list's own empty row (Workday's "Select
    # One", MUI's "None"), the pill's delete charm; a list with no empty row keeps its answer and
    # says why in plain words.
    emptied = ("#personalInfoUS--gender", "#degree", "#source--source")
    cleared = {pick: page.evaluate(CLEAR, pick) for pick in (*emptied, "#state-toggle")}
    for pick in emptied:
        assert (cleared[pick]["result"]["status"], cleared[pick]["read"]) == ("applied", ""), pick
    state_now = cleared["#state-toggle"]["state"]
    assert (state_now["gender"], state_now["degree"], state_now["source"]) == ("", "", "")
    kept = cleared["#state-toggle"]
    assert (kept["result"]["status"], kept["read"], kept["state"]["state"]) == (
        "refused", "Alaska", "Alaska")
    assert "no empty choice" in kept["result"]["detail"]
    assert page.locator(".portal").count() == 0
    assert kept["submits"] == 0

    # Undo uses it: back to empty, or flagged with the driver's plain reason.
    fresh = open_page("tests/fixtures/widgets/listbox.html")
    back = fresh.evaluate(UNDO, ["#personalInfoUS--gender", {"action": "choose", "value": "Male"}])
    assert back["applied"] == "applied" and back["undone"]["ok"], back
    assert back["state"]["gender"] == "" and back["undone"]["value"] == ""
    flagged = fresh.evaluate(UNDO, ["#state-toggle", {"action": "choose", "value": "Arizona"}])
    assert flagged["applied"] == "applied" and not flagged["undone"]["ok"], flagged
    assert flagged["undone"]["detail"].startswith("This list has no empty choice"), flagged
    assert back["submits"] == flagged["submits"] == 0


LISTBOX_STATES = """async () => {
  const d = window.__drivers;
  const one = async (sel, decisions = []) => {
    const el = document.querySelector(sel);
    const driver = d.findDriver(el);
    const described = await driver.describe(el);
    const results = [];
    for (const dec of decisions) results.push(await driver.apply(el, dec));
    return { driver: driver.name, described, results, read: driver.read(el) };
  };
  const out = {};
  out.kept = await one("#sf1_anchor");
  out.hidden_kept = await one("#sf2_anchor");
  out.hidden_cursor = await one("#hidden_cursor");
  out.country = await one("#country", [{ action: "choose", value: "Germany" }]);
  out.lang = await one("#lang");
  out.phone = await one("#wd_button");
  out.cx = await one("#cx");
  out.cx_left_open = !document.getElementById("cx-list").hidden;
  const scroller = document.getElementById("scroller");
  scroller.scrollTop = 260;
  window.scrollTo(0, 40);
  const before = [scroller.scrollTop, window.scrollY];
  out.deep = await one("#deep");
  out.scroll = { before, after: [scroller.scrollTop, window.scrollY] };
  out.hear = await one("#hear", [
    { action: "choose", value: "Meetup" },
    { action: "choose", value: "Podcast" },
  ]);
  out.opened = window.__opened;
  out.state = window.__fixture.read();
  out.submits = window.__fixtureSubmits;
  return out;
}"""


def test_listboxes_chosen_not_highlighted(open_page: Any) -> None:
    """Chosen is what the button and its model show, never the popup's cursor; lists the page
    keeps in the DOM are read without opening; two-level prompts are browsed and searched."""
    page = open_page("tests/fixtures/widgets/listbox_states.html")
    out: dict[str, Any] = page.evaluate(LISTBOX_STATES)
    # A list kept in the DOM while closed is read as it is, on a shown or a hidden step.
    assert texts(out["kept"]["described"]) == ["None", "Up to 4 weeks", "1-3 months"]
    assert texts(out["hidden_kept"]["described"]) == ["Basic", "Fluent"]
    assert out["kept"]["described"]["value"] == out["hidden_kept"]["described"]["value"] == ""
    # A closed listbox nobody can see is not pressed.
    assert out["hidden_cursor"]["described"]["options"] == []
    assert out["opened"].get("sf1", 0) == out["opened"].get("sf2", 0) == 0
    assert out["opened"].get("hidden_cursor", 0) == 0
    # The cursor row carries aria-selected while nothing is chosen: empty, not "has a value",
    # though the button's prompt is a sentence.
    for key in ("country", "phone", "deep"):
        described = out[key]["described"]
        assert described["value"] == "", (key, described)
        assert not any(o["selected"] for o in described["options"]), (key, described)
    assert texts(out["country"]["described"]) == ["Austria", "France", "Germany", "United States"]
    assert statuses(out["country"]) == ["applied"] and out["state"]["country"] == "Germany"
    assert out["country"]["read"] == "Germany"
    # Chosen: the button's choice, not the cursor's row (the first one).
    assert out["lang"]["described"]["value"] == "French"
    assert [o["text"] for o in out["lang"]["described"]["options"] if o["selected"]] == ["French"]
    # A list that closes only when its box loses focus is closed before describe returns: left
    # open it covers the fields below (the snapshot then finds them hidden).
    assert texts(out["cx"]["described"]) == ["Austria", "Germany", "Switzerland"]
    assert not out["cx_left_open"]
    # Opening a list (its focus scrolls) leaves every scroll position as it was.
    assert out["scroll"]["after"] == out["scroll"]["before"]
    # Top level of categories only, items loaded after opening one: browsed, then searched.
    hear = texts(out["hear"]["described"])
    assert "Job Board > Indeed" in hear and "Event > Meetup" in hear, hear
    assert statuses(out["hear"]) == ["applied", "applied"], out["hear"]["results"]
    assert out["state"]["hear"] == "Podcast"
    assert out["submits"] == 0


PLACE = [["San Francisco"], ["California", "CA"],
         ["United States", "US", "USA", "United States of America"]]
PLACES_RUN = """async (place) => {
  const d = window.__drivers;
  const out = {};
  for (const id of ["home", "base"]) {
    const el = document.getElementById(id);
    const driver = d.findDriver(el);
    out[id] = { driver: driver.name, result: await driver.apply(el,
      { action: "choose", value: "San Francisco", place }) };
  }
  await new Promise((r) => setTimeout(r, 400));  // past the page's clear-on-blur
  out.read = window.__fixture.read();
  out.searches = window.__searches;
  out.submits = window.__fixtureSubmits;
  return out;
}"""


def test_place_typeaheads_choose_the_person_s_place(open_page: Any) -> None:
    """A places service offers several places of one name: the one that matches the city, region
    and country is chosen (typing more until it shows); none matching leaves the box empty."""
    page = open_page("tests/fixtures/widgets/places.html")
    out: dict[str, Any] = page.evaluate(PLACES_RUN, PLACE)
    assert out["home"]["driver"] == out["base"]["driver"] == "combobox"
    assert out["home"]["result"]["status"] == "applied", out
    assert out["read"]["home"] == "San Francisco, CA, USA"
    # Only other San Franciscos: nothing chosen, nothing typed left behind, refused with a reason.
    assert out["base"]["result"]["status"] == "refused", out
    assert out["read"]["base"] == "" and out["read"]["base_text"] == ""
    assert out["submits"] == 0


def test_comboboxes(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/combobox.html")
    loc = run(
        page,
        "#loc",
        [
            {"action": "choose", "value": "London"},
            {"action": "choose", "value": "Atlantis"},
        ],
    )
    assert loc["driver"] == "combobox"
    assert loc["described"]["options"] == []  # a typeahead lists nothing until typed into
    assert statuses(loc) == ["applied", "refused"]
    assert loc["read"]["location"] == "London, England, United Kingdom"
    assert page.input_value("#loc") == "London, England, United Kingdom"
    # Its listbox is gone and react-aria-style aria-hidden is lifted again.
    assert page.locator("#loc-listbox").count() == 0
    assert page.locator("[aria-hidden=true]").count() == 0

    visa = run(
        page,
        "#visa",
        [
            {"action": "choose", "value": "H-1B"},
            {"action": "choose", "value": "Martian"},
        ],
    )
    assert texts(visa["described"]) == ["US Citizen", "Green Card", "H-1B", "Other"]
    assert visa["focus_kept"]
    assert statuses(visa) == ["applied", "refused"]
    assert visa["read"]["visa"] == "H-1B"
    assert page.input_value("[name=CA_1]") == "3"

    city = run(page, "#city", [{"action": "choose", "value": "paris"}])
    assert texts(city["described"]) == ["Berlin", "Boston", "Paris"]
    assert statuses(city) == ["applied"]
    assert city["read"]["city"] == "Paris"
    no_submit(city)


OPEN_DROPDOWNS = """() => [...document.querySelectorAll('.ant-select-dropdown')]
  .filter((d) => getComputedStyle(d).display !== 'none').length"""


def test_search_selects(open_page: Any) -> None:
    """rc-select (Ant Design's Select), whose input is only a search box: the value is what the
    box shows, never the accessible listbox's cursor; a virtual list's rows are all read by
    scrolling it through; a row beyond the first view is chosen; a searchable box is narrowed by
    typing; every way out closes the list; hidden, multiple and disabled boxes are left alone."""
    page = open_page("tests/fixtures/widgets/search_select.html")
    long = run(page, "#long", [{"action": "choose", "value": "City 33"},
                                {"action": "choose", "value": "Atlantis"}])
    assert long["found"] == "search-select"
    assert texts(long["described"]) == [f"City {i:02d}" for i in range(1, 41)]
    assert long["described"]["value"] == ""
    assert not any(o["selected"] for o in long["described"]["options"])
    assert long["focus_kept"]
    assert statuses(long) == ["applied", "refused"], long["results"]
    assert long["read"]["long"] == "City 33"
    assert page.evaluate(OPEN_DROPDOWNS) == 0  # a list left open covers the fields below
    # The transparent input is seen through its box, and a mark rings the box.
    assert page.evaluate("""() => { const el = document.querySelector('#long');
      const d = window.__drivers.findDriver(el);
      return [...d.visibleParts(el), d.outline(el)].map((p) => p.className); }""") == [
        "ant-select-selector", "ant-select-selector"]

    chosen = run(page, "#chosen", [])
    assert chosen["described"]["value"] == "Berlin"
    assert [o["text"] for o in chosen["described"]["options"] if o["selected"]] == ["Berlin"]

    country = run(page, "#country", [{"action": "choose", "value": "Portugal"}])
    assert statuses(country) == ["applied"] and country["read"]["country"] == "Portugal"
    assert page.input_value("#country") == ""  # the search text goes once the row is chosen

    hidden = run(page, "#hidden", [])
    assert hidden["described"]["options"] == []
    multi = run(page, "#multi", [{"action": "choose", "value": "Go"}])
    assert multi["described"]["multiple"] and statuses(multi) == ["refused"]
    off = run(page, "#off", [{"action": "choose", "value": "A"}])
    assert off["described"]["options"] == [] and statuses(off) == ["refused"]
    opened = page.evaluate("window.__fixture.opened()")
    assert not opened.get("hidden") and not opened.get("off"), opened
    assert page.evaluate(OPEN_DROPDOWNS) == 0
    no_submit(off)


def test_radios_yes_no_and_checkboxes(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/choices.html")
    # Bare native radios and checkboxes belong to the snapshot's group handling.
    assert page.evaluate("__drivers.findDriver(document.getElementById('vaq74'))") is None
    assert page.evaluate("__drivers.findDriver(document.getElementById('terms'))") is None

    worker = run(
        page,
        "#vaq74",
        [
            {"action": "choose", "values": ["false"]},
            {"action": "choose", "values": ["Maybe"]},
        ],
        driver="radio-group",
    )
    assert worker["described"]["options"] == [
        {"value": "true", "text": "Yes", "selected": False},
        {"value": "false", "text": "No", "selected": False},
    ]
    assert statuses(worker) == ["applied", "refused"]
    assert worker["read"]["prev_worker"] == "No"

    jobvite = run(page, "#jv-auth", [{"action": "choose", "values": ["Yes"]}])
    assert jobvite["driver"] == "radio-group"
    assert statuses(jobvite) == ["applied"]
    assert jobvite["read"]["jv_auth"] == "Yes"

    size = run(
        page,
        "#ashby-size",
        [
            {"action": "choose", "values": ["11-50 employees"]},
            {"action": "choose", "values": ["1000+"]},
        ],
    )
    assert texts(size["described"]) == ["1-10 employees", "11-50 employees", "51+ employees"]
    assert statuses(size) == ["applied", "refused"]
    assert size["read"]["ashby_size"] == "11-50 employees"

    yes_no = run(
        page,
        "#ashby-yesno",
        [
            {"action": "choose", "values": ["yes"]},
            {"action": "choose", "values": ["No"]},
            {"action": "choose", "values": ["Perhaps"]},
        ],
    )
    assert yes_no["driver"] == "radio-group"
    assert texts(yes_no["described"]) == ["Yes", "No"]
    assert statuses(yes_no) == ["applied", "applied", "refused"]
    assert yes_no["read"]["ashby_yesno"] == "No"
    assert page.get_attribute("#no-btn", "aria-pressed") == "true"
    # The hidden checkbox behind the pair answers through the buttons.
    hidden = run(page, "#yesno-hidden", [{"action": "check", "checked": True}])
    assert hidden["driver"] == "radio-group"
    assert statuses(hidden) == ["applied"]
    assert hidden["read"]["ashby_yesno"] == "Yes"
    assert page.evaluate("__drivers.isPartOfWidget(document.getElementById('yesno-hidden'))")
    candidates = page.evaluate(
        "[...document.querySelectorAll(__drivers.CANDIDATE_SELECTOR)].map((e) => e.id)"
    )
    assert "ashby-yesno" in candidates

    langs = run(
        page,
        "#gh-langs",
        [
            {"action": "choose", "values": ["101", "French"]},
            {"action": "choose", "values": ["Klingon"]},
        ],
    )
    assert langs["driver"] == "checkbox-group"
    assert langs["described"]["value"] == "German"
    assert statuses(langs) == ["applied", "refused"]
    assert langs["read"]["gh_langs"] == ["English", "French"]

    tools = run(page, "#ashby-tools", [{"action": "choose", "values": ["Figma", "Photoshop"]}])
    assert statuses(tools) == ["applied"]
    assert tools["read"]["ashby_tools"] == ["Figma", "Photoshop"]

    terms = run(page, "#terms", [{"action": "check", "checked": True}], driver="checkbox")
    assert terms["described"]["value"] == ""
    assert statuses(terms) == ["applied"]
    assert terms["read"]["terms"] is True
    no_submit(terms)


def test_dates(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/dates.html")
    native = run(
        page,
        "#start",
        [
            {"action": "set_date", "value": "2026-03-02"},
            {"action": "set_date", "value": "2026"},
        ],
    )
    assert native["driver"] == "date-native"
    assert statuses(native) == ["applied", "refused"]
    assert native["read"]["start"] == "2026-03-02"

    typed = run(page, "#avail", [{"action": "set_date", "value": "2026-03-02"}])
    assert typed["driver"] == "date-text"
    assert typed["results"][0]["detail"] == "typed 03/02/2026 (mm/dd/yyyy)"
    assert typed["read"]["avail"] == "03/02/2026"  # React's state, from onChange

    picker = run(
        page,
        "#rdp-root input",
        [
            {"action": "set_date", "value": "2027-06-15"},
            {"action": "set_date", "value": "2027-13-45"},
        ],
    )
    assert picker["driver"] == "date-text"
    assert statuses(picker) == ["applied", "refused"]
    assert picker["read"]["rdp"] == "2027-06-15"  # react-datepicker's selected date
    assert page.locator(".react-datepicker-popper").count() == 0

    year = run(page, "#gradyear", [{"action": "set_date", "value": "2024-05-01"}])
    assert statuses(year) == ["applied"]
    assert year["read"]["gradyear"] == "2024"

    parts = run(
        page,
        "#wd--dateSectionDay-input",
        [
            {"action": "set_date", "value": "2026-11-30"},
            {"action": "set_date", "value": "2026"},
        ],
    )
    assert parts["driver"] == "date-parts"
    assert parts["results"][0]["detail"] == "typed 11/30/2026"
    assert statuses(parts) == ["applied", "refused"]
    assert parts["read"]["wd_date"] == "11/30/2026"

    year_only = run(page, "#wd-year", [{"action": "set_date", "value": "2019"}])
    assert statuses(year_only) == ["applied"]
    assert year_only["read"]["wd_year"] == "2019"
    no_submit(year_only)


def test_file_uploads(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/files.html")
    data = base64.b64encode(b"%PDF-1.4 resume").decode()
    pdf = {
        "action": "attach",
        "file": {"name": "ada.pdf", "mime": "application/pdf", "data_b64": data},
    }
    png = {"action": "attach", "file": {"name": "me.png", "mime": "image/png", "data_b64": data}}

    ashby = run(page, "#_systemfield_resume", [png, pdf])
    assert ashby["driver"] == "file"
    assert statuses(ashby) == ["refused", "applied"]  # the accept list rules out the PNG
    # Behind an Attach button (input later swapped for a chip), a Workday drop zone whose input
    # resets itself, an input inside a shadow root, and a Dropzone whose input is elsewhere
    # (found by clicking the zone with the chooser's own click caught, so no chooser opens).
    for pick in ["#gh-attach", "#wd-select", "#sr-drop", "#dz-zone"]:
        out = run(page, pick, [pdf])
        assert out["driver"] == "file", pick
        assert statuses(out) == ["applied"], (pick, out["results"])
        assert out["results"][0]["value_after"] == "ada.pdf"
    # An input the page reset after taking the file: the file its upload list names is the
    # value, so a second Fill (or a round for new fields) does not attach it again.
    again = page.evaluate("""async () => {
      const el = document.querySelector("#wd-select");
      const d = window.__drivers.findDriver(el);
      return [(await d.describe(el)).value, d.read(el)];
    }""")
    assert again == ["ada.pdf", "ada.pdf"]
    # An input shown only once the section's own "Upload" is chosen: seen through that link,
    # which is pressed as a person would before the file is attached; the paste box stays shut.
    # An "Upload" that leads to another page is neither seen as the input nor pressed.
    parts = """(pick) => { const el = document.querySelector(pick);
      return window.__drivers.findDriver(el).visibleParts(el).map((p) => p.id); }"""
    assert "choose-upload" in page.evaluate(parts, "#choice-cv")
    choice = run(page, "#choice-cv", [pdf])
    assert statuses(choice) == ["applied"], choice["results"]
    assert page.is_visible("#choice-cv") and not page.is_visible("#choice-paste textarea")
    url = page.url
    run(page, "#away-cv", [pdf])
    assert page.url == url and not page.is_visible("#away-cv")
    # A submit button dressed as an upload zone is never clicked to find what it opens.
    assert statuses(run(page, "#dz-submit", [pdf])) == ["not_found"]
    received = page.evaluate("__fixture.read()")
    size = len(b"%PDF-1.4 resume")
    for key in ["ashby", "greenhouse", "workday", "smartrecruiters", "choice", "dropzone"]:
        assert received[key] == {"name": "ada.pdf", "size": size, "type": "application/pdf"}, key
    assert page.evaluate("window.__fixtureSubmits") == 0


def test_contenteditable(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/contenteditable.html")
    out = run(
        page, "#editor", [{"action": "set_text", "value": "Dear team,  I would like to apply."}]
    )
    assert out["driver"] == "contenteditable"
    assert out["described"]["value"] == ""
    assert statuses(out) == ["applied"]
    assert out["read"]["cover_letter"] == "Dear team, I would like to apply."
    locked = run(page, "#locked", [{"action": "set_text", "value": "x"}])
    assert statuses(locked) == ["refused"]
    no_submit(locked)


# --- the ATS replicas (tests/fixtures/ats/, built by their owner) ----------------------------

PDF = {
    "name": "ada.pdf",
    "mime": "application/pdf",
    "data_b64": base64.b64encode(b"%PDF-1.4 resume").decode(),
}

# slug -> [(step or 0, selector, decision, text the changed read() value must contain, also try
# an answer that is not offered)]. Cases of one slug run in order on one page.
ATS_CASES: dict[str, list[tuple[int, str, dict[str, Any], str, bool]]] = {
    "greenhouse-new": [
        (0, "#gender", {"action": "choose", "values": ["Female"]}, "Female", True),
        (0, "#country", {"action": "choose", "values": ["Canada +1"]}, "Canada", False),
        # Both render as "+1" once chosen: the driver must still see the change.
        (0, "#country", {"action": "choose", "value": "United States"}, "United States", False),
        (
            0,
            "#candidate-location",
            {"action": "choose", "value": "San Francisco"},
            "San Francisco",
            False,
        ),
        (0, "#resume", {"action": "attach", "file": PDF}, "ada.pdf", False),
    ],
    "greenhouse-legacy": [
        (0, "#job_application_gender", {"action": "choose", "values": ["Female"]}, "Female", True),
        (
            0,
            "#education_school_name_0",
            {"action": "choose", "value": "University of California, Berkeley"},
            "University of California, Berkeley",
            False,
        ),
        (
            0,
            "#job_application_location",
            {"action": "choose", "value": "San Francisco"},
            "San Francisco",
            False,
        ),
    ],
    "ashby": [
        (
            0,
            "input.ashby-application-form-input-autocomplete",
            {"action": "choose", "value": "San Francisco"},
            "San Francisco",
            False,
        ),
        (
            0,
            ".ashby-application-form-input-yesno",
            {"action": "choose", "values": ["No"]},
            "No",
            True,
        ),
        (
            0,
            ".react-datepicker__input-container input",
            {"action": "set_date", "value": "2027-01-11"},
            "2027",
            False,
        ),
    ],
    "bamboohr": [
        (0, ".fab-SelectToggle", {"action": "choose", "value": "California"}, "California", True),
        (0, "#dateAvailable", {"action": "set_date", "value": "2027-01-11"}, "01/11/2027", False),
    ],
    "lever": [
        # A plain input that only keeps a location chosen from its suggestions.
        (
            0,
            "#location-input",
            {"action": "set_text", "value": "San Francisco"},
            "San Francisco",
            False,
        ),
    ],
    "smartrecruiters": [
        # The combobox and its list live in nested open shadow roots.
        (
            0,
            "spl-autocomplete#spl-form-element_7 >>> spl-input >>> input",
            {"action": "choose", "value": "San Francisco"},
            "San Francisco",
            False,
        ),
        (
            2,
            "spl-autocomplete#q-source >>> spl-input >>> input",
            {"action": "choose", "value": "LinkedIn"},
            "LinkedIn",
            True,
        ),
    ],
    "workable": [
        (0, "#input_CA_5521", {"action": "choose", "value": "LinkedIn"}, "LinkedIn", True),
        (0, "#input_phone_cc", {"action": "choose", "value": "US +1"}, "US +1", False),
    ],
    "workday": [
        (2, "#source--source", {"action": "choose", "value": "LinkedIn"}, "LinkedIn", False),
        (
            2,
            "#country--country",
            {"action": "choose", "values": ["United States of America"]},
            "United States of America",
            True,
        ),
        (
            2,
            "#phoneNumber--countryPhoneCode",
            {"action": "choose", "value": "United States of America (+1)"},
            "(+1)",
            False,
        ),
        (
            3,
            "#workExperience-1--startDate",
            {"action": "set_date", "value": "2021-03"},
            "03/2021",
            False,
        ),
        (
            3,
            "[data-automation-id=file-upload-input-ref]",
            {"action": "attach", "file": PDF},
            "ada.pdf",
            False,
        ),
        (
            5,
            "#personalInfoUS--ethnicity",
            {"action": "choose", "value": "I do not wish to answer."},
            "I do not wish to answer. (United States of America)",
            False,
        ),
    ],
}

ATS_RUN = """async ([pick, decision, step, tryRefusal]) => {
  if (step && (!window.__fixture.step || window.__fixture.step() !== step)) {
    window.__fixture.showStep(step);
    await new Promise((r) => setTimeout(r, 50));
  }
  // "host >>> inner": the rest of the selector inside the host's open shadow root.
  const el = pick.split(">>>").reduce((node, part, i) => node
    && (i ? node.shadowRoot : node).querySelector(part.trim()), document);
  if (!el) return { error: `no element ${pick}` };
  const driver = window.__drivers.findDriver(el);
  if (!driver) return { error: `no driver for ${pick}` };
  const before = window.__fixture.read();
  const described = await driver.describe(el);
  const unchanged = JSON.stringify(window.__fixture.read()) === JSON.stringify(before);
  const refused = tryRefusal
    ? await driver.apply(el, { action: "choose", values: ["Zz no such answer"] }) : null;
  const afterRefusal = JSON.stringify(window.__fixture.read()) === JSON.stringify(before);
  const result = await driver.apply(el, decision);
  // An upload is confirmed once the input holds the file; the page may show it a moment later
  // (Greenhouse's chip after its upload): wait for the fixture to see a change, briefly.
  let after = window.__fixture.read();
  for (let i = 0; i < 50 && JSON.stringify(after) === JSON.stringify(before); i += 1) {
    await new Promise((r) => setTimeout(r, 20));
    after = window.__fixture.read();
  }
  const changed = Object.fromEntries(Object.entries(after)
    .filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
  return { driver: driver.name, described, unchanged, refused, afterRefusal, result, changed,
    submits: window.__fixtureSubmits, log: window.__fixtureSubmitLog };
}"""


@pytest.mark.parametrize("slug", list(ATS_CASES))
def test_ats_replicas(open_page: Any, slug: str) -> None:
    assert (ATS / slug / "index.html").exists(), f"the {slug} replica is missing"
    page = open_page(f"tests/fixtures/ats/{slug}/index.html")
    for step, pick, decision, expect, try_refusal in ATS_CASES[slug]:
        out: dict[str, Any] = page.evaluate(ATS_RUN, [pick, decision, step, try_refusal])
        assert "error" not in out, out
        assert out["unchanged"], f"{pick}: describe() changed the form"
        if try_refusal:
            assert out["refused"]["status"] == "refused", (pick, out["refused"])
            assert out["afterRefusal"], f"{pick}: a refused answer still changed the form"
        assert out["result"]["status"] == "applied", (pick, out["result"])
        assert len(out["changed"]) == 1, (pick, out["changed"])
        value = next(iter(out["changed"].values()))
        shown = ", ".join(value) if isinstance(value, list) else str(value)
        assert expect.casefold() in shown.casefold(), (pick, shown, out["result"])
        assert out["submits"] == 0, out["log"]


# Radix primitives (shadcn/ui): controls found by their label's text.
RADIX = """async () => {
  const drivers = window.__drivers;
  const util = relayContent["drivers/util"];
  const byLabel = (text) => [...document.querySelectorAll("label")]
    .find((l) => l.textContent.trim() === text).control;
  const popupsLeft = () => document.querySelectorAll("[data-radix-popper-content-wrapper]").length;
  const country = byLabel("Country of residence");
  const model = country.nextElementSibling;
  const described = await drivers.findDriver(country).describe(country);
  const openedToDescribe = popupsLeft();
  const chose = await drivers.findDriver(country)
    .apply(country, { action: "choose", values: ["Canada"] });
  const heard = byLabel("How did you hear about us?");
  const picked = await drivers.findDriver(heard)
    .apply(heard, { action: "choose", values: ["LinkedIn"] });
  const bubbles = [...document.querySelectorAll("input[aria-hidden=true][tabindex='-1']")];
  const snap = await relayContent.snapshot.snapshot();
  return {
    driver: drivers.findDriver(country).name, described, openedToDescribe, chose, picked,
    modelIsPart: drivers.isPartOfWidget(model), model: model.value,
    bubbles: bubbles.length, bubblesArePart: bubbles.every((b) => drivers.isPartOfWidget(b)),
    mirrors: bubbles.every((b) => util.isMirrorInput(b)),
    fields: snap.fields.map((f) => [f.label, f.widget, f.options.map((o) => o.text)]),
    popupsLeft: popupsLeft(),
    pageHidden: document.querySelector("main").getAttribute("aria-hidden"),
    posting: relayContent.posting.postingText(), read: window.__fixture.read(),
    submits: window.__fixtureSubmits,
  };
}"""


def test_radix_primitives(open_page: Any) -> None:
    page = open_page("tests/fixtures/ats/shadcn-careers/index.html")
    out = page.evaluate(RADIX)
    # A select button with its hidden native select: the select lists the options, unopened.
    assert out["driver"] == "popup-select"
    assert [t for t in texts(out["described"]) if t][:2] == ["United States", "Canada"]
    assert out["described"]["value"] == "" and out["openedToDescribe"] == 0
    assert out["modelIsPart"] and out["model"] == "Canada"
    assert out["chose"]["status"] == "applied" and out["read"]["country"] == "Canada"
    # A popover list whose first row carries aria-selected as its cursor: chosen by a click.
    assert out["picked"]["status"] == "applied" and out["read"]["heard"] == "LinkedIn"
    # The bubble inputs behind checkbox, radio and switch buttons are no fields of their own.
    assert out["bubbles"] >= 9 and out["bubblesArePart"] and out["mirrors"]
    fields = {label: (widget, options) for label, widget, options in out["fields"]}
    assert "" not in fields, out["fields"]
    assert fields["Which languages can you work in?"] == (
        "checkbox_group", ["English", "Spanish", "Portuguese", "German", "Mandarin"])
    assert fields["Are you legally authorized to work in the United States?"] == (
        "radio_group", ["Yes", "No"])
    assert fields["Open to relocating to Austin, TX"][0] == "checkbox"
    assert fields["Gender"] == (
        "listbox", ["", "Female", "Male", "Non-binary", "I don't wish to answer"])
    # Reading the form left no list open, so the page is not hidden from the posting's reader.
    assert out["popupsLeft"] == 0 and out["pageHidden"] is None
    assert "Austin, TX" in out["posting"]
    # A group's question beside its buttons and their bubble inputs is the form's text.
    assert "Which languages" not in out["posting"]
    assert out["submits"] == 0


# Google Forms: a listbox that is a field, its "Choose" row selected while empty; ARIA checkboxes
# in a list named by the question's heading, with an "Other:" write-in box.
GOOGLE_FORMS = """async () => {
  window.__fixture.showStep(2);
  const drivers = window.__drivers;
  const years = document.querySelector("[role=listbox][aria-labelledby]");
  const driver = drivers.findDriver(years);
  const described = await driver.describe(years);
  const unknown = await driver.apply(years, { action: "choose", values: ["25+"] });
  const chose = await driver.apply(years, { action: "choose", values: ["6-10"] });
  const popupsLeft = document.querySelectorAll(".OA0qNb").length;
  const snap = await relayContent.snapshot.snapshot();
  return {
    driver: driver && driver.name, described, unknown, chose, popupsLeft,
    read: window.__fixture.read(),
    fields: snap.fields.map((f) => [f.label, f.widget, f.options.map((o) => o.text), f.value]),
    submits: window.__fixtureSubmits,
  };
}"""


def test_google_forms_listbox_and_checkbox_list(open_page: Any) -> None:
    page = open_page("tests/fixtures/ats/google-forms/index.html")
    out = page.evaluate(GOOGLE_FORMS)
    assert out["driver"] == "aria-listbox"
    # The prompt row is no option and no value, though the list marks it selected.
    assert texts(out["described"]) == ["0-2", "3-5", "6-10", "10+"]
    assert out["described"]["value"] == ""
    assert out["unknown"]["status"] == "refused" and out["read"]["years"] == "6-10"
    assert out["chose"]["status"] == "applied" and out["popupsLeft"] == 0
    fields = {label: (widget, options, value) for label, widget, options, value in out["fields"]}
    assert fields["Years of experience"] == ("listbox", ["0-2", "3-5", "6-10", "10+"], "6-10")
    assert fields["Highest degree"][2] == ""
    assert fields["Which languages do you speak?"][:2] == (
        "checkbox_group", ["English", "Spanish", "German", "Other:"])
    assert out["submits"] == 0


# --- from a content script's isolated world ----------------------------------------------------

ISOLATED_APPLY = """(async () => {
  const drivers = relayContent["drivers/index"];
  const el = document.querySelector(%s);
  const driver = el && drivers.findDriver(el);
  if (!driver) return JSON.stringify({ error: "no element or driver" });
  await driver.describe(el);
  const result = await driver.apply(el, %s);
  // This world cannot see the page's globals: proof that it is isolated.
  return JSON.stringify({ result, isolated: typeof window.__fixture === "undefined" });
})()"""

# (page, selector, decision, read() key, expected value)
ISOLATED_CASES: list[tuple[str, str, dict[str, Any], str, Any]] = [
    ("react_select.html", "#grad", {"action": "choose", "values": ["2026"]}, "grad", "2026"),
    (
        "select2_4.html",
        "#job_application_gender",
        {"action": "choose", "values": ["2"]},
        "gender",
        "Female",
    ),
    (
        "select2_3.html",
        "#job_application_gender",
        {"action": "choose", "values": ["1"]},
        "gender",
        "Male",
    ),
    (
        "dates.html",
        "#rdp-root input",
        {"action": "set_date", "value": "2027-06-15"},
        "rdp",
        "2027-06-15",
    ),
    ("dates.html", "#avail", {"action": "set_date", "value": "2026-03-02"}, "avail", "03/02/2026"),
    ("choices.html", "#ashby-yesno", {"action": "choose", "values": ["yes"]}, "ashby_yesno", "Yes"),
    (
        "listbox.html",
        "#source--source",
        {"action": "choose", "value": "Glassdoor"},
        "source",
        "Glassdoor",
    ),
    (
        "combobox.html",
        "#loc",
        {"action": "choose", "value": "Lisbon"},
        "location",
        "Lisbon, Portugal",
    ),
    (
        "files.html",
        "#gh-attach",
        {"action": "attach", "file": PDF},
        "greenhouse",
        {"name": "ada.pdf", "size": 15, "type": "application/pdf"},
    ),
]


# Shapes read without opening anything, and answers that need no list (see test below).
QUIET_WIDGETS = """
<select id="taleo"><option value="-1" selected>Select...</option>
  <option value="1">Yes</option></select>
<select id="icims" style="display:none"><option value="">— Make a Selection —</option>
  <option value="a">Alpha</option><option value="b">Beta</option></select>
<div><a href="#" id="icims-link" role="combobox" aria-haspopup="listbox" aria-expanded="false">
  <span>— Make a Selection —</span></a></div>
<div style="display:none"><input id="iti-search" role="combobox" aria-autocomplete="list"
  aria-expanded="true" aria-controls="iti-list" aria-label="Search">
  <ul id="iti-list" role="listbox"><li role="option">Germany</li>
    <li role="option">France</li></ul></div>
<label for="zip">Postal code</label>
<input id="zip" role="combobox" aria-autocomplete="list" autocomplete="postal-code">
<label for="town">Town</label><input id="town" role="combobox" aria-autocomplete="list">
"""

QUIET_RUN = """async (html) => {
  const box = document.createElement("div");
  box.innerHTML = html;
  document.body.append(box);
  let opened = 0;
  const link = document.getElementById("icims-link");
  link.addEventListener("click", (e) => { e.preventDefault(); opened += 1; });
  const el = (id) => document.getElementById(id);
  const drive = (id) => window.__drivers.findDriver(el(id));
  const timed = async (fn) => {
    const t = performance.now();
    const v = await fn();
    return [v, performance.now() - t];
  };
  const choose = (value) => ({ action: "choose", value });
  const out = {};
  const taleo = drive("taleo");
  out.taleo = [taleo.read(el("taleo")), (await taleo.describe(el("taleo"))).value];
  const icims = drive("icims-link");
  out.icims = { driver: icims.name, described: await icims.describe(link) };
  out.icims.opened = opened;
  [out.iti, out.iti_ms] = await timed(() => drive("iti-search").describe(el("iti-search")));
  out.iti_apply = await drive("iti-search").apply(el("iti-search"), choose("France"));
  [out.zip, out.zip_ms] = await timed(() => drive("zip").apply(el("zip"), choose("94107")));
  out.zip_value = el("zip").value;
  const town = drive("town");
  [out.town_described, out.town_describe_ms] = await timed(() => town.describe(el("town")));
  [out.town, out.town_ms] = await timed(() => town.apply(el("town"), choose("Springfield")));
  out.town_value = el("town").value;
  return out;
}"""


def test_widgets_read_without_opening(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/native_select.html")
    out: dict[str, Any] = page.evaluate(QUIET_RUN, QUIET_WIDGETS)
    # Taleo's prompt option (value -1) is no value.
    assert out["taleo"] == ["", ""]
    # A select button standing in for a hidden native select: options read from the select,
    # the menu never opened, its prompt text no value.
    assert out["icims"]["driver"] == "popup-select" and out["icims"]["opened"] == 0
    assert texts(out["icims"]["described"])[1:] == ["Alpha", "Beta"]
    assert out["icims"]["described"]["value"] == ""
    # A closed dropdown's search box: its list is in the DOM, read as is; it is not typed into.
    assert texts(out["iti"]) == ["Germany", "France"] and out["iti_ms"] < 200
    assert out["iti_apply"]["status"] == "refused"
    # A free-text field with an address lookup that offers nothing: the typed text stays.
    assert out["zip"]["status"] == "applied" and out["zip_value"] == "94107"
    assert out["zip_ms"] < 1000
    # A typeahead that shows nothing on a press is not waited on; text it keeps is the answer.
    assert out["town_described"]["options"] == [] and out["town_describe_ms"] < 300
    assert out["town"]["status"] == "applied" and out["town_value"] == "Springfield"
    assert out["town_ms"] < 1500


def test_isolated_world(browser: Browser, base_url: str) -> None:
    """Content scripts run in an isolated world: the events they dispatch must still reach React,
    jQuery and select2 handlers, and the native setters and DataTransfer must still work."""
    page = browser.new_page()
    try:
        for name, pick, decision, key, expected in ISOLATED_CASES:
            page.goto(f"{base_url}/tests/fixtures/widgets/{name}")
            cdp = page.context.new_cdp_session(page)
            frame = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
            world = cdp.send("Page.createIsolatedWorld", {"frameId": frame, "worldName": "relay"})
            cdp.send("Runtime.evaluate", {"expression": content_source(),
                                          "contextId": world["executionContextId"]})
            expression = ISOLATED_APPLY % (json.dumps(pick), json.dumps(decision))
            reply = cdp.send(
                "Runtime.evaluate",
                {
                    "expression": expression,
                    "contextId": world["executionContextId"],
                    "awaitPromise": True,
                    "returnByValue": True,
                },
            )
            out = json.loads(reply["result"]["value"])
            assert out.get("isolated") is True, (name, out)
            assert out["result"]["status"] == "applied", (name, pick, out)
            assert page.evaluate("__fixture.read()")[key] == expected, (name, pick)
            assert page.evaluate("window.__fixtureSubmits") == 0
            cdp.detach()
    finally:
        page.close()


SNAPSHOT_LABELS = """async () => {
  const snap = await relayContent.snapshot.snapshot();
  return snap.fields.map((f) => [f.html_id, f.label, f.label_source]);
}"""


def test_parts_of_a_compound_question_are_named_with_it(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/sub_labels.html")
    labels = {html_id: (label, source) for html_id, label, source in page.evaluate(SNAPSHOT_LABELS)}
    # The question's label and the box's sub-label, as aria-labelledby composes them: the first
    # box no longer takes the question alone, the others no longer their part alone.
    assert labels["first_3"] == ("Name First Name", "aria-labelledby")
    assert labels["last_3"] == ("Name Last Name", "aria-labelledby")
    assert labels["area_5"] == ("Phone Number Area Code", "aria-labelledby")
    assert labels["phone_5"] == ("Phone Number Phone Number", "aria-labelledby")
    assert [labels[f"{p}_26"][0] for p in ("month", "day", "year")] == [
        "Start Date Month", "Start Date Day", "Start Date Year"]
    # An aria-labelledby that does not name the control's own label, or names only it: the
    # label[for] stays the label.
    assert labels["city"] == ("City", "label-for")
    assert labels["zip"] == ("ZIP code", "label-for")
    # A question's number is no part of its label.
    assert labels["numbered"] == ("¿A qué puesto aplica?", "aria-labelledby")
    assert labels["numbered-paren"] == ("Mobile phone", "label-for")
    assert labels["decimal"] == ("3.5 GPA or above?", "label-for")
    # A date's part named only Month / Year is read with its fieldset's legend, where the
    # fieldset holds only the date's parts.
    assert labels["end_m"][0] == "End Date Month" and labels["end_y"][0] == "End Date Year"
    assert labels["avail_m"][0] == "Month"


SNAPSHOT_BLOCKS = """async () => {
  const snap = await relayContent.snapshot.snapshot();
  return Object.fromEntries(snap.fields.map((f) => [f.html_id, (f.attrs || {}).block || ""]));
}"""


def test_rows_numbered_among_field_numbers_are_blocks(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/sub_labels.html")
    blocks = page.evaluate(SNAPSHOT_BLOCKS)
    # "182-0-183" and "182-1-183": the same question in two rows of one set.
    assert blocks["182-0-183"] == "row:0" and blocks["182-1-183"] == "row:1", blocks
    # A numbered question list asks a different thing in each: no blocks.
    assert blocks["answers_2"] == "" and blocks["answers_3"] == "", blocks


SNAPSHOT_SECTIONS = """async () => {
  const snap = await relayContent.snapshot.snapshot();
  return snap.fields.map((f) => [f.html_id, f.section]);
}"""


def test_a_bold_paragraph_alone_is_a_section_heading(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/text_headings.html")
    sections = dict(page.evaluate(SNAPSHOT_SECTIONS))
    assert sections["email"] == "Employment Application"
    assert sections["company"] == "Employment History"
    # A bold lead-in before plain text, or one ending in a colon, introduces text: no heading.
    assert sections["title"] == sections["start"] == sections["end"] == "Employment History"


def test_an_upload_zone_whose_input_is_elsewhere_is_one_field_by_its_label(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/files.html")
    labels = {html_id: (label, source) for html_id, label, source in page.evaluate(SNAPSHOT_LABELS)}
    # The zone takes the label of the read-only record box beside it; neither that box nor
    # Dropzone's own input at the end of <body> is a field of its own.
    assert labels["dz-zone"] == ("Portfolio", "preceding-text")
    assert "dz-record" not in labels
    files = page.evaluate("""async () => (await relayContent.snapshot.snapshot()).fields
      .filter((f) => f.widget === "file").map((f) => f.locator)""")
    assert any("dz-zone" in f for f in files), files
    assert page.evaluate("""() => relayContent["drivers/index"].isPartOfWidget(
      document.querySelector("body > input.dz-hidden-input"))""")


SNAPSHOT_CHOICES = """async () => {
  const snap = await relayContent.snapshot.snapshot();
  return snap.fields.map((f) => ({ html_id: f.html_id, tag: f.tag, widget: f.widget,
    label: f.label, options: (f.options || []).map((o) => [o.value, o.text]), form: f.form,
    form_submit: f.form_submit }));
}"""


def test_a_choice_role_around_native_choices_is_a_wrapper(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/choice_wrappers.html")
    fields = page.evaluate(SNAPSHOT_CHOICES)
    by_label = {f["label"]: f for f in fields}
    # A list with role=checkbox and items with role=radio around native radios: one radio group
    # of the native inputs, named by the label before the help text, not by the help text.
    auth = by_label["Are you legally authorized to work in the United States?"]
    assert auth["widget"] == "radio_group"
    assert auth["options"] == [["true", "Yes"], ["false", "No"]]
    tools = by_label["Which tools do you use?"]
    assert tools["widget"] == "checkbox_group"
    assert [t for _v, t in tools["options"]] == ["Git", "Docker", "Vim"]
    relocate = by_label["Are you willing to relocate?"]
    assert relocate["widget"] == "radio_group"
    assert [t for _v, t in relocate["options"]] == ["Yes", "No"]
    # No wrapper is a field, nor a choice of one.
    assert not [f for f in fields if f["tag"] in ("ul", "li")], fields
    # ARIA choices with no native input (or only a hidden one) are still the choices.
    shift = by_label["Which shift do you prefer?"]
    assert [t for _v, t in shift["options"]] == ["Day", "Night"]
    assert by_label["Open to remote work"]["widget"] == "checkbox"
    assert "Choose one." not in by_label and "Select all that apply." not in by_label


def test_a_form_s_submit_control_says_what_the_form_is_for(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/choice_wrappers.html")
    said = {f["form"]: f["form_submit"] for f in page.evaluate(SNAPSHOT_CHOICES)}
    assert said == {"apply": "Submit application", "hsForm_b41f": "Subscribe"}


def test_pikaday_calendars_take_the_day(open_page: Any) -> None:
    page = open_page("tests/fixtures/widgets/pikaday.html")
    # A read-only box: the calendar is opened, its year and month set, the day pressed.
    hs = run(page, "#hs-date", [{"action": "set_date", "value": "2027-01-11"}])
    assert hs["driver"] == "pikaday" and hs["described"]["widget"] == "date_text"
    assert statuses(hs) == ["applied"], hs["results"]
    assert hs["read"]["hs"] == "01/11/2027" and hs["read"]["hs_real"] == "2027-01-11"
    # The page writes the day in its own format; a text in some format is not the calendar's.
    eu = run(page, "#eu-date", [{"action": "set_text", "value": "11.01.2027"},
                                {"action": "set_date", "value": "2027-01-11"}])
    assert statuses(eu) == ["refused", "applied"], eu["results"]
    assert eu["read"]["eu"] == "11.01.2027"
    # A day the calendar does not offer is refused, and the box stays empty.
    narrow = run(page, "#narrow-date", [{"action": "set_date", "value": "2027-01-11"},
                                        {"action": "set_date", "value": "2026-02"}])
    assert statuses(narrow) == ["refused", "refused"] and narrow["read"]["narrow"] == ""
    # The calendar's lists are its parts, no fields of their own.
    assert page.evaluate(
        "__drivers.isPartOfWidget(document.querySelector('.pika-select-month'))") is True
    fields = page.evaluate(SNAPSHOT_CHOICES)
    assert [f["html_id"] for f in fields] == ["hs-date", "eu-date", "narrow-date"]
    assert page.locator(".pika-single:not(.is-hidden)").count() == 0
    no_submit(narrow)


MUI_FIELDS = """async () => (await relayContent.snapshot.snapshot()).fields
  .map((f) => [f.label, f.widget, f.options.map((o) => o.text)])"""


def test_material_ui(open_page: Any) -> None:
    # The real Material UI 6 and MUI X 7 (tests/fixtures/widgets/mui.html).
    page = open_page("tests/fixtures/widgets/mui.html")
    fields = {label: (widget, options) for label, widget, options in page.evaluate(MUI_FIELDS)}
    # The accessible date field is one field named by its label: neither its contenteditable
    # Month / Day / Year sections nor the hidden input beside them are fields of their own.
    assert fields["Available from"] == ("date_parts", [])
    assert not {"Month", "Day", "Year"} & set(fields), fields
    assert fields["Start date"] == ("date_text", [])
    assert fields["Country"] == ("listbox", ["Canada", "Mexico", "United States"])
    assert fields["Skills"] == ("combobox", ["Go", "Java", "Kafka", "Python", "Rust"])
    assert len(fields) == 7, fields

    country = run(page, "#country", [{"action": "choose", "value": "United States"}])
    assert country["driver"] == "popup-select" and statuses(country) == ["applied"]
    assert country["read"]["country"] == "United States"
    # The Menu's portal closes again (after its fade-out).
    page.wait_for_function("() => !document.querySelector('[role=listbox]')", timeout=3000)

    # A multiple Select: its list says aria-multiselectable and stays open; one click per choice.
    stack = run(
        page,
        "#stack",
        [
            {"action": "choose", "values": ["Python", "Go"]},
            {"action": "choose", "values": ["Python", "Cobol"]},
        ],
    )
    assert stack["described"]["multiple"] is True
    assert statuses(stack) == ["applied", "refused"]
    assert stack["read"]["stack"] == ["Python", "Go"] and stack["read_now"] == "Python, Go"
    page.wait_for_function("() => !document.querySelector('[role=listbox]')", timeout=3000)

    # Options that arrive from a lookup only after typing.
    city = run(page, "#city", [{"action": "choose", "value": "San Francisco, CA"}])
    assert city["driver"] == "combobox" and statuses(city) == ["applied"]
    assert city["read"]["city"] == "San Francisco, CA, USA"

    # An Autocomplete of several answers: each choice becomes a chip and the input empties; the
    # chips are what the box holds.
    skills = run(
        page,
        "#skills",
        [
            {"action": "choose", "value": "Python"},
            {"action": "choose", "value": "Go"},
            {"action": "choose", "value": "Cobol"},
        ],
    )
    assert skills["driver"] == "combobox"
    assert statuses(skills) == ["applied", "applied", "refused"]
    assert skills["read"]["skills"] == ["Python", "Go"] and skills["read_now"] == "Python, Go"

    typed = run(page, "#typed-date", [{"action": "set_date", "value": "2027-01-11"}])
    assert typed["driver"] == "date-text" and statuses(typed) == ["applied"]
    assert typed["read"]["typed_date"] == "2027-01-11"

    # Sections typed one by one, each once the field has it focused; a year alone is refused
    # for a field that needs a month and a day; a filled date is typed over.
    group = "[role=group][aria-labelledby=sections-date-label]"
    sections = run(
        page,
        group,
        [
            {"action": "set_date", "value": "2027-01-11"},
            {"action": "set_date", "value": "2027"},
            {"action": "set_date", "value": "2026-12-31"},
        ],
    )
    assert sections["driver"] == "date-parts"
    assert statuses(sections) == ["applied", "refused", "applied"]
    assert sections["results"][0]["detail"] == "typed 01/11/2027"
    assert sections["read"]["sections_date"] == "2026-12-31"
    # The hidden input and a section lead to the same driver, for the same field.
    assert run(page, "#sections-date", [])["driver"] == "date-parts"
    no_submit(sections)
    # A form section that is a group holding a date among other fields is no date itself, and
    # its other fields are no date's parts; nor is a group of spinbuttons that name no date.
    assert page.evaluate(GROUPS_NOT_DATES) == {
        "section": None, "title": "", "titlePart": False, "date": "date-parts", "stepper": None,
    }


GROUPS_NOT_DATES = """() => {
  const box = document.createElement("div");
  box.innerHTML = `<div role="group" id="sec" aria-label="Work experience">
      <label>Job title <input id="sec-title"></label>
      <div role="group" id="sec-date" aria-label="From">
        <span role="spinbutton" aria-label="Month" contenteditable="true">MM</span>
        <span role="spinbutton" aria-label="Year" contenteditable="true">YYYY</span></div></div>
    <div role="group" id="stepper" aria-label="Guests">
      <div role="spinbutton" aria-label="Adults" tabindex="0">1</div></div>`;
  document.body.append(box);
  const d = window.__drivers;
  const name = (id) => d.findDriver(document.getElementById(id))?.name ?? null;
  const title = document.getElementById("sec-title");
  const out = { section: name("sec"), title: d.findDriver(title)?.name ?? "",
    titlePart: d.isPartOfWidget(title), date: name("sec-date"), stepper: name("stepper") };
  box.remove();
  return out;
}"""
