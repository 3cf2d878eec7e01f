"""Chromium with the Relay extension and bridge, and Fill pressed as the toolbar button does.

`RelayBrowser` is what `relay fill`, the end-to-end tests and the benchmarks share. Nothing here
clicks, presses Enter in, or submits anything on the page: the Fill is started in the extension's
service worker through the same function the toolbar button calls.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bridge.driver.chromium import has_display, launch
from bridge.driver.registration import bridge_executable, register_in_user_data_dir
from bridge.driver.report import FillReport, LlmReport, build_fields, count
from bridge.driver.static_server import StaticServer
from bridge.forms import ApplyResult, BlockedAttempt, FillPlan
from bridge.paths import relay_home, repo_root
from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Worker

log = logging.getLogger(__name__)

WORKER_WAIT_MS = 10_000
SETTLE_MS = 150

# Find the tab showing the page and run the toolbar's Fill on it, timed in the worker (what the
# toolbar's press costs, without carrying the outcome back to Python).
_TRIGGER_FILL = """async (url) => {
    const tabs = await chrome.tabs.query({});
    // The page brought to front, when several tabs show the same address.
    const tab = tabs.find((t) => t.active && t.url === url) || tabs.find((t) => t.url === url)
        || tabs.find((t) => t.active);
    const started = performance.now();
    const outcome = await globalThis.relayFill(tab ? tab.id : undefined);
    return { ...outcome, fill_ms: performance.now() - started };
}"""

# Everything the submit guard stopped for a run, once each frame's watch after the apply ended.
_GUARD_SETTLED = """(runId) => globalThis.relayGuardSettled
    ? globalThis.relayGuardSettled(runId) : {}"""

_READ_SUBMITS = "() => typeof window.__fixtureSubmits === 'number' ? window.__fixtureSubmits : null"


def extension_dir() -> Path:
    root = repo_root()
    if root is None:
        raise RelayError(ErrorCode.INTERNAL, "the Relay extension folder was not found")
    return root / "extension"


@dataclass
class FillOutcome:
    """One Fill on one page: the extension's outcome and the report built from it."""

    page: Page
    report: FillReport
    raw: dict[str, Any]


class RelayBrowser:
    """A running Chromium with Relay loaded; fill as many pages as needed."""

    def __init__(self, context: BrowserContext, worker: Worker) -> None:
        self.context = context
        self.worker = worker

    def open(self, url: str) -> Page:
        from playwright.sync_api import Error as BrowserError

        page = self.context.new_page()
        try:
            page.goto(url, wait_until="load")
        except BrowserError as exc:
            # Playwright's message starts "Page.goto: net::ERR_…" and then logs its steps.
            reason = str(exc).splitlines()[0].removeprefix("Page.goto: ").split(" at ")[0]
            raise RelayError(ErrorCode.NOT_FOUND, f"could not open {url}: {reason}") from exc
        return page

    def fill(
        self, page: Page, target: str | None = None, *, settle_guard: bool = False
    ) -> FillOutcome:
        """Fill the page as the toolbar does. With `settle_guard`, wait until the submit guard's
        watch after the apply has ended (about a second) so the report lists every stopped
        submission, the late ones too."""
        navigations: list[str] = []

        def on_navigate(frame: Any) -> None:
            if frame == page.main_frame:
                navigations.append(frame.url)

        page.on("framenavigated", on_navigate)
        page.bring_to_front()
        started = time.perf_counter()
        raw: dict[str, Any] = self.worker.evaluate(_TRIGGER_FILL, page.url)
        elapsed = time.perf_counter() - started
        page.wait_for_timeout(SETTLE_MS)  # late input handlers and marks
        if settle_guard and raw.get("run_id"):
            raw = {**raw, **self.worker.evaluate(_GUARD_SETTLED, raw["run_id"])}
        page.remove_listener("framenavigated", on_navigate)
        report = build_report(target or page.url, page.url, page.title(), raw)
        report.page_submits = page.evaluate(_READ_SUBMITS)
        report.navigations = len(navigations)
        report.timings_ms["fill"] = round(float(raw.get("fill_ms") or elapsed * 1000), 1)
        return FillOutcome(page=page, report=report, raw=raw)


@contextlib.contextmanager
def relay_browser(
    profile: Path | None,
    *,
    headed: bool = False,
    home: Path | None = None,
    host: Path | None = None,
) -> Iterator[RelayBrowser]:
    """Start Chromium with the extension and the bridge registered in a throwaway profile folder.

    `profile`: a file to fill from; None fills from the store's active profile, as after
    `relay install`. `host`: the program the manifest names (default: this installation's
    bridge)."""
    from playwright.sync_api import sync_playwright

    from bridge.profile import load_profile

    if profile is not None:
        profile = profile.expanduser().resolve()
        load_profile(profile)  # a broken profile is reported before a browser starts
    if headed and not has_display():
        log.warning("no display: running headless")
        headed = False
    with (
        tempfile.TemporaryDirectory(prefix="relay-chromium-") as scratch,
        sync_playwright() as playwright,
    ):
        udd = Path(scratch) / "profile"
        udd.mkdir()
        register_in_user_data_dir(udd, host or bridge_executable(Path(scratch)))
        env = {"RELAY_HOME": str(home or relay_home())}
        if profile is not None:
            env["RELAY_PROFILE"] = str(profile)
        context = launch(
            playwright, user_data_dir=udd, extension_dir=extension_dir(), headed=headed, env=env
        )
        try:
            worker = context.service_workers[0] if context.service_workers else None
            if worker is None:
                worker = context.wait_for_event("serviceworker", timeout=WORKER_WAIT_MS)
            yield RelayBrowser(context, worker)
        finally:
            context.close()


@contextlib.contextmanager
def page_url(target: str) -> Iterator[str]:
    """A URL for TARGET: URLs as they are, local files served over loopback HTTP."""
    if target.startswith(("http://", "https://")):
        yield target
        return
    path = Path(target.removeprefix("file://")).expanduser().resolve()
    if not path.is_file():
        raise RelayError(ErrorCode.NOT_FOUND, f"no such page: {target}")
    with StaticServer(path.parent) as server:
        yield server.url(path.name)


def run_fill(
    target: str, profile: Path, *, headed: bool = False, screenshot: Path | None = None
) -> FillReport:
    """What `relay fill` does: one page, one Fill, the report, optionally a screenshot."""
    started = time.perf_counter()
    with page_url(target) as url, relay_browser(profile, headed=headed) as browser:
        launched = time.perf_counter()
        page = browser.open(url)
        outcome = browser.fill(page, target, settle_guard=True)
        if screenshot:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshot), full_page=True)
        outcome.report.timings_ms["browser_start"] = round((launched - started) * 1000, 1)
        return outcome.report


def build_report(target: str, url: str, title: str, raw: dict[str, Any]) -> FillReport:
    report = FillReport(target=target, url=url, title=title, ok=bool(raw.get("ok")))
    if not report.ok:
        report.error = raw.get("error") or {"code": "E_INTERNAL", "message": "fill failed"}
    plan_data = raw.get("plan")
    if plan_data:
        plan = FillPlan.model_validate(plan_data)
        applied = [ApplyResult.model_validate(a) for a in raw.get("applied") or []]
        report.run_id = plan.run_id
        report.fields = build_fields(plan.decisions, applied)
        report.llm = LlmReport(
            calls=plan.llm_calls, cost_usd=plan.llm_cost_usd, status=plan.llm_status
        )
        report.timings_ms.update({f"bridge_{k}": v for k, v in plan.timings_ms.items()})
    report.blocked = [BlockedAttempt.model_validate(b) for b in raw.get("blocked") or []]
    report.counts = count(report.fields)
    for key, value in (raw.get("timings_ms") or {}).items():
        if isinstance(value, int | float):
            report.timings_ms[f"extension_{key}"] = float(value)
    return report
