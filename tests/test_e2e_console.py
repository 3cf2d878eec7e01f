"""The console's first run in Chromium, with no terminal step after `relay install`: a new person
imports the sample PDF resume, confirms the facts, answers the job questions and fills a job form
from them; then edits one profile field and sees the next Fill use it. axe-core checks the page;
screenshots of each console page go to out/screenshots/ (to look at, and for the user guide)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import FIXTURES, REPO, SHARED

pytestmark = pytest.mark.e2e

RESUME_PDF = SHARED / "profiles" / "ada-lovelace-resume.pdf"
AXE = REPO / "tests" / "vendor" / "axe-core" / "axe.min.js"
SHOTS = REPO / "out" / "screenshots"
FORM = "greenhouse-new/index.html"


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory,
            chromium: str) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    home: Path = tmp_path_factory.mktemp("relay-home-console")
    # No profile file: the bridge fills from its store, which starts empty, as for a new person.
    with StaticServer(FIXTURES / "ats") as server, relay_browser(None, home=home) as browser:
        yield browser, server


def open_console(browser: RelayBrowser) -> Any:
    extension_id = browser.worker.url.split("/")[2]
    page = browser.context.new_page()
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(f"chrome-extension://{extension_id}/options/options.html")
    page.wait_for_selector("body[data-ready=true]")
    return page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"console-{name}.png"), full_page=True)


def axe_violations(page: Any) -> list[dict[str, Any]]:
    # Evaluated over the debugging protocol: the extension page's CSP refuses inline scripts.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result: dict[str, Any] = page.evaluate("async () => await axe.run(document)")
    return [v for v in result["violations"] if v["impact"] in {"serious", "critical"}]


def ask(page: Any, kind: str, payload: dict[str, Any] | None = None) -> Any:
    """A console request from the console page itself, as its scripts send them."""
    reply: dict[str, Any] = page.evaluate(
        "([type, payload]) => chrome.runtime.sendMessage({relay_bg: 'bridge', type, payload})",
        [kind, payload or {}],
    )
    assert reply["ok"], reply
    return reply["result"]


def field(outcome: Any, label_start: str) -> str:
    matches = [f for f in outcome.report.fields if f.label.startswith(label_start)]
    labels = [f.label for f in outcome.report.fields]
    assert matches, f"no field labelled {label_start!r} in {labels}"
    return str(matches[0].value)


def test_first_run_resume_to_fill_then_an_edit_is_used(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    console = open_console(browser)
    status = console.locator("#status")
    assert "Not ready" in status.inner_text()
    assert "No profile is stored yet" in console.locator("[data-step=profile]").inner_text()
    shot(console, "1-first-run")

    # The resume: every fact read from it is shown, with the line it came from, to confirm.
    console.set_input_files("#resume-file", str(RESUME_PDF))
    console.wait_for_selector("#facts:not([hidden])")
    rows = console.locator("#facts-rows tr")
    assert rows.count() >= 10
    email = console.locator("#facts-rows tr[data-path='basics.email'] input:not([type])")
    assert email.input_value() == "ada.lovelace@example.com"
    shot(console, "2-confirm-facts")
    assert ask(console, "profiles.list")["profiles"] == []  # nothing is stored unconfirmed
    # The person unticks one fact: it must not be saved.
    unticked = "#facts-rows tr[data-path='work.1.highlights.0'] input[type=checkbox]"
    console.locator(unticked).uncheck()
    console.locator("#facts-name").fill("ada")
    console.locator("#facts-form button[type=submit]").focus()
    console.keyboard.press("Enter")
    console.wait_for_selector("#questions:not([hidden])")
    assert "Saved the details you confirmed" in console.locator("#import-message").inner_text()
    assert console.evaluate("() => document.activeElement.id") == "q-countries"
    stored = ask(console, "profile.get")["profile"]
    assert stored["basics"]["email"] == "ada.lovelace@example.com"
    assert "highlights" not in stored["work"][1]  # the fact the person unticked

    # The job questions, keyboard first; a wrong date is explained next to its field.
    console.keyboard.type("US, GB")
    console.keyboard.press("Tab")
    console.wait_for_selector("#auth-US")
    console.select_option("#auth-US", "yes")
    console.select_option("#sponsor-US", "no")
    console.select_option("#auth-GB", "no")
    console.select_option("#sponsor-GB", "yes")
    console.select_option("#q-relocate", "yes")
    console.select_option("#q-remote", "hybrid")
    console.fill("#q-notice", "4 weeks")
    console.locator("#q-start").press_sequentially("2027-02-30")
    console.wait_for_selector("#q-start[aria-invalid=true]")
    assert "no such date" in console.locator("#q-start-why").inner_text()
    console.fill("#q-start", "2027-01-11")
    console.fill("#q-salary", "185000")
    console.select_option("#q-currency", "USD")
    console.fill("#q-hear", "LinkedIn")
    console.select_option("#eeo-gender", "Female")
    assert console.locator("#eeo-race").input_value() == "decline"
    shot(console, "3-job-questions")
    console.locator("#questions-form button[type=submit]").click()
    console.wait_for_selector("#questions-saved:has-text('Saved')")
    console.wait_for_selector("#status.ok")
    assert "Ready" in status.inner_text()
    shot(console, "4-ready")
    assert axe_violations(console) == []

    # Readable at 200% zoom: half the width, nothing scrolls sideways.
    console.set_viewport_size({"width": 550, "height": 900})
    assert console.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shot(console, "5-zoom-200")
    console.set_viewport_size({"width": 1100, "height": 900})

    # A Fill from what the person confirmed and answered; Relay never submits.
    form = browser.open(server.url(FORM))
    outcome = browser.fill(form)
    assert outcome.report.ok, outcome.report.error
    assert field(outcome, "First Name") == "Ada"
    assert field(outcome, "Email") == "ada.lovelace@example.com"
    assert field(outcome, "Are you legally authorized") == "Yes"
    assert field(outcome, "Will you now or will you in the future") == "No"
    assert "185" in field(outcome, "What are your base salary")
    assert RESUME_PDF.name in [f.value for f in outcome.report.fields]  # the resume is attached
    assert outcome.report.page_submits in (0, None)
    form.close()

    # One edit in the console; the next Fill uses it, and the original is kept as imported.
    console.fill("#f-email", "ada@analytical.example")
    console.locator("#editor-form button[type=submit]").click()
    console.wait_for_selector("#editor-saved:has-text('Saved')")
    shot(console, "6-profile-edited")
    form = browser.open(server.url(FORM))
    outcome = browser.fill(form)
    assert field(outcome, "Email") == "ada@analytical.example"
    form.close()
    console.close()
