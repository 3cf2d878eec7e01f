"""What checking that the person can see each field costs the snapshot, per form.

Opens every ATS fixture (first step) and the hostile invisible-fields page in Chromium with Relay
loaded, asks the top frame's content script for a snapshot several times, and prints the median
snapshot time and the part of it spent on the visibility check (hit-testing, scrolling and putting
the scroll back). Prints figures; asserts nothing. Run: .venv/bin/python bench/sight_speed.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.driver.session import relay_browser
from bridge.driver.static_server import StaticServer
from tests.ats_runner import SAMPLE_PROFILE
from tests.content_script import content_files
from tests.fixture_scoring import ATS_DIR, fixture_specs

REPEATS = 7

_LOADED = ("() => !window.__fixture || typeof window.__fixture.loaded !== 'function'"
           " || window.__fixture.loaded()")
_SNAPSHOT = """async ([url, files]) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === url);
    // Nothing of Relay runs on a page before a Fill: put its content script there first (once).
    const ping = () => chrome.tabs.sendMessage(tab.id, {relay: "ping"}, {frameId: 0});
    await ping().catch(() => chrome.scripting.executeScript({target: {tabId: tab.id}, files}));
    const reply = await chrome.tabs.sendMessage(tab.id, {relay: "snapshot"}, {frameId: 0});
    return {fields: reply.fields.length, hidden: reply.fields.filter((f) => !f.visible).length,
            timings: reply.timings_ms};
}"""


def main() -> None:
    pages = [(folder.name, f"ats/{folder.name}/{spec.get('entry', 'index.html')}")
             for folder, spec in fixture_specs()]
    pages.append(("hostile-invisible", "hostile/invisible-fields/index.html"))
    files = content_files()
    print(f"{'form':<20}{'fields':>7}{'not seen':>9}{'snapshot ms':>13}{'of which sight ms':>19}")
    with (
        tempfile.TemporaryDirectory() as home,
        StaticServer(ATS_DIR.parent) as server,
        relay_browser(SAMPLE_PROFILE, home=Path(home)) as browser,
    ):
        for name, path in pages:
            page = browser.open(server.url(path))
            try:
                page.wait_for_load_state("networkidle")
                page.wait_for_function(_LOADED, timeout=10_000)
                runs = [browser.worker.evaluate(_SNAPSHOT, [page.url, files])
                        for _ in range(REPEATS)]
            finally:
                page.close()
            snap = statistics.median(r["timings"]["snapshot"] for r in runs)
            sight = statistics.median(r["timings"]["sight"] for r in runs)
            print(f"{name:<20}{runs[0]['fields']:>7}{runs[0]['hidden']:>9}{snap:>13.1f}{sight:>19.1f}")


if __name__ == "__main__":
    main()
