"""Frames of another site in the browser (issue 13, item 4): only the frame that holds the
application is read and filled; the frame the person clicked in counts as a reason when no frame
shows an application; the side panel names the other site's origin; the frames Relay does not
read are held by the submit guard all the same; a newsletter box of the page stays empty when the
application is in a frame.

One Chromium for the module, with the real extension and bridge, no model. The page is served
as localhost and its frames as 127.0.0.1 (another site, same server). Pages:
tests/fixtures/hostile/frames/.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridge.driver.session import RelayBrowser
from bridge.driver.static_server import StaticServer
from tests.page_scripts import FRAMES_ANSWERING

pytestmark = pytest.mark.e2e

CHAT_BLUR = "hostile/frames/chat-blur.html"
EMBED = "hostile/frames/embed.html"
PICK = "hostile/frames/pick.html"
TYPED = "Hello, is this role remote?"

_TAB_ID = """(url) => chrome.tabs.query({}).then((tabs) => tabs.find((t) => t.url === url).id)"""


def _open(browser: RelayBrowser, server: StaticServer, path: str) -> Any:
    page = browser.open(server.url(path, host="localhost"))
    page.wait_for_load_state("networkidle")
    return page


def _frame(page: Any, name: str) -> Any:
    return next(f for f in page.frames if f.url.endswith(name))


def test_a_chat_that_sends_when_it_loses_focus_sends_nothing_while_relay_fills_beside_it(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = _open(browser, server, CHAT_BLUR)
    try:
        chat = _frame(page, "chat.html")
        chat.evaluate("() => { window.__blurs = 0; document.getElementById('message')"
                      ".addEventListener('blur', () => { window.__blurs += 1; }); }")
        chat.click("#message")
        chat.type("#message", TYPED)
        outcome = browser.fill(page, settle_guard=True)
        assert outcome.report.ok, outcome.report.error
        assert page.input_value("#first") == "Ada"
        assert page.input_value("#email") == "ada.lovelace@example.com"
        # Relay's first write took the focus from the chat box, and the chat tried to send.
        chat = _frame(page, "chat.html")
        assert chat.evaluate("() => window.__blurs") >= 1
        # Nothing was sent: the chat frame is where it was, with what the person typed in it.
        assert chat.input_value("#message") == TYPED
        assert not any(f.url.endswith("sent.html") for f in page.frames)
        assert outcome.report.page_submits == 0 and outcome.report.navigations == 0
        stopped = [b for b in outcome.report.blocked if "that Relay does not fill" in b.detail]
        assert stopped and stopped[0].kind in ("request_submit", "submit_event"), stopped
        assert "In a frame from http://127.0.0.1:" in stopped[0].detail
        # The chat frame was neither read nor given Relay's content script, nor the profile.
        assert chat.input_value("#chat-email") == ""
        answering = browser.worker.evaluate(FRAMES_ANSWERING, page.url)
        assert answering[chat.url] is False and answering[page.url] is True
    finally:
        page.close()


def test_an_application_embedded_from_another_site_is_filled_and_named_in_the_side_panel(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = _open(browser, server, EMBED)
    panel = None
    try:
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        app = _frame(page, "application.html")
        assert app.input_value("#a-first") == "Ada"
        assert app.input_value("#a-email") == "ada.lovelace@example.com"
        # The page's own newsletter and search boxes are not part of the application.
        assert page.input_value("#news-email") == ""
        assert page.input_value("#alerts-email") == "", outcome.report
        assert page.input_value("input[name=q]") == ""
        # The chat frame of the same other site is not the application: not read, not filled.
        chat = _frame(page, "chat.html")
        assert chat.input_value("#chat-email") == ""
        assert browser.worker.evaluate(FRAMES_ANSWERING, page.url)[chat.url] is False
        assert outcome.report.page_submits == 0

        tab_id = int(browser.worker.evaluate(_TAB_ID, page.url))
        extension_id = browser.worker.url.split("/")[2]
        panel = browser.context.new_page()
        panel.goto(f"chrome-extension://{extension_id}/sidepanel/panel.html?tab={tab_id}")
        panel.wait_for_selector("li.row")
        origin = f"http://127.0.0.1:{server.port}"
        email_row = panel.locator("li.row[data-where=all]", has_text="ada.lovelace@example.com")
        assert email_row.locator("p.where").first.inner_text() == f"In a frame from {origin}"
        # The page's own fields say nothing of a frame.
        news_row = panel.locator("li.row[data-where=all][data-key^='0/']").first
        assert news_row.locator("p.where").count() == 0
    finally:
        if panel is not None:
            panel.close()
        page.close()


def test_the_frame_the_person_clicked_in_is_filled_when_no_frame_shows_an_application(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = _open(browser, server, PICK)
    try:
        # Two short forms of another site and no click: neither is taken for the application.
        outcome = browser.fill(page)
        assert not outcome.report.ok
        short = _frame(page, "short.html")
        assert short.input_value("#s-email") == ""
        # The person clicks in one of them and presses Fill: that one is filled, the other not.
        short.click("#s-name")
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        assert short.input_value("#s-name") == "Ada Quinn Lovelace"
        assert short.input_value("#s-email") == "ada.lovelace@example.com"
        chat = _frame(page, "chat.html")
        assert chat.input_value("#chat-email") == ""
        assert browser.worker.evaluate(FRAMES_ANSWERING, page.url)[chat.url] is False
    finally:
        page.close()
