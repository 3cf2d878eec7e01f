"""Issue 10's loop in a real Chromium with the real extension and bridge (rules only).

Fill first.html → the test, acting as the person, changes two of Relay's answers, fills one Relay
left and clicks the page's own Submit (the person may; Relay never does) → the bridge records
the application with every field's final value and who set it → Fill on second.html, which asks
the same three questions in other words (one in German), answers them from the saved answers.
Pages: tests/fixtures/pages/learning/.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.session import relay_browser
from bridge.driver.static_server import StaticServer
from bridge.store import Store
from tests.conftest import FIXTURES, SAMPLE_PROFILE

pytestmark = pytest.mark.e2e

WHY = "I like calm, careful systems that people can rely on."


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


def _wait_for_applications(home: Path, count: int) -> list[dict[str, Any]]:
    """The bridge records applications in its own process: wait for them (at most 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        with Store.open(home) as store:
            apps = store.applications()
            if len(apps) >= count or time.monotonic() > deadline:
                return [store.application(a["application_id"]) for a in apps]
        time.sleep(0.2)


def test_the_person_submits_and_the_next_form_answers_from_what_they_gave(
        tmp_path: Path, chromium: str) -> None:
    home = tmp_path / "home"
    with StaticServer(FIXTURES) as server, \
            relay_browser(_profile(tmp_path), home=home) as browser:
        page = browser.open(server.url("pages/learning/first.html"))
        first = browser.fill(page)
        assert first.report.ok, first.report.error
        rows = {r.label: r for r in first.report.fields}
        assert rows["What is your favourite programming language?"].value == "Rust"
        assert rows["How did you hear about this job?"].status == "leave"
        assert page.input_value("#first") == "Ada"

        # The person: two answers changed, one Relay left filled in, then their own Submit.
        page.fill("#lang", "Python")
        page.fill("#why", WHY)
        page.fill("#heard", "A friend told me")
        assert page.evaluate("window.__fixtureSubmits") == 0  # Relay submitted nothing
        page.click("#send")
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
        heard = fields["How did you hear about this job?"]
        assert (heard["value"], heard["set_by"], heard["relay_value"]) == (
            "A friend told me", "person", "")
        with Store.open(home) as store:
            saved = {a["question"]: a["value"] for a in store.saved_answers()}
        assert saved == {
            "What is your favourite programming language?": "Python",
            "Why are you interested in this role?": WHY,
            "How did you hear about this job?": "A friend told me",
        }

        page2 = browser.open(server.url("pages/learning/second.html"))
        second = browser.fill(page2)
        assert second.report.ok, second.report.error
        rows2 = {r.label: r for r in second.report.fields}
        for label, selector, value, asked in (
            ("Where did you find this job?", "#source", "A friend told me",
             "How did you hear about this job?"),
            ("Which is your favourite programming language?", "#lang", "Python",
             "What is your favourite programming language?"),
            ("Warum interessieren Sie sich für diese Stelle?", "#motivation", WHY,
             "Why are you interested in this role?"),
        ):
            row = rows2[label]
            assert page2.input_value(selector) == value, (label, row)
            assert row.source == "saved_answer" and row.status == "flag", row
            assert f"Your saved answer to “{asked}”" in row.reason, row.reason
        assert page2.evaluate("window.__fixtureSubmits") == 0

        # This page sends the form by script: its confirmation is what tells of the Submit.
        page2.click("#send")
        page2.wait_for_selector("#done", state="visible")
        apps = _wait_for_applications(home, 2)
        assert len(apps) == 2, "the Submit seen by its confirmation was not recorded"
        latest = apps[0]  # newest first
        assert (latest["company"], latest["how"]) == ("Globex", "confirmation")
        by_label = {f["label"]: f for f in latest["fields"]}
        assert by_label["Which is your favourite programming language?"]["set_by"] == "saved_answer"
        assert by_label["First name"]["set_by"] == "rules"
