"""'Fill new fields as they appear': after a Fill, fields a wizard renders later are filled when the
person turned the setting on, never when it is off, and a value the person changed is kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import FIXTURES, SAMPLE_PROFILE

pytestmark = pytest.mark.e2e

SET = "(on) => chrome.storage.local.set({autoFillNewFields: on})"


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory,
            chromium: str) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    home: Path = tmp_path_factory.mktemp("relay-home-autofill")
    with StaticServer(FIXTURES / "pages") as server, relay_browser(SAMPLE_PROFILE, home=home) as b:
        yield b, server


def test_new_step_is_filled_when_the_setting_is_on(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    browser.worker.evaluate(SET, True)
    page = browser.open(server.url("wizard.html"))
    first = browser.fill(page)
    assert first.report.ok
    page.fill("#last", "Byron")  # the person corrects a value Relay filled
    page.evaluate("() => window.__fixture.showStep2()")
    page.wait_for_function("() => document.getElementById('email')?.value !== ''", timeout=15_000)
    values = page.evaluate("() => window.__fixture.read()")
    assert values["email"] == "ada.lovelace@example.com"
    assert values["phone"]
    assert values["first"] == "Ada" and values["last"] == "Byron"
    assert page.evaluate("() => window.__fixtureSubmits") == 0
    page.close()


def test_nothing_happens_when_the_setting_is_off(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    browser.worker.evaluate(SET, False)
    page = browser.open(server.url("wizard.html"))
    assert browser.fill(page).report.ok
    page.evaluate("() => window.__fixture.showStep2()")
    page.wait_for_timeout(2_000)
    assert page.evaluate("() => window.__fixture.read()")["email"] == ""
    page.close()
