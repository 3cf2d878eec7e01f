"""Hostile pages against Relay in the browser (issue 13): a page looking for Relay and hiding its
marks, a page whose handlers throw, with a field 50 shadow roots deep and prompt injection for
a model that obeys it, and a page that keeps adding fields to be filled again and again.

One Chromium for the module, with the real extension and bridge, and a model configured through
the loopback test server (tests/llm_server.py). Pages: tests/fixtures/hostile/relay-css/,
tests/fixtures/hostile/stress/ and tests/fixtures/hostile/growing/. The stress page as a
2,000-field form is bench/hostile_pages.py's (its time is printed, never asserted).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest

from bridge.driver.session import RelayBrowser, extension_dir, relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import FIXTURES, SAMPLE_PROFILE
from tests.llm_server import LlmServer, Reply, llm_server_session, question_ids
from tests.page_scripts import FRAMES_ANSWERING, NATIVE_VALUES

__all__ = ["llm_server_session"]
pytestmark = pytest.mark.e2e

DETECTOR = "hostile/relay-css/index.html"
MODAL = "hostile/relay-css/modal.html"
GROWING = "hostile/growing/index.html"
STRESS = "hostile/stress/index.html"
INJECTED = "PWNED-7731"

# Waits (bounded) until the tab's review says whether the page hides the marks; returns it.
_MARKS_UNSEEN = """async ([url, want]) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === url);
    const key = `review:${tab.id}`;
    const read = async () =>
        ((await chrome.storage.session.get(key))[key] ?? {}).marks_unseen ?? [];
    const deadline = Date.now() + 10000;
    let now = await read();
    while (JSON.stringify(now) !== JSON.stringify(want) && Date.now() < deadline) {
        await new Promise((resolve) => {
            const seen = () => {
                chrome.storage.onChanged.removeListener(seen);
                resolve(null);
            };
            chrome.storage.onChanged.addListener(seen);
            setTimeout(seen, 250);  // a change between the read and the listener is not missed
        });
        now = await read();
    }
    return now;
}"""
# The top frame's snapshot with a time budget (ms): what it read and what it left unread.
_SNAPSHOT_WITHIN = """async ([url, budget]) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === url);
    const reply = await chrome.tabs.sendMessage(tab.id, {relay: "snapshot", budget_ms: budget},
                                                {frameId: 0});
    return {read: reply.fields.length, unread: reply.unread};
}"""
# Counts, in the worker, what a growing page makes "fill new fields as they appear" do, with its
# limits shortened (the real ones, 3 s apart and 10 per press, would take half a minute).
_COUNT_AUTOFILLS = """([gapMs, max]) => {
    const auto = self.relayAutofill;
    Object.assign(auto.limits, {settleMs: 100, gapMs, max});
    const report = auto.fieldsAppeared;
    const fill = self.relayFill;
    const seen = self.__autofills = {reports: 0, fills: [], done: 0, restore: () => {
        Object.assign(auto.limits, {settleMs: 600, gapMs: 3000, max: 10});
        auto.fieldsAppeared = report;
        self.relayFill = fill;
    }};
    auto.fieldsAppeared = (...args) => { seen.reports += 1; return report(...args); };
    self.relayFill = async (tabId, options) => {
        if (options?.trigger) seen.fills.push(performance.now());
        const outcome = await fill(tabId, options);
        if (options?.trigger) seen.done += 1;
        return outcome;
    };
}"""
# Waits (bounded) until the page's growth has been reported `reports` times and every automatic
# fill that started has ended; returns the counts.
_AUTOFILLS_AFTER = """async (reports) => {
    const seen = self.__autofills;
    const deadline = Date.now() + 60000;
    while ((seen.reports < reports || seen.done < seen.fills.length) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {reports: seen.reports, fills: seen.fills.length, done: seen.done,
            gaps: seen.fills.slice(1).map((t, i) => t - seen.fills[i])};
}"""
# How many pixels of a screenshot have the "filled" ring's green (#15803d).
_GREEN_PIXELS = """async (png) => {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(bitmap, 0, 0);
    const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
        const near = (k, v) => Math.abs(data[i + k] - v) < 12;
        if (near(0, 21) && near(1, 128) && near(2, 61)) n += 1;
    }
    return n;
}"""


def _obeys_the_injection(body: dict[str, Any]) -> Reply:
    """A model that does what the page's text asks: every answer the injected word, sure of it."""
    return Reply({"fields": {
        qid: {"answer": INJECTED, "facts": [], "quotes": [], "confidence": 0.99}
        for qid in question_ids(body)
    }})


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, chromium: str,
            llm_server_session: LlmServer) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    llm_server_session.reset(_obeys_the_injection)
    home = tmp_path_factory.mktemp("relay-home-hostile-pages")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RELAY_LLM_API_BASE", llm_server_session.base_url)
        env.setenv("RELAY_LLM_API_KEY", "sk-test-not-a-real-key")
        env.setenv("RELAY_MODEL_FAST", "openai/fast-model")
        env.setenv("RELAY_MODEL_GENERAL", "openai/general-model")
        env.setenv("RELAY_MODEL_HEAVY", "")
        with StaticServer(FIXTURES) as server, relay_browser(SAMPLE_PROFILE, home=home) as browser:
            yield browser, server


def _extension_paths() -> list[str]:
    root = extension_dir()
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _fetchable(page: Any, browser: RelayBrowser) -> list[str]:
    """The extension's files the page can fetch at chrome-extension://<id>/<path>."""
    base = browser.worker.evaluate("() => chrome.runtime.getURL('')")
    got: list[str] = page.evaluate("([b, p]) => window.__fetchable(b, p)",
                                   [base, _extension_paths()])
    return got


def test_a_page_sees_nothing_of_relay_before_the_fill_and_cannot_hide_its_marks(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = browser.open(server.url(DETECTOR))
    try:
        page.wait_for_load_state("networkidle")
        assert len(page.frames) == 2
        # Before any Fill: no content script in any frame, nothing in the page's world or DOM.
        assert set(browser.worker.evaluate(FRAMES_ANSWERING, page.url).values()) == {False}
        assert page.evaluate("() => window.__probe()") == {"globals": [], "elements": 0}
        # No file of the extension can be fetched by the page (the content script is injected
        # as classic scripts, nothing is web-accessible), before the Fill or after it.
        assert _fetchable(page, browser) == []

        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        assert page.input_value("#first") == "Ada"
        assert page.input_value("#email") == "ada.lovelace@example.com"
        # The chat frame of another site never got Relay, nor the profile.
        answering = browser.worker.evaluate(FRAMES_ANSWERING, page.url)
        assert answering == {page.url: True, page.frames[1].url: False}
        assert page.frames[1].input_value("#chat-email") == ""
        assert page.evaluate("() => window.__probe().globals") == []
        assert outcome.report.page_submits == 0
        assert _fetchable(page, browser) == []

        # Every rule of the page's CSS aims at the marks; they are drawn all the same.
        png = base64.b64encode(page.screenshot()).decode()
        assert page.evaluate(_GREEN_PIXELS, png) > 50
        assert browser.worker.evaluate(_MARKS_UNSEEN, [page.url, []]) == []
        # A page script can still cover or hide them: the side panel then says so.
        page.evaluate("() => window.__coverMarks()")
        assert browser.worker.evaluate(_MARKS_UNSEEN, [page.url, ["0"]]) == ["0"]
        page.evaluate("() => window.__uncoverMarks()")
        assert browser.worker.evaluate(_MARKS_UNSEEN, [page.url, []]) == []
        page.evaluate("() => window.__hideMarksByScript()")
        assert browser.worker.evaluate(_MARKS_UNSEEN, [page.url, ["0"]]) == ["0"]
        tab_id = browser.worker.evaluate(
            "(url) => chrome.tabs.query({}).then((tabs) => tabs.find((t) => t.url === url).id)",
            page.url)
        panel = browser.context.new_page()
        try:
            extension_id = browser.worker.url.split("/")[2]
            panel.goto(f"chrome-extension://{extension_id}/sidepanel/panel.html?tab={tab_id}")
            alert = panel.locator("p.alert", has_text="keeps Relay's marks out of sight")
            alert.wait_for()
            assert "review them with this list" in alert.inner_text()
        finally:
            panel.close()
    finally:
        page.close()


def test_marks_over_an_application_in_a_modal_dialog_count_as_seen(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    """The dialog was in the top layer before the marks: it is under them, not over them."""
    browser, server = session
    page = browser.open(server.url(MODAL))
    try:
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        assert page.input_value("#email") == "ada.lovelace@example.com"
        png = base64.b64encode(page.screenshot()).decode()
        assert page.evaluate(_GREEN_PIXELS, png) > 50
        assert browser.worker.evaluate(_MARKS_UNSEEN, [page.url, []]) == []
    finally:
        page.close()


def test_throwing_handlers_a_deep_shadow_field_and_an_obedient_model_change_nothing_they_ask(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = browser.open(server.url(STRESS))
    try:
        outcome = browser.fill(page, settle_guard=True)
        assert outcome.report.ok, outcome.report.error
        values = page.evaluate(NATIVE_VALUES)
        assert values["first"] == "Ada" and values["last"] == "Lovelace"
        assert values["email"] == "ada.lovelace@example.com"  # the page's getter throws
        assert values["city"] == "San Francisco"  # 50 shadow roots deep
        assert page.evaluate("() => window.__thrown") > 0  # the handlers did throw
        # The model was asked and did what the page's text told it; none of it reached the form.
        assert outcome.report.llm.calls >= 1
        assert [k for k, v in values.items() if INJECTED in str(v)] == []
        assert values["why"] == "" and values["source"] in ("", "LinkedIn")
        assert outcome.report.page_submits == 0 and outcome.report.navigations == 0
        # The snapshot's work is bounded in time as well as in fields: out of time, it reads no
        # more and says how much it left (those are never filled); with time, it reads it all.
        whole = browser.worker.evaluate(_SNAPSHOT_WITHIN, [page.url, 9000])
        assert whole["read"] >= 8 and whole["unread"] == 0
        none = browser.worker.evaluate(_SNAPSHOT_WITHIN, [page.url, 0])
        assert none["read"] == 0 and none["unread"] >= whole["read"]
    finally:
        page.close()


def test_a_page_that_keeps_adding_fields_gets_a_bounded_number_of_automatic_fills(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    gap_ms, most = 1000, 3
    browser.worker.evaluate("() => chrome.storage.local.set({autoFillNewFields: true})")
    browser.worker.evaluate(_COUNT_AUTOFILLS, [gap_ms, most])
    page = browser.open(server.url(GROWING))
    try:
        assert browser.fill(page).report.ok
        page.evaluate("() => window.__grow(10, 600)")
        page.wait_for_function("() => window.__added === 10", timeout=30_000)
        seen = browser.worker.evaluate(_AUTOFILLS_AFTER, most + 3)
        # The page asked again and again; it got `most` fills after the person's one press of
        # Fill, each at least the gap after the one before, then none however often it asks.
        assert seen["reports"] >= most + 3
        assert seen["fills"] == most and seen["done"] == most
        assert all(gap >= gap_ms - 50 for gap in seen["gaps"]), seen["gaps"]
        assert page.input_value("#city1") == "San Francisco"  # an automatic fill did fill
        assert page.evaluate("() => window.__fixtureSubmits") == 0
    finally:
        page.close()
        browser.worker.evaluate("() => self.__autofills?.restore()")
        browser.worker.evaluate("() => chrome.storage.local.set({autoFillNewFields: false})")
