"""The review in the browser's side panel, the marks on the page, per-field actions and undo
(issue 10). Real Chromium, the real extension and bridge, the sample profile, rules only.

Headless Chromium shows no browser UI, so no side panel: the test opens the side panel's own
page (`sidepanel/panel.html?tab=<id>`, exactly what the side panel loads for that tab) as a second
page sized like the side panel beside the form page, and acts on it as the person would.
Screenshots of both side by side, at 1280x900 and 1024x700, go to `<tmp>/screenshots/`.

The form (tests/fixtures/pages/review.html) is React-controlled throughout (vendored React 18):
undo must reach React's state, not only the DOM.
"""

from __future__ import annotations

import base64
import json
import re
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

PAGE = "pages/review.html"
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
# (React mirrors a text input's value into its `value` attribute: that one is the fill itself).
_LAYOUT = """() => [...document.querySelectorAll('input, select, textarea, button, label')]
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
_ROWS = """(where) => [...document.querySelectorAll(`li.row[data-where="${where}"]`)].map((li) => ({
    field: li.dataset.fieldId, source: li.dataset.source,
    label: li.querySelector('.label').textContent,
    value: li.querySelector('.value').textContent,
    why: li.querySelector('.why')?.textContent ?? '',
    need: li.querySelector('.need')?.textContent ?? '',
    sourceText: li.querySelector('.source').textContent}))"""


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


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[Scene]:
    del chromium
    home = tmp_path_factory.mktemp("relay-home-review")
    shots = tmp_path_factory.mktemp("screenshots")
    with StaticServer(FIXTURES) as server, relay_browser(SAMPLE_PROFILE, home=home) as browser:
        page = browser.open(server.url(PAGE))
        page.set_viewport_size({"width": 1280 - 360, "height": 900})
        page.wait_for_function("() => window.__fixture && window.__fixture.loaded()")
        before = page.evaluate(_READ)
        layout = page.evaluate(_LAYOUT)
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        # The marks draw over the page: nothing of the page moved or changed.
        assert page.evaluate(_LAYOUT) == layout
        tab_id = int(browser.worker.evaluate(_TAB_ID, page.url))
        extension_id = browser.worker.url.split("/")[2]
        panel = browser.context.new_page()
        panel.set_viewport_size({"width": 360, "height": 900})
        panel.goto(f"chrome-extension://{extension_id}/sidepanel/panel.html?tab={tab_id}")
        panel.wait_for_selector("li.row", timeout=WAIT_MS)
        yield Scene(browser, page, panel, tab_id, outcome.report, before, shots, home)


def _rows(panel: Any, where: str = "all") -> dict[str, dict[str, str]]:
    return {r["field"]: r for r in panel.evaluate(_ROWS, where)}


def _row(panel: Any, field_id: str, where: str = "all") -> Any:
    return panel.locator(f'li.row[data-where="{where}"][data-field-id="{field_id}"]')


def test_the_side_panel_lists_every_field_with_its_source_and_counts(scene: Scene) -> None:
    report, panel = scene.report, scene.panel
    rows = _rows(panel)
    assert set(rows) == {f.field_id for f in report.fields}
    words = {"profile": "Rules (your profile)", "saved_answer": "Saved answer", "llm": "Model"}
    for field in report.fields:
        row = rows[field.field_id]
        gave = field.status in ("fill", "flag") and field.applied == "applied"
        assert row["sourceText"] == (words[field.source] if gave else "Not filled"), (field, row)
        # Plain words, never the engine's trace.
        assert row["why"] and not TRACE.search(row["why"]), row
    filled = {f.label: f for f in report.fields}
    assert filled["First name"].status == "fill" and filled["First name"].applied == "applied"
    assert filled["City"].status == "keep"  # the page's own value: Relay never touched it

    # The counts are those of `relay fill`'s report and of `relay history`.
    c = report.counts
    summary = panel.locator("section.summary").inner_text()
    verdicts = (f"{c.get('fill', 0)} filled, {c.get('flag', 0)} flagged for review, "
                f"{c.get('leave', 0)} left for you, {c.get('never', 0)} never filled, "
                f"{c.get('keep', 0)} kept as they were")
    assert verdicts in summary
    assert f"Values from: {sources_line(c)}" in summary
    assert "Model: not used" in summary
    review = scene.browser.worker.evaluate(_REVIEW, scene.tab_id)
    with Store.open(scene.home) as store:
        history_counts = store.history(report.run_id)[0]["counts"]
    for key in ("fill", "flag", "leave", "never", "keep", "source:profile", "source:llm",
                "source:saved_answer"):
        assert review["counts"].get(key, 0) == c.get(key, 0) == history_counts.get(key, 0), key

    # Needs you first: the required question Relay left, with a plain reason.
    needs = _rows(panel, "needs")
    why_id = next(f.field_id for f in report.fields if f.label.startswith("Why do you want"))
    assert why_id in needs and needs[why_id]["need"] == "Required, and still empty."
    heading = panel.locator("h2").first.inner_text()
    assert heading.startswith("Needs you")



def _field_id(scene: Scene, label: str) -> str:
    return next(f.field_id for f in scene.report.fields if f.label.startswith(label))


def test_marks_cover_none_of_the_page_controls_and_rows_focus_their_field(scene: Scene) -> None:
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
    assert {"first", "last", "email"} <= changed, after  # Relay filled these

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
    # React's state included; what the person typed in the page stays theirs. One thing no page
    # event can do is un-choose a React radio group (a person cannot either): the panel says so,
    # and lists it under "Needs you".
    panel.get_by_role("button", name="Undo the whole fill").click()
    page.wait_for_function("() => window.__state.email === ''", timeout=WAIT_MS)
    panel.locator("p.message").wait_for(timeout=WAIT_MS)
    now = page.evaluate(_READ)
    expected = {**scene.before["dom"], "why": "I like the team.", "relocate": "Yes",
                "password": "correct horse battery"}
    assert now["dom"] == expected
    assert {k: now["react"][k] for k in expected} == expected
    message = panel.locator("p.message").inner_text()
    assert message.endswith('1 could not be put back (see "Needs you").'), message
    relocate = _field_id(scene, "Are you willing to relocate?")
    assert _rows(panel, "needs")[relocate]["need"].startswith("A choice cannot be taken back")
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
