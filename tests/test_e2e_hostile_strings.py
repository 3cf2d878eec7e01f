"""A page that puts megabyte strings in every attribute Relay reads (issue 13, item 3).

Real Chromium, the real extension and bridge. The snapshot the extension sends has every string
within the bridge's bounds (bridge/protocol/bounds.py), and the rest of the form is still filled.
Page: tests/fixtures/hostile/long-strings/.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bridge.driver.session import RelayBrowser
from bridge.driver.static_server import StaticServer

PAGE = "hostile/long-strings/index.html"
# The longest string the snapshot may hold for any key (a control's current value).
LONGEST = 20_000

_SNAPSHOT = """async (url) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === url);
    return await globalThis.relaySnapshotTab(tab.id);
}"""


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")


def test_megabyte_attributes_are_bounded_and_the_form_still_fills(
    session: tuple[RelayBrowser, StaticServer],
) -> None:
    browser, server = session
    page = browser.open(server.url(PAGE))
    try:
        snap = browser.worker.evaluate(_SNAPSHOT, page.url)
        too_long = [(p, len(s)) for p, s in _strings(snap["frames"]) if len(s) > LONGEST]
        assert too_long == []
        (top,) = [f for f in snap["frames"] if f["frame"] == "0"]
        fields = {f["html_id"]: f for f in top["fields"]}
        long = fields["long"]
        for key in ("name", "pattern", "min", "max", "autocomplete"):
            assert 0 < len(long[key]) <= 200, key
        for key in ("label", "placeholder", "aria_label", "aria_description"):
            assert 0 < len(long[key]) <= 2000, key
        assert len(long["value"]) == LONGEST
        assert all(len(v) <= 200 for v in long["attrs"].values())
        assert all(len(o["text"]) <= 2000 for o in fields["pick"]["options"])
        assert len(top["title"]) <= 2000 and len(top.get("form_hint", "")) <= 2000

        outcome = browser.fill(page)
        assert outcome.report.ok, outcome.report.error
        assert page.input_value("#first") == "Ada"
        assert page.input_value("#email") == "ada.lovelace@example.com"
        assert outcome.report.blocked == [] and outcome.report.navigations == 0
    finally:
        page.close()
