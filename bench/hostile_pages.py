"""How long a Fill takes on a very large form: the hostile stress page with 0, 500 and 2,000 extra
questions (tests/fixtures/hostile/stress/: throwing handlers, a field 50 shadow roots deep).

Chromium with Relay loaded, rules only (no model configured). Prints the fields, the Fill's
total time and where the extension spent it; asserts nothing (the page's hostile parts are
tests/test_e2e_hostile_pages.py's).
Run: .venv/bin/python bench/hostile_pages.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.driver.session import relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import FIXTURES, SAMPLE_PROFILE

SIZES = (0, 500, 2000)


def main() -> None:
    print(f"{'extra':>6}{'fields':>8}{'ok':>4}{'fill ms':>10}{'snapshot ms':>13}{'plan ms':>9}"
          f"{'apply ms':>10}")
    with (
        tempfile.TemporaryDirectory() as home,
        StaticServer(FIXTURES) as server,
        relay_browser(SAMPLE_PROFILE, home=Path(home)) as browser,
    ):
        for extra in SIZES:
            page = browser.open(server.url("hostile/stress/index.html") + f"?extra={extra}")
            try:
                report = browser.fill(page).report
            finally:
                page.close()
            t = report.timings_ms
            ok = "yes" if report.ok else "no"
            print(f"{extra:>6}{len(report.fields):>8}{ok:>4}{t.get('fill', 0):>10.0f}"
                  f"{t.get('extension_snapshot', 0):>13.0f}{t.get('extension_plan', 0):>9.0f}"
                  f"{t.get('extension_apply', 0):>10.0f}")
            if not report.ok and report.error:
                print(f"        {report.error['message']}")


if __name__ == "__main__":
    main()
