"""Fill every ATS fixture form through the real extension and bridge, and score the result.

Shared by the end-to-end tests and bench/fill_quality.py. Multi-step forms are walked with the
fixture's own `window.__fixture.showStep(n)` (n from 1), never with their Next/Submit buttons.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.driver.report import FillReport
from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from tests.fixture_scoring import (
    ATS_DIR,
    FormScore,
    fixture_specs,
    read_all_frames,
    score_form,
    submits_in_all_frames,
)

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"

_SHOW_STEP = """(n) => {
    const f = window.__fixture;
    if (f && typeof f.showStep === 'function') { f.showStep(n); return true; }
    return false;
}"""


@dataclass
class FormRun:
    slug: str
    spec: dict[str, Any]
    score: FormScore
    reports: list[FillReport] = field(default_factory=list)
    submits: int = 0
    navigations: int = 0
    fill_ms: list[float] = field(default_factory=list)


@contextmanager
def fixture_session(home: Path | None = None) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    with (
        StaticServer(ATS_DIR.parent) as server,
        relay_browser(SAMPLE_PROFILE, home=home) as browser,
    ):
        yield browser, server


def run_form(browser: RelayBrowser, server: StaticServer, folder: Path, spec: dict[str, Any],
             ) -> FormRun:
    url = server.url(f"ats/{folder.name}/{spec.get('entry', 'index.html')}")
    page = browser.open(url)
    try:
        page.wait_for_load_state("networkidle")
        # Forms that arrive after load (turbo-frames, SPA boot) say when they are ready.
        page.wait_for_function(
            "() => !window.__fixture || typeof window.__fixture.loaded !== 'function'"
            " || window.__fixture.loaded()",
            timeout=10_000,
        )
        steps = int(spec.get("steps", 1) or 1)
        run = FormRun(folder.name, spec, FormScore(spec.get("name", folder.name)))
        for step in range(1, steps + 1):
            if steps > 1:
                page.evaluate(_SHOW_STEP, step)
                page.wait_for_timeout(100)
            outcome = browser.fill(page)
            # The Fill as the toolbar runs it, without the harness's settle wait and reads after.
            run.fill_ms.append(outcome.report.timings_ms["fill"])
            run.reports.append(outcome.report)
            run.navigations += outcome.report.navigations
        values = read_all_frames(page)
        run.score = score_form(spec.get("name", folder.name), spec, values)
        run.submits = submits_in_all_frames(page)
        return run
    finally:
        page.close()


def run_all(home: Path | None = None, only: set[str] | None = None) -> list[FormRun]:
    runs = []
    with fixture_session(home) as (browser, server):
        for folder, spec in fixture_specs():
            if only and folder.name not in only:
                continue
            runs.append(run_form(browser, server, folder, spec))
    return runs
