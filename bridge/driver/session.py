"""One `relay fill`: Chromium with the extension, the page, the toolbar's Fill, the report.

Nothing here clicks, presses Enter in, or submits anything on the page: the Fill is triggered in
the extension's service worker exactly as the toolbar button triggers it.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.driver.chromium import has_display, launch
from bridge.driver.registration import bridge_executable, register_in_user_data_dir
from bridge.driver.report import FillReport, LlmReport, build_fields, count
from bridge.driver.static_server import StaticServer
from bridge.forms import ApplyResult, FillPlan
from bridge.paths import relay_home, repo_root
from bridge.protocol.errors import ErrorCode, RelayError

log = logging.getLogger(__name__)

WORKER_WAIT_S = 10.0
FILL_TIMEOUT_MS = 60_000


@dataclass
class FillOptions:
    target: str
    profile: Path
    headed: bool = False
    screenshot: Path | None = None
    timeout_ms: int = FILL_TIMEOUT_MS


def extension_dir() -> Path:
    root = repo_root()
    if root is None:
        raise RelayError(ErrorCode.INTERNAL, "the Relay extension folder was not found")
    return root / "extension"


@contextlib.contextmanager
def _page_url(target: str) -> Iterator[str]:
    """A URL for TARGET: URLs as they are, local files served over loopback HTTP."""
    if target.startswith(("http://", "https://")):
        yield target
        return
    path = Path(target.removeprefix("file://")).expanduser().resolve()
    if not path.is_file():
        raise RelayError(ErrorCode.NOT_FOUND, f"no such page: {target}")
    with StaticServer(path.parent) as server:
        yield server.url(path.name)


def run_fill(options: FillOptions) -> FillReport:
    from playwright.sync_api import sync_playwright

    profile = options.profile.expanduser().resolve()
    from bridge.profile import load_profile

    load_profile(profile)  # a broken profile is reported before a browser starts
    headed = options.headed and has_display()
    if options.headed and not headed:
        log.warning("no display: running headless")
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="relay-chromium-") as scratch,
        _page_url(options.target) as url,
        sync_playwright() as playwright,
    ):
        udd = Path(scratch) / "profile"
        udd.mkdir()
        register_in_user_data_dir(udd, bridge_executable(Path(scratch)))
        env = {"RELAY_PROFILE": str(profile), "RELAY_HOME": str(relay_home())}
        context = launch(
            playwright, user_data_dir=udd, extension_dir=extension_dir(), headed=headed, env=env
        )
        try:
            worker = context.service_workers[0] if context.service_workers else None
            if worker is None:
                worker = context.wait_for_event("serviceworker", timeout=WORKER_WAIT_S * 1000)
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(url, wait_until="load")
            navigations: list[str] = []
            page.on(
                "framenavigated",
                lambda frame: navigations.append(frame.url) if frame == page.main_frame else None,
            )
            launched = time.perf_counter()
            outcome: dict[str, Any] = worker.evaluate(
                """async (url) => {
                    const tabs = await chrome.tabs.query({});
                    const tab = tabs.find((t) => t.url === url) || tabs.find((t) => t.active);
                    return await globalThis.relayFill(tab ? tab.id : undefined);
                }""",
                page.url,
            )
            filled = time.perf_counter()
            page.wait_for_timeout(150)  # let late input handlers and marks settle
            submits = page.evaluate(
                "() => typeof window.__fixtureSubmits === 'number' ? window.__fixtureSubmits : null"
            )
            if options.screenshot:
                options.screenshot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(options.screenshot), full_page=True)
            report = _report(options.target, page.url, page.title(), outcome)
            report.page_submits = submits
            report.navigations = len(navigations)
            report.timings_ms.update(
                {
                    "browser_start": round((launched - started) * 1000, 1),
                    "fill": round((filled - launched) * 1000, 1),
                }
            )
            return report
        finally:
            context.close()


def _report(target: str, url: str, title: str, outcome: dict[str, Any]) -> FillReport:
    report = FillReport(target=target, url=url, title=title, ok=bool(outcome.get("ok")))
    if not report.ok:
        report.error = outcome.get("error") or {"code": "E_INTERNAL", "message": "fill failed"}
    plan_data = outcome.get("plan")
    if plan_data:
        plan = FillPlan.model_validate(plan_data)
        applied = [ApplyResult.model_validate(a) for a in outcome.get("applied") or []]
        report.run_id = plan.run_id
        report.fields = build_fields(plan.decisions, applied)
        report.llm = LlmReport(
            calls=plan.llm_calls, cost_usd=plan.llm_cost_usd, status=plan.llm_status
        )
        report.timings_ms.update({f"bridge_{k}": v for k, v in plan.timings_ms.items()})
    report.counts = count(report.fields)
    for key, value in (outcome.get("timings_ms") or {}).items():
        if isinstance(value, int | float):
            report.timings_ms[f"extension_{key}"] = float(value)
    return report
