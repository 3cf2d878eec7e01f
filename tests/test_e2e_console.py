"""The console in Chromium, with no terminal step after `relay install`: a new person imports the
sample PDF resume, confirms the facts, answers the job questions and fills a job form from them;
edits one profile field and sees the next Fill use it; adds a second resume and cover letters and
picks them for one job in the side panel; submits an application and finds it in the console;
sets a daily cap and sees what is left; tests the model (the tests' local server) and reads the
resume again with it (the model's fact shown with the rules' job it belongs to). axe-core checks
every page; screenshots of each go to docs/images/ (looked at, and shown in the user guide)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import FIXTURES, REPO, SHARED
from tests.llm_server import LlmServer, Reply, llm_server, llm_server_session  # noqa: F401

pytestmark = pytest.mark.e2e

RESUME_PDF = SHARED / "profiles" / "ada-lovelace-resume.pdf"
AXE = REPO / "tests" / "vendor" / "axe-core" / "axe.min.js"
SHOTS = REPO / "docs" / "images"
FORM = "ats/greenhouse-new/index.html"
SUBMIT_FORM = "pages/learning/first.html"


Session = tuple[RelayBrowser, StaticServer, Path]


@pytest.fixture(scope="module")
def console_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("relay-home-console")


@pytest.fixture(scope="module")
def session(console_home: Path, chromium: str) -> Iterator[Session]:
    home = console_home
    # No profile file: the bridge fills from its store, which starts empty, as for a new person.
    with StaticServer(FIXTURES) as server, relay_browser(None, home=home) as browser:
        yield browser, server, home


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


def checked_as_typed(console: Any, field: str, wrong: str, right: str) -> str:
    """Type `wrong` key by key into the emptied field: it is marked invalid with a reason beside
    it; then `right` clears the mark. Returns the reason shown."""
    console.fill(f"#{field}", "")
    console.locator(f"#{field}").press_sequentially(wrong)
    console.wait_for_selector(f"#{field}[aria-invalid=true]")
    reason: str = console.locator(f"#{field}-why").inner_text().strip()
    console.fill(f"#{field}", right)
    console.wait_for_selector(f"#{field}[aria-invalid=false]")
    return reason


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


def test_first_run_resume_to_fill_then_an_edit_is_used(session: Session) -> None:
    browser, server, _ = session
    # Before the bridge is installed (the browser finds no host of that name): only the first
    # step shows, in plain words, with the command.
    browser.worker.evaluate("""() => { globalThis.relayTestHost = relayPort.hostName;
        relayPort.close(); relayPort.hostName = "dev.relay.absent"; }""")
    console = open_console(browser)
    bridge_step = console.locator("[data-step=bridge]")
    assert "Relay's bridge is not running" in bridge_step.inner_text()
    assert bridge_step.locator("code").first.inner_text() == "relay install"
    assert "Not ready" in console.locator("#status").inner_text()
    assert not console.locator("#profile").is_visible()
    assert not console.locator("nav.pages").is_visible()
    assert axe_violations(console) == []
    shot(console, "0-no-bridge")
    browser.worker.evaluate("""() => { relayPort.close();
        relayPort.hostName = globalThis.relayTestHost; }""")
    console.reload()  # after `relay install`: the console asks again
    console.wait_for_selector("body[data-ready=true]")
    status = console.locator("#status")
    assert "Not ready" in status.inner_text()
    assert console.locator("#profile").is_visible()
    # Keyboard only: the first Tab reaches "skip to content", shown with the focus ring.
    console.keyboard.press("Tab")
    focused = console.evaluate("""() => { const el = document.activeElement;
        const box = el.getBoundingClientRect();
        return {cls: el.className, ring: getComputedStyle(el).boxShadow, left: box.left}; }""")
    assert focused["cls"] == "skip" and focused["ring"] != "none" and focused["left"] >= 0
    console.evaluate("() => document.activeElement.blur()")
    assert "No profile is stored yet" in console.locator("[data-step=profile]").inner_text()
    shot(console, "1-first-run")

    # The resume: every fact read from it is shown, with the line it came from, to confirm.
    console.set_input_files("#resume-file", str(RESUME_PDF))
    console.wait_for_selector("#facts:not([hidden])")
    rows = console.locator("#facts-rows tr")
    assert rows.count() >= 10
    email = console.locator("#facts-rows tr[data-path='basics.email'] input:not([type])")
    assert email.input_value() == "ada.lovelace@example.com"
    found_by = console.locator("#facts-rows tr[data-path='basics.email'] .found-by")
    assert found_by.inner_text() == "Read by Relay's rules"  # no model set up here
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
    console.wait_for_function("() => document.activeElement.id === 'q-countries'")
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
    # Checked as it is typed: the reason shows under the field, and goes once it is right.
    assert checked_as_typed(console, "f-phone", "+1 415 55", "+1 415 555 0142")
    assert checked_as_typed(console, "f-email", "ada@@analytical", "ada@analytical.example")
    console.locator("#editor-form button[type=submit]").click()
    console.wait_for_selector("#editor-saved:has-text('Saved')")
    shot(console, "6-profile-edited")
    form = browser.open(server.url(FORM))
    outcome = browser.fill(form)
    assert field(outcome, "Email") == "ada@analytical.example"
    form.close()
    console.close()


def go(console: Any, page: str) -> None:
    """Open a console page from its navigation link, by keyboard."""
    console.locator(f"nav.pages a[data-page='{page}']").focus()
    console.keyboard.press("Enter")
    console.wait_for_selector(f"body[data-page='{page}']")


def page_checked(console: Any, name: str) -> None:
    """Every console page: no serious axe violation, nothing sideways at 200% zoom, a screenshot."""
    assert axe_violations(console) == [], name
    console.set_viewport_size({"width": 550, "height": 900})
    assert console.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), name
    console.set_viewport_size({"width": 1100, "height": 900})
    shot(console, name)


_TAB_ID = "async (url) => (await chrome.tabs.query({})).find((t) => t.url === url).id"
_APPS = """async () => (await chrome.runtime.sendMessage(
    {relay_bg: 'bridge', type: 'applications.list', payload: {}})).result.applications.length"""


def test_resume_per_job_applications_answers_spending_activity_settings(
    session: Session, llm_server: LlmServer,  # noqa: F811
) -> None:
    browser, server, home = session
    console = open_console(browser)
    if not ask(console, "profiles.list")["profiles"]:  # run on its own: a profile to start from
        sample = json.loads((REPO / "demo" / "profile" / "sample.json").read_text(encoding="utf-8"))
        sample.get("application", {}).pop("documents", None)
        ask(console, "profile.import", {"name": "ada", "text": json.dumps(sample), "resume": {
            "name": RESUME_PDF.name,
            "data_b64": base64.b64encode(RESUME_PDF.read_bytes()).decode("ascii")}})
        console.reload()
        console.wait_for_selector("body[data-ready=true]")

    # A second resume on the Profile page; the first stays the default.
    console.wait_for_selector("#documents:not([hidden])")
    console.set_input_files("#add-resume", files=[{
        "name": "ada-research.pdf", "mimeType": "application/pdf",
        "buffer": RESUME_PDF.read_bytes()}])
    console.wait_for_selector("#documents-saved:has-text('ada-research.pdf')")
    default = console.locator("#documents input[name=resume-default]:checked + label")
    default_name = default.inner_text()
    assert default_name != "ada-research.pdf"
    for letter in ("ada-cover-general.pdf", "ada-cover-research.pdf"):
        console.set_input_files("#add-coverLetter", files=[{
            "name": letter, "mimeType": "application/pdf", "buffer": b"%PDF-1.4 " + letter.encode(),
        }])
        console.wait_for_selector(f"#documents-saved:has-text('{letter}')")
    page_checked(console, "7-profiles-documents")

    # In the side panel, before Fill: this job gets the research resume; another job the default.
    form = browser.open(server.url(FORM))
    job_url = form.url
    tab_id = int(browser.worker.evaluate(_TAB_ID, form.url))
    extension_id = browser.worker.url.split("/")[2]
    panel = browser.context.new_page()
    panel.set_viewport_size({"width": 360, "height": 700})
    panel.goto(f"chrome-extension://{extension_id}/sidepanel/panel.html?tab={tab_id}")
    panel.wait_for_selector("#fill-with[data-ready=true]")
    assert panel.locator("#fill-with-profile").input_value() == "ada"
    panel.locator("#fill-with-resume").select_option(label="ada-research.pdf")
    panel.wait_for_selector("#fill-with-said:has-text('ada-research.pdf')")
    panel.locator("#fill-with-cover-letter").select_option(label="ada-cover-research.pdf")
    panel.wait_for_selector("#fill-with-said:has-text('ada-cover-research.pdf')")
    chosen = ask(console, "documents.list", {"url": form.url})["chosen"]
    assert chosen["coverLetter"].endswith("ada-cover-research.pdf"), chosen
    assert axe_violations(panel) == []
    shot(panel, "8-side-panel-fill-with")
    outcome = browser.fill(form)
    assert outcome.report.ok, outcome.report.error
    attached = [f.value for f in outcome.report.fields if f.value.endswith(".pdf")]
    assert "ada-research.pdf" in attached, attached
    panel.close()
    form.close()
    # Another address is another job: the default resume.
    other = browser.open(server.url(FORM.removesuffix("index.html")))
    other_outcome = browser.fill(other)
    assert default_name in [f.value for f in other_outcome.report.fields]
    other.close()

    # The person submits an application Relay filled; it shows in the console.
    apply = browser.open(server.url(SUBMIT_FORM))
    assert browser.fill(apply).report.ok
    apply.fill("#heard", "A friend told me")
    assert apply.evaluate("window.__fixtureSubmits") == 0  # Relay submitted nothing
    apply.click("#send")  # the person's own Submit
    console.wait_for_function(_APPS, polling=200, timeout=20_000)
    go(console, "applications-page")
    row = console.locator("#applications-table tr[data-application]").first
    assert "Backend Engineer at Acme Robotics" in row.inner_text()
    row.locator("select").select_option("interviewing")
    console.wait_for_selector("#applications-body .saved:has-text('Interviewing')")
    console.select_option("#applications-filter", "offer")
    console.wait_for_selector("#applications-table td.empty")
    console.select_option("#applications-filter", "interviewing")
    row.locator("button.link").click()
    console.wait_for_selector("#application-detail:not([hidden])")
    detail = console.locator("#application-detail").inner_text()
    assert "A friend told me" in detail and "You" in detail
    page_checked(console, "9-applications")
    row.locator("input[id^=notes-]").fill("Call with the hiring manager on Monday")
    row.locator("button:has-text('Save')").click()
    console.wait_for_selector("#applications-body .saved:has-text('Notes saved')")
    apps = ask(console, "applications.list")["applications"]
    assert apps[0]["status"] == "interviewing"
    assert apps[0]["notes"] == "Call with the hiring manager on Monday"

    # Saved answers: the one the person typed is there, with where it came from; it can change.
    go(console, "answers-page")
    console.fill("#answers-search", "hear")
    console.wait_for_selector("#answers-table[data-query=hear] tr:has-text('How did you hear')")
    answer_row = console.locator("#answers-table tr[data-answer]").first
    assert "Your application to Backend Engineer at Acme Robotics" in answer_row.inner_text()
    answer_row.locator("textarea").fill("A friend at Acme")
    answer_row.locator("button:has-text('Save')").click()
    console.wait_for_selector("#answers-body .saved:has-text('Saved')")
    assert any(a["value"] == "A friend at Acme" for a in ask(console, "answers.list")["answers"])
    page_checked(console, "10-saved-answers")
    count = len(ask(console, "answers.list")["answers"])
    answer_row.locator("button:has-text('Delete')").click()
    console.wait_for_selector("#answers-body .saved:has-text('Deleted your answer')")
    assert len(ask(console, "answers.list")["answers"]) == count - 1

    # Spending: a daily cap, and what it leaves today; then the model, tested.
    go(console, "spending-page")
    console.fill("#cap-day", "0.25")
    console.locator("#caps-form button[type=submit]").click()
    console.wait_for_selector("#caps-saved:has-text('Saved')")
    assert "$0.25" in console.locator("#left-today").inner_text()
    assert ask(console, "spending.get")["cap_per_day_usd"] == 0.25
    # A model litellm has a price for, served by the tests' local server: the test call costs.
    console.fill("#model-fast", "openai/gpt-4o-mini")
    console.fill("#api-base", llm_server.base_url)
    console.locator("#models-form button[type=submit]").click()
    console.wait_for_selector("#models-saved:has-text('Saved')")
    llm_server.reset(lambda body: Reply({"fields": {"ok": "yes"}}, tokens_in=100_000,
                                        tokens_out=10_000))
    console.locator("#model-test").click()
    result = console.locator("#model-test-result:not(:has-text('Asking'))")
    assert "The model answered" in result.inner_text(timeout=60_000)
    assert len(llm_server.requests) == 1
    spending = ask(console, "spending.get")
    assert spending["spent_today_usd"] > 0
    assert spending["left_today_usd"] == pytest.approx(0.25 - spending["spent_today_usd"])
    console.wait_for_selector(f"#left-today:has-text('${spending['left_today_usd']:.2f}')")
    console.wait_for_selector("#chart-days rect.spent")  # today's spending, drawn
    page_checked(console, "11-spending-models")
    # The API key goes to the bridge and the OS keyring, never to the browser or a file; this
    # machine has no secure keyring, which the page says plainly.
    console.fill("#key-provider", "openai")
    console.fill("#api-key", "sk-console-test-key")
    console.locator("#key-form button[type=submit]").click()
    said = console.locator("#key-saved:not(:empty)").inner_text()
    assert "in the OS keyring" in said or "no secure keyring" in said, said
    assert console.locator("#api-key").input_value() in ("", "sk-console-test-key")
    kept = console.evaluate("async () => JSON.stringify(await chrome.storage.local.get(null))")
    assert "sk-console-test-key" not in kept
    assert not [p for p in home.rglob("*") if p.is_file()
                and b"sk-console-test-key" in p.read_bytes()]

    # Activity: the model call and the settings just made, searchable.
    go(console, "activity-page")
    console.fill("#activity-search", "model.call")
    console.wait_for_selector("#activity-count:has-text('match')")
    assert "model.call" in console.locator("#activity-table tbody").inner_text()
    console.fill("#activity-search", "")
    console.wait_for_selector("#activity-count:not(:has-text('match'))")
    page_checked(console, "12-activity")

    # Settings: the sites Relay may run on (the `sites` setting), encryption at rest.
    go(console, "settings-page")
    console.fill("#site-new", "https://Boards.Greenhouse.io/acme")
    console.keyboard.press("Enter")
    console.wait_for_selector("#site-list li:has-text('boards.greenhouse.io')")
    stored = console.evaluate("async () => (await chrome.storage.local.get('sites')).sites")
    assert stored == ["boards.greenhouse.io"]
    # The sites where the person pressed Fill (new fields filled without a click only there).
    origin = "/".join(server.url(FORM).split("/", 3)[:3])
    console.wait_for_selector(f"#filled-list li:has-text('{origin}')")
    console.wait_for_selector("#encryption-note:not(:empty)")
    page_checked(console, "13-settings")
    refused = browser.open(server.url(FORM))  # 127.0.0.1 is not a listed site
    refused_outcome = browser.fill(refused)
    assert not refused_outcome.report.ok
    assert "E_SITE_NOT_ALLOWED" in str(refused_outcome.report.error)
    refused.close()
    console.locator("#site-list button").click()  # back to any site, for the tests that follow
    console.wait_for_selector("#site-list li.empty")
    console.locator(f"#filled-list button[aria-label='Remove {origin}']").click()
    console.wait_for_selector("#filled-list li.empty")
    stored = console.evaluate("async () => (await chrome.storage.local.get('relay.sites'))")
    assert origin not in stored.get("relay.sites", [])

    # With the model set up, reading a resume again: the model's fact, numbered its own way (its
    # work.1 is the rules' first job), is shown with that job and marked for checking.
    engines = "Analytical Engines Inc - Senior Backend Engineer (2021-present)"
    led = "- Led a team of 4 engineers through a 30-service Python 3 migration"
    facts = [{"path": "work.1.name", "value": "Analytical Engines Inc", "quote": engines},
             {"path": "work.1.highlights.0", "value": "Led a team of 4 engineers", "quote": led}]
    llm_server.reset(lambda body: Reply({"fields": {"facts": facts}}, tokens_in=900,
                                        tokens_out=300))
    go(console, "profile-page")
    console.set_input_files("#resume-file", str(RESUME_PDF))
    console.wait_for_selector("#facts:not([hidden])")
    model_row = console.locator("#facts-rows tr[data-path='work.0.highlights.2']")
    assert model_row.locator(".found-by").inner_text() == "Read by the model: check it"
    assert model_row.locator("input:not([type])").input_value() == "Led a team of 4 engineers"
    before = console.evaluate("""() => {
        let row = document.querySelector("#facts-rows tr[data-path='work.0.highlights.2']");
        do { row = row.previousElementSibling; } while (row && !row.dataset.path);
        return row && row.dataset.path; }""")
    assert before == "work.0.highlights.1"  # with the rules' rows of the same job
    # A picture of that job's rows (from its heading to the model's row), for the guide.
    clip = console.evaluate("""() => {
        const last = document.querySelector("#facts-rows tr[data-path='work.0.highlights.2']");
        let first = document.querySelector("#facts-rows tr[data-path='work.0.name']");
        first = first.previousElementSibling || first;
        const top = first.getBoundingClientRect().top + scrollY;
        const table = document.getElementById("facts-rows").getBoundingClientRect();
        return {x: table.left - 8, y: top - 8, width: table.width + 16,
                height: last.getBoundingClientRect().bottom + scrollY - top + 16}; }""")
    console.screenshot(path=str(SHOTS / "console-14-model-read.png"), full_page=True, clip=clip)
    assert console.locator("#facts-rows tr[data-path^='work.'] .found-by:has-text('model')"
                           ).count() == 1
    assert len(llm_server.requests) == 1
    console.locator("#facts-cancel").click()

    # Export: the JSON Resume file with the files chosen for the job above.
    with console.expect_download() as download:
        console.locator("#profiles-body tr[data-profile=ada] button:has-text('Export')").click()
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["basics"]["email"] == "ada@analytical.example"
    choices = exported["meta"]["relayDocumentChoices"]
    assert {(c["job"], c["kind"]) for c in choices} == {
        (job_url, "resume"), (job_url, "coverLetter")}
    # A second profile from an older JSON Resume file saved with a byte-order mark, then deleted
    # (asked twice); the first becomes the one Fill uses again.
    older = {"basics": {"name": "Bea Byron", "email": "bea@example.com",
                        "website": "https://bea.example"},
             "work": [{"company": "Acme", "position": "Engineer", "startDate": "Fall 2018"}]}
    console.set_input_files("#json-file", files=[{
        "name": "bea.json", "mimeType": "application/json",
        "buffer": "\ufeff".encode() + json.dumps(older).encode()}])
    console.wait_for_selector("#import-message:has-text('Things to know')")
    assert "website" in console.locator("#import-message").inner_text()
    bea = ask(console, "profile.get", {"name": "bea"})["profile"]
    assert bea["basics"]["url"] == "https://bea.example" and bea["work"][0]["name"] == "Acme"
    # A third typed in from scratch.
    console.locator("#show-form").click()
    console.wait_for_function("() => document.activeElement.id === 'f-name'")
    console.keyboard.type("Cleo Cole")
    console.fill("#f-email", "cleo@example.com")
    console.locator("#editor-form button[type=submit]").click()
    console.wait_for_selector("#import-message:has-text('Created the profile')")
    assert ask(console, "profile.get")["name"] == "cleo"  # the one just made is used next
    for name in ("bea", "cleo"):
        delete = console.locator(f"#profiles-body tr[data-profile={name}] button.danger")
        delete.click()
        assert "for good" in delete.inner_text()
        delete.click()
        console.wait_for_selector(f"#profiles-body:has-text('Deleted the profile “{name}”')")
    listed = ask(console, "profiles.list")["profiles"]
    assert [(p["name"], p["active"]) for p in listed] == [("ada", True)]
    # After all that, the extension's own storage holds settings only; the data is the bridge's.
    keys = console.evaluate("async () => Object.keys(await chrome.storage.local.get(null))")
    assert set(keys) <= {"autoFillNewFields", "sites", "relay.sites"}, keys
    console.close()


def test_answers_the_assistant_asked_to_save_wait_for_the_persons_approval(
    session: Session, console_home: Path,
) -> None:
    """`relay mcp`'s save_answer waits as a pending approval; the console's Saved answers page
    shows what would be saved, and the person approves one (saved) and denies the other (not)."""
    from bridge.learn.models import AnswerSave, Question
    from bridge.store import Store

    browser, _, _ = session
    asked = {"What notice period do you have?": "Four weeks",
             "Which team would you like to join?": "Payments"}
    with Store.open(console_home) as store:
        ids = {question: store.ask_approval("answer.save", "mcp.save_answer", AnswerSave(
            question=Question(label=question), value=value).model_dump(mode="json"))
               for question, value in asked.items()}
    console = open_console(browser)
    go(console, "answers-page")
    waiting = console.locator("#approvals:not([hidden]) tr[data-approval]")
    waiting.nth(1).wait_for()
    shown = {waiting.nth(i).locator("td").nth(0).inner_text():
             waiting.nth(i).locator("td").nth(1).inner_text() for i in range(waiting.count())}
    assert {q.splitlines()[0]: v for q, v in shown.items()} == asked
    assert axe_violations(console) == []

    notice, team = asked
    console.get_by_role("button", name=f"Approve saving the answer to {notice}").click()
    console.wait_for_selector("#approvals [role=status]:has-text('Saved your answer')")
    console.wait_for_function(
        "() => [...document.querySelectorAll('#answers-table textarea')]"
        ".some((i) => i.value === 'Four weeks')")
    console.get_by_role("button", name=f"Deny saving the answer to {team}").click()
    console.wait_for_selector("#approvals [role=status]:has-text('nothing was saved')")
    assert console.locator("#approvals tr[data-approval]").count() == 0
    with Store.open(console_home) as store:
        status = {row["approval_id"]: row["status"] for row in store.approvals()}
        saved = [a["value"] for a in store.saved_answers("", 100)]
        actions = [e["action"] for e in store.audit_entries()]
    assert (status[ids[notice]], status[ids[team]]) == ("approved", "denied")
    assert "Four weeks" in saved and "Payments" not in saved
    assert "bridge.approve.answer.save" in actions
    # A tool cannot approve its own request: the HTTP door does not offer the decision.
    from bridge.api.narrow import offered

    assert not offered("approval.decide") and not offered("approvals.list")
    console.close()
