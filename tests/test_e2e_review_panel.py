"""The review in the browser's side panel, the marks on the page, per-field actions and undo
(issue 10). Real Chromium, the real extension and bridge, the sample profile, rules only.

Headless Chromium shows no browser UI, so no side panel: the test opens the side panel's own
page (`sidepanel/panel.html?tab=<id>`, exactly what the side panel loads for that tab) as a second
page sized like the side panel beside the form page, and acts on it as the person would.
Screenshots of both side by side, at 1280×900 and 1024×700, go to `<tmp>/screenshots/`.

The form (tests/fixtures/pages/review.html) is React-controlled throughout (vendored React 18):
undo must reach React's state, not only the DOM.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.report import FillReport, sources_line
from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
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
_LAYOUT = """() => [...document.querySelectorAll('input, select, textarea, button, label')].map((el) => {
    const r = el.getBoundingClientRect();
    const mirrored = (a) => a.name === 'value' && !['radio', 'checkbox'].includes(el.type);
    return {id: el.id || el.name || el.textContent.trim().slice(0, 20), box: [r.x, r.y, r.width, r.height],
            attrs: [...el.attributes].filter((a) => !mirrored(a)).map((a) => a.name + '=' + a.value).sort().join(' ')};
})"""
_COVERED = """(spots) => spots.filter((s) => s.shown).flatMap((s) =>
    [...document.querySelectorAll('input, select, textarea, button, a[href], label')].filter((el) => {
        const r = el.getBoundingClientRect();
        return s.x >= r.left - 9 && s.x <= r.right + 9 && s.y >= r.top - 9 && s.y <= r.bottom + 9;
    }).map((el) => [s.field_id, el.id || el.tagName]))"""


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
    return {
        r["field"]: r
        for r in panel.evaluate(
            """(where) => [...document.querySelectorAll(`li.row[data-where="${where}"]`)].map((li) => ({
                field: li.dataset.fieldId, source: li.dataset.source,
                label: li.querySelector('.label').textContent, value: li.querySelector('.value').textContent,
                why: li.querySelector('.why')?.textContent ?? '', need: li.querySelector('.need')?.textContent ?? '',
                sourceText: li.querySelector('.source').textContent}))""",
            where,
        )
    }


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


