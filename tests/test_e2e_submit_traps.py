"""Promise 1 on hostile pages: Relay's own actions never get a form submitted.

The trap pages (`fixtures/hostile/submit-traps/`) submit from the handlers Relay's writes fire:
change → form.submit(), blur/focusout → requestSubmit(), input → location.href, a select whose
change calls the submit() saved at load (POST and GET), radios and checkboxes that submit from a
timer, yes/no buttons whose click submits, a yes/no of untyped <button>s (submit buttons), a React
form whose onChange submits, a page that submits when Relay's marks appear; in the top document,
an open shadow root and a same-origin iframe, and a page that freezes the form prototype. The
forms really submit, so the measure is honest: the requests the test server receives and the
navigations the page makes. Real Chromium, extension and bridge.

Not covered by the guard, so not here: a form aimed at a new window sent with a submit() saved
before Relay arrived (docs/architecture.md, "The submit guard").
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.report import FillReport
from bridge.driver.session import RelayBrowser, relay_browser
from tests.conftest import FIXTURES, SAMPLE_PROFILE

PAGE = "hostile/submit-traps/index.html"
TRAP_FORM = {
    "first_name": "Ada",
    "last_name": "Lovelace",
    "email": "ada.lovelace@example.com",
    "phone": "+1 415-555-0142",
    "source": "LinkedIn",
    "auth": "Yes",
    "over18": True,
    "sponsor": "No",
    "relocate": "Yes",
    "website": "https://ada.example.dev",
}
REACT_FORM = {"city": "San Francisco", "linkedin": "https://www.linkedin.com/in/adaqlovelace"}
TRAPS = list(TRAP_FORM)
_READ_PROTO = """() => ({
    submit: HTMLFormElement.prototype.submit === window.__trapsLoaded.submit,
    requestSubmit: HTMLFormElement.prototype.requestSubmit === window.__trapsLoaded.requestSubmit,
})"""
_BUTTON_AT = """(selector) => {
    const button = document.querySelector(selector);
    button.scrollIntoView({block: "center"});
    const r = button.getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2};
}"""
# What the review (the side panel's state) lists as stopped.
_TAB_STATE = """async (url) => {
    const [tab] = (await chrome.tabs.query({})).filter((t) => t.url === url);
    const review = await globalThis.relayReview.read(tab.id);
    return {panel: {blocked: review ? review.blocked.length : 0}};
}"""
WATCH_TRIES = 4
_FILL_NOW = """async (url) => {
    const [tab] = (await chrome.tabs.query({})).filter((t) => t.url === url);
    return globalThis.relayFill(tab.id);
}"""


class _Handler(SimpleHTTPRequestHandler):
    """Serves the fixtures; every request for /sent/… is a form submission (or a navigation)
    that reached the server."""

    sent: list[str]

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        self._record()

    def do_GET(self) -> None:
        if self.path.startswith("/sent"):
            self._record()
            return
        super().do_GET()

    def _record(self) -> None:
        self.sent.append(f"{self.command} {self.path.split('?')[0]}")
        body = b"<!doctype html><title>Sent</title><p>Application sent."
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@dataclass
class TrapServer:
    url: str
    sent: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def server() -> Iterator[TrapServer]:
    sent: list[str] = []
    handler = type("Handler", (_Handler,), {"sent": sent})
    serve = functools.partial(handler, directory=str(FIXTURES))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), serve)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield TrapServer(url=f"http://127.0.0.1:{httpd.server_address[1]}/{PAGE}", sent=sent)
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("relay-home-traps")


@pytest.fixture(scope="module")
def browser(home: Path, chromium: str) -> Iterator[RelayBrowser]:
    with relay_browser(SAMPLE_PROFILE, home=home) as opened:
        yield opened


@dataclass
class Trapped:
    report: FillReport
    raw: dict[str, Any]
    sent: list[str]
    navigations: list[str]
    values: dict[str, Any]
    hits: dict[str, int]
    proto: dict[str, dict[str, bool]]
    panel: dict[str, Any]


@pytest.fixture(scope="module")
def trapped(browser: RelayBrowser, server: TrapServer) -> Trapped:
    page = browser.open(server.url)
    try:
        page.wait_for_function("() => document.getElementById('react-city') !== null")
        frame = next(f for f in page.frames if f.url.endswith("/frame.html"))
        navigations: list[str] = []
        page.on("framenavigated", lambda f: navigations.append(f.url))
        outcome = browser.fill(page, settle_guard=True)
        sent = list(server.sent)
        # A page the traps sent away has no form left to read: what it had is reported empty.
        values = {**read(page, "window.__fixture.read()"), **read(frame, "window.__fixture.read()")}
        hits = {**read(page, "window.__trapHits"), **read(frame, "window.__trapHits")}
        proto = {"top": read(page, _READ_PROTO), "frame": read(frame, _READ_PROTO)}
        panel = read(browser.worker, _TAB_STATE, page.url).get("panel", {})
        return Trapped(outcome.report, outcome.raw, sent, navigations, values, hits, proto, panel)
    finally:
        page.close()


def read(where: Any, script: str, arg: Any = None) -> dict[str, Any]:
    try:
        got = where.evaluate(script, arg)
    except Exception:  # the frame navigated away or was detached
        return {}
    return got if isinstance(got, dict) else {}


def test_the_traps_fired_and_nothing_was_sent(trapped: Trapped) -> None:
    assert trapped.report.ok, trapped.report.error
    assert trapped.sent == [], "the server received form submissions"
    assert trapped.navigations == [], "the page navigated"
    # Every trap's handler ran (so each would have submitted), in all three places.
    for where in ("top", "shadow", "frame"):
        fired = sorted(k.split("/")[1] for k in trapped.hits if k.startswith(f"{where}/"))
        assert fired == sorted(TRAPS), where
    assert {"react/city", "react/linkedin", "page/marks"} <= set(trapped.hits)


def test_every_trap_field_still_got_its_answer(trapped: Trapped) -> None:
    for where in ("top", "shadow", "frame"):
        assert trapped.values.get(where) == TRAP_FORM, where
    assert trapped.values.get("react") == REACT_FORM
    applied = [f for f in trapped.report.fields if f.status == "fill"]
    assert len(applied) == 3 * len(TRAP_FORM) + len(REACT_FORM)
    assert all(f.applied == "applied" for f in applied)


def test_every_attempt_is_in_the_report_and_the_panel(trapped: Trapped) -> None:
    blocked = trapped.report.blocked
    kinds = {b.kind.value for b in blocked}
    assert kinds == {"submit_event", "form_submit", "request_submit", "navigation"}
    frames = {b.frame for b in blocked}
    assert "0" in frames and len(frames) == 2  # the top document and the iframe
    # Attempts during the apply name the field being filled; the page's send when the panel
    # appeared came after the apply.
    assert {b.phase.value for b in blocked} == {"apply", "after"}
    assert any(b.field_id for b in blocked if b.phase.value == "apply")
    assert not any(b.field_id for b in blocked if b.phase.value == "after")
    assert all(b.detail for b in blocked)
    # fill.applied carried the attempts of the apply; the review panel lists all of them.
    assert trapped.raw["blocked"] and len(trapped.raw["blocked"]) <= len(blocked)
    assert trapped.panel["blocked"] == len(blocked)


def test_the_bridge_audited_every_attempt_and_no_value(trapped: Trapped, home: Path) -> None:
    from bridge.store import Store

    with Store.open(home) as store:
        entries = store.audit_entries(trapped.report.run_id)
    stopped = [e for e in entries if e["action"] == "page.submit_blocked"]
    # One entry with fill.applied, one per frame whose watch after the apply saw more.
    assert len(stopped) >= 2
    times = sum(b.times for b in trapped.report.blocked)
    assert sum(e["payload"]["count"] for e in stopped) == times
    kinds = {a["kind"] for e in stopped for a in e["payload"]["attempts"]}
    assert kinds == {"submit_event", "form_submit", "request_submit", "navigation"}
    logged = json.dumps(stopped)
    # (The phone's digits only as the profile and the page write them: ids are hex.)
    for value in ("Ada", "Lovelace", "ada.lovelace@example.com", "555 0142", "555-0142",
                  "LinkedIn", "San Francisco", "ada.example.dev"):
        assert value not in logged, value


def test_the_page_gets_back_exactly_the_methods_it_had(trapped: Trapped) -> None:
    # The top page had patched form.submit itself before Relay came: that patch is back.
    assert trapped.proto == {
        "top": {"submit": True, "requestSubmit": True},
        "frame": {"submit": True, "requestSubmit": True},
    }


def test_the_persons_own_submit_right_after_the_fill_goes_through(
        browser: RelayBrowser, server: TrapServer) -> None:
    page = browser.open(server.url)
    try:
        # The watch after the apply lasts a second: on a busy machine the report and the review
        # can take that long, so the Fill is tried again (on the page as loaded) until the click
        # can come while it is on.
        before = len(server.sent)
        for _ in range(WATCH_TRIES):
            page.wait_for_function("() => document.getElementById('react-city') !== null")
            outcome = browser.worker.evaluate(_FILL_NOW, page.url)
            assert outcome["ok"], outcome.get("error")
            # The watch after the apply is still on: the page's submit is Relay's stand-in...
            if page.evaluate(_READ_PROTO)["submit"] is False:
                break
            page.reload()
        else:
            pytest.fail(f"the watch after the apply was over before the click, {WATCH_TRIES} times")
        # ...and the person's click ends it before the page sees the click. (A real mouse click:
        # Playwright's page.click would wait for the navigations the guard cancelled to finish.)
        box = page.evaluate(_BUTTON_AT, "#top-submit")
        page.mouse.click(box["x"], box["y"])
        page.wait_for_url("**/sent/top")
        assert server.sent[before:] == ["POST /sent/top"]
    finally:
        page.close()


def test_a_page_that_freezes_the_form_prototype_is_still_stopped(
        browser: RelayBrowser, server: TrapServer) -> None:
    page = browser.open(server.url.replace("index.html", "frozen.html"))
    try:
        before = len(server.sent)
        outcome = browser.fill(page, settle_guard=True)
        assert outcome.report.ok, outcome.report.error
        assert page.evaluate("window.__trapHits") == {"email": 1, "first": 1}
        assert server.sent[before:] == []
        assert page.evaluate("[email.value, first.value]") == ["ada.lovelace@example.com", "Ada"]
        # The page-world stand-ins could not go in: the fill says so, and the isolated world
        # stopped each submit event all the same.
        assert any("would not let Relay hold" in w for w in outcome.raw["warnings"])
        assert [b.kind.value for b in outcome.report.blocked] == ["submit_event", "submit_event"]
    finally:
        page.close()
