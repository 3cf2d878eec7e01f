"""Issue 10 end to end in one real Chromium with the real extension and bridge (rules only): the
review in the browser's side panel, the person's own Submit, and what the next form learns from it.

The loop (tests/fixtures/pages/learning/): Fill first.html → the side panel lists every field with
its source → the test, acting as the person, changes two answers, fills one Relay left and clicks
the page's own Submit (the person may; Relay never does) → the application is recorded with every
field's final value and who set it → Fill on second.html, which asks the same three questions in
other words (one in German), answers them from the saved answers, and the side panel says so.

Then the review itself on tests/fixtures/pages/review.html, React-controlled throughout (vendored
React 18: undo must reach React's state, not only the DOM): marks, live edits, per-field actions,
undo, accessibility, screenshots.

Headless Chromium shows no browser UI, so no side panel: the test opens the side panel's own
page (`sidepanel/panel.html?tab=<id>`, exactly what the side panel loads for that tab) as a second
page sized like the side panel beside the form page, and acts on it as the person would.
Screenshots of both side by side, at 1280x900 and 1024x700, go to `<tmp>/screenshots/`.
"""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.report import FillReport
from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from bridge.source_words import sources_line
from bridge.store import Store
from tests.conftest import FIXTURES, REPO, SAMPLE_PROFILE

pytestmark = pytest.mark.e2e

PAGE = "pages/review.html"
WHY = "I like calm, careful systems that people can rely on."
AXE = REPO / "tests" / "vendor" / "axe-core" / "axe.min.js"
WAIT_MS = 10_000
# Widths of Chrome's side panel in a window of each size (it opens at about a quarter).
SIZES = {"1280x900": (1280, 900, 360), "1024x700": (1024, 700, 320)}
# What a developer's trace looks like: "patterns:label", "decision: leave", "never-fill:…".
TRACE = re.compile(r"\b(?:patterns|decision|no-answer|below-bar|never-fill|autocomplete|type):")

_TAB_ID = """async (url) => (await chrome.tabs.query({})).find((t) => t.url === url).id"""
_STATE = """async (tabId) => chrome.tabs.sendMessage(tabId, {relay: "state"}, {frameId: 0})"""
_REVIEW = """async (tabId) => globalThis.relayReview.read(tabId)"""
# The page's controls and what React holds: both must agree, and match what was there before.
_READ = "() => ({dom: window.__fixture.read(), react: {...window.__state}})"
# Where each of the page's own controls is, and their attributes: marks never move or change them
# (React mirrors a text input's value into its `value` attribute, and the react-select redraws
# its own search box when a choice is made: those are the fill itself).
_LAYOUT = """() => [...document.querySelectorAll('input, select, textarea, button, label')]
  .filter((el) => !el.closest('#pronouns-wrap'))
  .map((el) => {
    const r = el.getBoundingClientRect();
    const mirrored = (a) => a.name === 'value' && !['radio', 'checkbox'].includes(el.type);
    const attrs = [...el.attributes].filter((a) => !mirrored(a)).map((a) => a.name + '=' + a.value);
    return {id: el.id || el.name || el.textContent.trim().slice(0, 20),
            box: [r.x, r.y, r.width, r.height], attrs: attrs.sort().join(' ')};
  })"""
_COVERED = """(spots) => spots.filter((s) => s.shown).flatMap((s) =>
    [...document.querySelectorAll('input, select, textarea, button, a[href], label')]
    .filter((el) => {
        const r = el.getBoundingClientRect();
        // The badge (18 px, centred on the spot) overlaps the control's box.
        return s.x - 9 < r.right - 1 && s.x + 9 > r.left + 1
            && s.y - 9 < r.bottom - 1 && s.y + 9 > r.top + 1;
    }).map((el) => [s.field_id, el.id || el.tagName]))"""
# The side panel's buttons in view (below its sticky header) that something lies over.
_BUTTONS_COVERED = """() => {
  const top = document.querySelector('header').getBoundingClientRect().bottom;
  return [...document.querySelectorAll('main button')].filter((b) => {
    const r = b.getBoundingClientRect();
    if (r.top < top || r.bottom > innerHeight || r.height === 0) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && b.contains(hit));
  }).map((b) => b.getAttribute('aria-label') || b.textContent);
}"""
_ROWS = """(where) => [...document.querySelectorAll(`li.row[data-where="${where}"]`)].map((li) => ({
    field: li.dataset.fieldId, source: li.dataset.source,
    label: li.querySelector('.label').textContent,
    value: li.querySelector('.value').textContent,
    why: li.querySelector('.why')?.textContent ?? '',
    need: li.querySelector('.need')?.textContent ?? '',
    sourceText: li.querySelector('.source').textContent}))"""


@dataclass
class Relay:
    browser: RelayBrowser
    server: StaticServer
    home: Path
    shots: Path


@dataclass
class Scene:
    browser: RelayBrowser
    page: Any
    panel: Any
    tab_id: int
    report: FillReport
    before: dict[str, Any]
    shots: Path
    home: Path


def _profile(folder: Path) -> Path:
    """The sample profile without an answer to "how did you hear", and with a saved answer the
    person will change."""
    raw = json.loads(SAMPLE_PROFILE.read_text(encoding="utf-8"))
    raw["application"].pop("howDidYouHear", None)
    raw["application"]["answers"].append(
        {"question": "What is your favourite programming language?", "answer": "Rust"})
    for doc in SAMPLE_PROFILE.parent.iterdir():
        if doc.suffix == ".pdf":
            (folder / doc.name).write_bytes(doc.read_bytes())
    path = folder / "profile.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[Relay]:
    """One Chromium with Relay for the whole module."""
    del chromium
    home = tmp_path_factory.mktemp("relay-home-review")
    shots = tmp_path_factory.mktemp("screenshots")
    profile = _profile(tmp_path_factory.mktemp("profile"))
    with StaticServer(FIXTURES) as server, relay_browser(profile, home=home) as browser:
        yield Relay(browser, server, home, shots)


def _open_panel(browser: RelayBrowser, page: Any, height: int = 900) -> tuple[Any, int]:
    """The side panel's page for the tab that shows `page`, sized like the side panel."""
    tab_id = int(browser.worker.evaluate(_TAB_ID, page.url))
    extension_id = browser.worker.url.split("/")[2]
    panel = browser.context.new_page()
    panel.set_viewport_size({"width": 360, "height": height})
    panel.goto(f"chrome-extension://{extension_id}/sidepanel/panel.html?tab={tab_id}")
    panel.wait_for_selector("li.row", timeout=WAIT_MS)
    return panel, tab_id


@pytest.fixture(scope="module")
def scene(relay: Relay) -> Iterator[Scene]:
    browser = relay.browser
    page = browser.open(relay.server.url(PAGE))
    page.set_viewport_size({"width": 1280 - 360, "height": 900})
    page.wait_for_function("() => window.__fixture && window.__fixture.loaded()")
    before = page.evaluate(_READ)
    layout = page.evaluate(_LAYOUT)
    outcome = browser.fill(page)
    assert outcome.report.ok, outcome.report.error
    # The marks draw over the page: nothing of the page moved or changed.
    assert page.evaluate(_LAYOUT) == layout
    panel, tab_id = _open_panel(browser, page)
    yield Scene(browser, page, panel, tab_id, outcome.report, before, relay.shots, relay.home)


def _rows(panel: Any, where: str = "all") -> dict[str, dict[str, str]]:
    return {r["field"]: r for r in panel.evaluate(_ROWS, where)}


def _row(panel: Any, field_id: str, where: str = "all") -> Any:
    return panel.locator(f'li.row[data-where="{where}"][data-field-id="{field_id}"]')


_WORDS = {"profile": "Rules (your profile)", "saved_answer": "Saved answer", "llm": "Model"}


def _check_listing(browser: RelayBrowser, panel: Any, tab_id: int, report: FillReport,
                   home: Path) -> dict[str, dict[str, str]]:
    """Every field of the fill is a row with its source and a plain reason, and the panel's
    counts are those of `relay fill`'s report and of `relay history`."""
    panel.wait_for_function(
        "(n) => document.querySelectorAll('li.row[data-where=\"all\"]').length === n",
        arg=len(report.fields), timeout=WAIT_MS)
    rows = _rows(panel)
    assert set(rows) == {f.field_id for f in report.fields}
    for field in report.fields:
        row = rows[field.field_id]
        gave = field.status in ("fill", "flag") and field.applied == "applied"
        assert row["sourceText"] == (_WORDS[field.source] if gave else "Not filled"), (field, row)
        assert row["why"] and not TRACE.search(row["why"]), row  # plain words, never a trace
    c = report.counts
    summary = panel.locator("section.summary").inner_text()
    verdicts = (f"{c.get('fill', 0)} filled, {c.get('flag', 0)} flagged for review, "
                f"{c.get('leave', 0)} left for you, {c.get('never', 0)} never filled, "
                f"{c.get('keep', 0)} kept as they were")
    assert verdicts in summary and f"Values from: {sources_line(c)}" in summary
    assert "Model: not used" in summary
    review = browser.worker.evaluate(_REVIEW, tab_id)
    with Store.open(home) as store:
        history_counts = store.history(report.run_id)[0]["counts"]
    for key in ("fill", "flag", "leave", "never", "keep", "source:profile", "source:llm",
                "source:saved_answer"):
        assert review["counts"].get(key, 0) == c.get(key, 0) == history_counts.get(key, 0), key
    return rows


def _wait_for_applications(home: Path, count: int) -> list[dict[str, Any]]:
    """The bridge records applications in its own process: wait for them (at most 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        with Store.open(home) as store:
            apps = store.applications()
            if len(apps) >= count or time.monotonic() > deadline:
                return [store.application(a["application_id"]) for a in apps]
        time.sleep(0.2)


def test_fill_review_the_persons_submit_and_the_next_form_answers_from_it(relay: Relay) -> None:
    browser, home = relay.browser, relay.home
    page = browser.open(relay.server.url("pages/learning/first.html"))
    first = browser.fill(page)
    assert first.report.ok, first.report.error
    panel, tab_id = _open_panel(browser, page)
    rows = _check_listing(browser, panel, tab_id, first.report, home)
    by_label = {r["label"]: r for r in rows.values()}
    assert by_label["What is your favourite programming language?"]["value"] == "Rust"
    assert by_label["How did you hear about this job?"]["sourceText"] == "Not filled"
    assert page.input_value("#first") == "Ada"

    # The person: two answers changed, one Relay left filled in; the panel follows each edit.
    page.fill("#lang", "Python")
    page.fill("#why", WHY)
    page.fill("#heard", "A friend told me")
    heard = next(f.field_id for f in first.report.fields if f.label.startswith("How did you"))
    _row(panel, heard).locator('.source[data-source="you"]').wait_for(timeout=WAIT_MS)
    assert page.evaluate("window.__fixtureSubmits") == 0  # Relay submitted nothing
    page.click("#send")  # the person's own Submit, a real click
    assert page.is_visible("#done")

    apps = _wait_for_applications(home, 1)
    assert len(apps) == 1, "the person's Submit was not recorded"
    app = apps[0]
    assert (app["company"], app["job_title"], app["how"]) == (
        "Acme Robotics", "Backend Engineer", "submit_event")
    assert app["run_id"] == first.report.run_id and app["status"] == "submitted"
    fields = {f["label"]: f for f in app["fields"]}
    assert fields["First name"]["value"] == "Ada" and fields["First name"]["set_by"] == "rules"
    lang = fields["What is your favourite programming language?"]
    assert (lang["value"], lang["set_by"], lang["relay_value"]) == ("Python", "person", "Rust")
    why = fields["Why are you interested in this role?"]
    assert why["value"] == WHY and why["set_by"] == "person" and why["relay_value"]
    assert (fields["How did you hear about this job?"]["value"],
            fields["How did you hear about this job?"]["set_by"]) == ("A friend told me", "person")
    with Store.open(home) as store:
        saved = {a["question"]: a["value"] for a in store.saved_answers()}
    assert saved == {
        "What is your favourite programming language?": "Python",
        "Why are you interested in this role?": WHY,
        "How did you hear about this job?": "A friend told me",
    }
    panel.close()

    # The next form asks the same three questions in other words, one in German.
    page2 = browser.open(relay.server.url("pages/learning/second.html"))
    second = browser.fill(page2)
    assert second.report.ok, second.report.error
    panel2, tab2 = _open_panel(browser, page2)
    rows2 = {r["label"]: r for r in _check_listing(browser, panel2, tab2, second.report,
                                                    home).values()}
    for label, selector, value, asked in (
        ("Where did you find this job?", "#source", "A friend told me",
         "How did you hear about this job?"),
        ("Which is your favourite programming language?", "#lang", "Python",
         "What is your favourite programming language?"),
        ("Warum interessieren Sie sich für diese Stelle?", "#motivation", WHY,
         "Why are you interested in this role?"),
    ):
        decision = next(f for f in second.report.fields if f.label == label)
        assert page2.input_value(selector) == value, (label, decision)
        assert decision.source == "saved_answer" and decision.status == "flag", decision
        assert f"Your saved answer to “{asked}”" in decision.reason, decision.reason
        row = rows2[label]
        assert row["sourceText"] == "Saved answer" and asked in row["why"], row
    assert page2.evaluate("window.__fixtureSubmits") == 0

    # This page sends the form by script: its confirmation is what tells of the Submit.
    page2.click("#send")
    page2.wait_for_selector("#done", state="visible")
    apps = _wait_for_applications(home, 2)
    assert len(apps) == 2, "the Submit seen by its confirmation was not recorded"
    latest = apps[0]  # newest first
    assert (latest["company"], latest["how"]) == ("Globex", "confirmation")
    set_by = {f["label"]: f["set_by"] for f in latest["fields"]}
    assert set_by["Which is your favourite programming language?"] == "saved_answer"
    assert set_by["First name"] == "rules"
    panel2.close()
    page.close()
    page2.close()


def _field_id(scene: Scene, label: str) -> str:
    return next(f.field_id for f in scene.report.fields if f.label.startswith(label))


def test_needs_you_first_marks_cover_no_control_and_rows_focus_their_field(scene: Scene) -> None:
    rows = _check_listing(scene.browser, scene.panel, scene.tab_id, scene.report, scene.home)
    fields = {f.label: f for f in scene.report.fields}
    assert rows[fields["First name"].field_id]["sourceText"] == "Rules (your profile)"
    assert fields["City"].status == "keep"  # the page's own value: Relay never touched it
    # Needs you first: the required question Relay left, with a plain reason.
    needs = _rows(scene.panel, "needs")
    why_id = _field_id(scene, "Why do you want")
    assert why_id in needs and needs[why_id]["need"] == "Required, and still empty."
    assert scene.panel.locator("#review h2").first.inner_text().startswith("Needs you")

    state = scene.browser.worker.evaluate(_STATE, scene.tab_id)
    spots = state["badges"]
    assert any(s["shown"] for s in spots), spots
    assert scene.page.evaluate(_COVERED, spots) == []
    # A badge's menu holds the field's actions: Accept, from the page.
    email = _field_id(scene, "Email")
    spot = next(s for s in spots if s["field_id"] == email)
    scene.page.mouse.click(spot["x"], spot["y"])
    scene.page.keyboard.press("Enter")  # the menu opens with its first action, Accept, focused
    _row(scene.panel, email).locator(".facts", has_text="accepted").wait_for(timeout=WAIT_MS)
    # A row's click scrolls to its field and focuses it.
    _row(scene.panel, email).locator("button.pick").click()
    scene.page.wait_for_function(
        "() => document.activeElement && document.activeElement.id === 'email'", timeout=WAIT_MS)


def test_edits_in_the_page_update_the_panel_live(scene: Scene) -> None:
    why = _field_id(scene, "Why do you want")
    scene.page.locator("#why").fill("I like the team.")
    row = _row(scene.panel, why)
    row.locator('.source[data-source="you"]').wait_for(timeout=WAIT_MS)
    assert row.locator(".value").inner_text() == "I like the team."
    # No longer waiting for the person.
    _row(scene.panel, why, "needs").wait_for(state="detached", timeout=WAIT_MS)
    # A password is the person's alone: the review says it holds something, never what.
    password = _field_id(scene, "Create a password")
    scene.page.locator("#password").fill("correct horse battery")
    _row(scene.panel, password).locator(".value", has_text="(filled in; not shown)").wait_for(
        timeout=WAIT_MS)
    review = scene.browser.worker.evaluate(_REVIEW, scene.tab_id)
    assert "correct horse" not in json.dumps(review)


def test_undo_edit_in_place_and_undo_all_restore_react_state_exactly(scene: Scene) -> None:
    page, panel = scene.page, scene.panel
    after = page.evaluate(_READ)
    changed = {k for k, v in after["dom"].items() if v != scene.before["dom"][k]} - {"why"}
    assert {"first", "last", "email", "pronouns", "state"} <= changed, after  # Relay filled these

    # Undo one field from its row: back to exactly what was there, in the DOM and in React.
    first = _field_id(scene, "First name")
    _row(panel, first).get_by_role("button", name="Undo: First name").click()
    page.wait_for_function("() => document.querySelector('#first').value === ''", timeout=WAIT_MS)
    assert page.evaluate("() => window.__state.first") == ""
    _row(panel, first).locator('.source[data-source=""]').wait_for(timeout=WAIT_MS)
    # Fill again: Relay decides that field afresh; the others keep what they hold.
    _row(panel, first).get_by_role("button", name="Fill again: First name").click()
    page.wait_for_function("() => window.__state.first === 'Ada'", timeout=WAIT_MS)
    _row(panel, first).locator('.source[data-source="rules"]').wait_for(timeout=WAIT_MS)
    assert page.input_value("#why") == "I like the team."

    # Edit in place from the panel: the value reaches React's state.
    last = _field_id(scene, "Last name")
    _row(panel, last).get_by_role("button", name="Edit: Last name").click()
    editor = _row(panel, last).locator(".edit input")
    editor.fill("Byron")
    editor.press("Enter")
    page.wait_for_function("() => window.__state.last === 'Byron'", timeout=WAIT_MS)
    assert page.input_value("#last") == "Byron"
    _row(panel, last).locator('.source[data-source="you"]').wait_for(timeout=WAIT_MS)

    # Undo the whole fill: every field Relay (or the panel) changed is as it was before the Fill,
    # React's state included, the radio group where nothing was chosen too (no person's click
    # can un-choose it), the react-select and the Workday-style listbox (through their drivers,
    # as a person would: the clear button, the list's "Select One" row); what the person typed in
    # the page stays theirs.
    relocate = _field_id(scene, "Are you willing to relocate?")
    assert page.evaluate("() => window.__state.relocate") == "Yes"  # Relay chose it
    panel.get_by_role("button", name="Undo the whole fill").click()
    page.wait_for_function("() => window.__state.email === ''", timeout=WAIT_MS)
    panel.locator("p.message").wait_for(timeout=WAIT_MS)
    now = page.evaluate(_READ)
    expected = {**scene.before["dom"], "why": "I like the team.",
                "password": "correct horse battery"}
    assert now["dom"] == expected and expected["relocate"] == ""
    assert {k: now["react"][k] for k in expected} == expected
    message = panel.locator("p.message").inner_text()
    assert "could not be put back" not in message, message
    assert relocate not in _rows(panel, "needs")
    # The radios are as the page made them: their own values, none ticked.
    assert page.evaluate("""() => [...document.querySelectorAll('input[name=relocate]')]
        .map((r) => [r.value, r.checked])""") == [["Yes", False], ["No", False]]
    # Nothing was submitted on the way.
    assert page.evaluate("() => window.__fixtureSubmits") == 0


def test_the_side_panel_is_accessible_and_looks_finished(scene: Scene) -> None:
    page, panel = scene.page, scene.panel
    # Fill again after the undo, so the screenshots show a full review.
    scene.browser.fill(page)
    panel.wait_for_function(
        """() => document.querySelectorAll('li.row .source[data-source="rules"]').length > 3""",
        timeout=WAIT_MS)
    panel.evaluate(AXE.read_text("utf-8"))  # page evaluation is not subject to the page's CSP
    result = panel.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
               for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []

    # The note on an action covers nothing: every button in view can still be pressed.
    email = _field_id(scene, "Email")
    _row(panel, email).get_by_role("button", name="Save this answer: Email").click()
    # (Saving embeds the question: the first time, the bridge loads the encoder, a few seconds.)
    panel.locator("#status", has_text="Saved").wait_for(timeout=6 * WAIT_MS)
    assert panel.evaluate(_BUTTONS_COVERED) == []

    # Keyboard alone: Tab reaches the row buttons, and focus is visible.
    panel.locator("button").first.focus()
    panel.keyboard.press("Tab")
    outline = panel.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")

    # 200% zoom: the panel's CSS width halves; nothing runs off to the side.
    for width in (180, 160):
        panel.set_viewport_size({"width": width, "height": 900})
        assert panel.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1"), width

    for name, (width, height, side) in SIZES.items():
        page.set_viewport_size({"width": width - side, "height": height})
        panel.set_viewport_size({"width": side, "height": height})
        page.wait_for_timeout(700)  # the marks follow the new layout
        _side_by_side(scene, scene.shots / f"review-{name}.png", width, height, side)
    assert all((scene.shots / f"review-{n}.png").stat().st_size > 10_000 for n in SIZES)


def _side_by_side(scene: Scene, target: Path, width: int, height: int, side: int) -> None:
    """One picture of the window: the form page on the left, the side panel on the right."""
    left = base64.b64encode(scene.page.screenshot()).decode()
    right = base64.b64encode(scene.panel.screenshot()).decode()
    sheet = scene.browser.context.new_page()
    try:
        sheet.set_viewport_size({"width": width, "height": height})
        sheet.set_content(
            f'<body style="margin:0;display:flex;background:#9ca3af">'
            f'<img src="data:image/png;base64,{left}" width="{width - side - 1}" height="{height}">'
            f'<div style="width:1px;background:#6b7280"></div>'
            f'<img src="data:image/png;base64,{right}" width="{side}" height="{height}"></body>')
        sheet.screenshot(path=str(target))
    finally:
        sheet.close()


def test_marks_go_with_one_click_and_when_the_panel_closes(scene: Scene) -> None:
    page, panel, worker = scene.page, scene.panel, scene.browser.worker

    def marks() -> int:
        return sum(worker.evaluate(_STATE, scene.tab_id)["marks"].values())

    assert marks() > 0
    panel.get_by_role("button", name="Hide marks on the page").click()
    page.wait_for_function("() => !document.querySelector('relay-marks')", timeout=WAIT_MS)
    assert marks() == 0
    # A new Fill marks the page again; closing the side panel takes the marks away.
    scene.browser.fill(page)
    assert marks() > 0
    panel.close()
    page.wait_for_function("() => !document.querySelector('relay-marks')", timeout=WAIT_MS)
