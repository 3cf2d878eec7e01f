"""The Fill's flow on pages built for it (issue 9): real Chromium, the real extension and bridge,
the sample profile, rules only, one browser for the module.

Late forms (9.12): the application arrives after the page has loaded — an SPA that boots, a form
swapped into a turbo-frame, an application iframe the career page builds on window load. Fill is
pressed as soon as the page has loaded, as a person who sees the page does; it waits for the
application instead of answering "no fields" or filling the page's newsletter box.
Pages: tests/fixtures/pages/late/.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import FIXTURES, SAMPLE_PROFILE
from tests.fixture_scoring import read_all_frames

ADA = {"first": "Ada", "last": "Lovelace", "email": "ada.lovelace@example.com"}
# page → what the application must hold after one Fill, and the boxes beside it left empty
LATE = {
    "late/spa.html": (
        {**ADA, "phone": "+1 415-555-0142", "linkedin": "https://www.linkedin.com/in/adaqlovelace",
         "resume": "ada-lovelace-resume.pdf"},
        ("nl_first_name", "nl_email"),
    ),
    "late/swap.html": ({**ADA, "phone": "+1 415-555-0142"}, ("connect_first_name", "connect_email")),
    "late/iframe.html": ({**ADA, "resume": "ada-lovelace-resume.pdf"}, ("site_search",)),
}


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, chromium: str,
            ) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    home = tmp_path_factory.mktemp("relay-home-flow")
    with StaticServer(FIXTURES / "pages") as server, relay_browser(SAMPLE_PROFILE, home=home) as browser:
        yield browser, server


@pytest.mark.parametrize("path", sorted(LATE))
def test_a_late_application_is_waited_for_and_filled(
    session: tuple[RelayBrowser, StaticServer], path: str,
) -> None:
    browser, server = session
    expected, beside = LATE[path]
    page = browser.open(server.url(path))  # returns once "load" has fired: the form is not there yet
    try:
        assert "first" not in _present(page), "the application should not be there at load"
        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        values = read_all_frames(page)
    finally:
        page.close()
    got = {key: values.get(key) for key in expected}
    assert got == expected
    assert all(values.get(key) == "" for key in beside), {k: values.get(k) for k in beside}
    assert outcome.report.page_submits == 0


def _present(page: Any) -> set[str]:
    """The fixture keys whose control exists in some frame right now."""
    keys: set[str] = set()
    for frame in page.frames:
        try:
            keys |= set(frame.evaluate(
                "() => Object.keys(window.__fixture ? window.__fixture.read() : {})"
                ".filter((k) => window.__fixture.locate(k))"))
        except Exception:  # a frame that went away
            continue
    return keys
