"""Fill every ATS fixture form through the real extension and bridge, and score the result.

Shared by the end-to-end tests and bench/fill_quality.py. A multi-step form is walked as a person
walks it: Fill, then a real click on the page's own Next / Continue / "Save and Continue" button
(declared per fixture in expected.json, `wizard.next`), then Fill again. The fixture's Next checks
its required fields and refuses to move on while one is empty, so a field Relay left blank stops
the walk there. Nothing that reads Submit, Apply or Send is ever clicked. What only the person may
do (type a password, tick a consent box: `wizard.person`) the harness does before pressing Next,
and those fields are scored as they were before it did.
"""

from __future__ import annotations

import re
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
    is_empty,
    read_all_frames,
    score_form,
    submits_in_all_frames,
)

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"

# Words a final button reads, in the languages the fixtures use: such a button is never pressed.
SUBMIT_WORDS = re.compile(
    r"\b(submit|apply|send|absenden|senden|bewerben|einreichen|envoyer|postuler|soumettre|"
    r"enviar|postular|postularme|candidatar|candidatar-se|candidatarme|verzenden|versturen|"
    r"solliciteren|indienen)\b",
    re.IGNORECASE,
)
LOADED_MS = 10_000
NEXT_MS = 5_000
STEP_MS = 5_000

_STEP_JS = """() => (window.__fixture && typeof window.__fixture.step === 'function')
    ? window.__fixture.step() : null"""
_STEP_LEFT_JS = """(s) => window.__fixture && typeof window.__fixture.step === 'function'
    && window.__fixture.step() !== s"""
_PRESSES_JS = "() => (window.__fixtureNext ? window.__fixtureNext.presses : 0)"
_PRESSED_JS = "(n) => (window.__fixtureNext ? window.__fixtureNext.presses : 0) > n"
_NEXT_JS = "() => window.__fixtureNext || null"
_SINCE_LOAD_JS = """(ms) => {
    const [nav] = performance.getEntriesByType('navigation');
    return Boolean(nav && nav.loadEventEnd) && performance.now() - nav.loadEventEnd >= ms;
}"""
class WizardError(RuntimeError):
    """The wizard declaration does not match its page: a fixture bug, not a Relay miss."""


@dataclass
class FormRun:
    slug: str
    spec: dict[str, Any]
    score: FormScore
    reports: list[FillReport] = field(default_factory=list)
    submits: int = 0
    navigations: int = 0
    fill_ms: list[float] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)  # the rounds each Fill planned and applied
    report_steps: list[int] = field(default_factory=list)  # the wizard step of each report
    steps: int = 1
    reached: int = 1
    # Required fields the page's Next found empty where the walk stopped, as the page names them.
    stalled_on: list[str] = field(default_factory=list)


@contextmanager
def fixture_session(home: Path | None = None) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    with (
        StaticServer(ATS_DIR.parent) as server,
        relay_browser(SAMPLE_PROFILE, home=home) as browser,
    ):
        yield browser, server


def current_step(page: Any) -> int | None:
    for frame in page.frames:
        try:
            step = frame.evaluate(_STEP_JS)
        except Exception:  # a frame that went away holds no wizard
            continue
        if isinstance(step, int):
            return step
    return None


def next_declaration(spec: dict[str, Any], step: int) -> dict[str, Any]:
    """The Next button of STEP: the entry for that step, else the one without a step."""
    entries = (spec.get("wizard") or {}).get("next") or []
    for entry in entries:
        if entry.get("step") == step:
            return dict(entry)
    for entry in entries:
        if "step" not in entry:
            return dict(entry)
    raise WizardError(f"no Next button declared for step {step}")


def button_text(element: Any) -> str:
    text = element.inner_text() or element.get_attribute("aria-label") or ""
    return " ".join((text or element.get_attribute("value") or "").split())


def find_next(page: Any, declaration: dict[str, Any]) -> tuple[Any, Any]:
    """The visible control DECLARATION names, and its frame. Refuses anything that submits."""
    wanted = str(declaration.get("text", "")).casefold()
    for frame in page.frames:
        try:
            candidates = frame.locator(declaration["selector"]).all()
        except Exception:
            continue
        for element in candidates:
            if not element.is_visible():
                continue
            text = button_text(element)
            if wanted and wanted not in text.casefold():
                continue
            if SUBMIT_WORDS.search(text):
                raise WizardError(f"the declared Next button reads {text!r}: never pressed")
            return frame, element
    raise WizardError(f"no visible Next button {declaration['selector']!r} reading {wanted!r}")


def press_next(page: Any, declaration: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A real click on the page's own Next; returns its frame and what the page recorded."""
    frame, element = find_next(page, declaration)
    before = int(frame.evaluate(_PRESSES_JS))
    # Relay's review is in the side panel and its marks cover none of the page's controls: the
    # person's click reaches Next as it is (Playwright fails the click if anything covers it).
    element.click(timeout=NEXT_MS)
    frame.wait_for_function(_PRESSED_JS, arg=before, timeout=NEXT_MS)
    return frame, dict(frame.evaluate(_NEXT_JS) or {})


def act_as_person(page: Any, actions: list[dict[str, Any]]) -> None:
    """What the person does on this step before Next: only what Relay must never do."""
    for action in actions:
        target = page.locator(action["selector"]).first
        target.wait_for(state="visible", timeout=NEXT_MS)
        if "fill" in action:
            target.fill(str(action["fill"]))
        elif action.get("check"):
            target.check()
        elif "select" in action:
            target.select_option(label=str(action["select"]))
        else:
            target.click()


def run_form(browser: RelayBrowser, server: StaticServer, folder: Path, spec: dict[str, Any],
             *, press_after_ms: int = 0) -> FormRun:
    """`press_after_ms`: press the first Fill that long after the page's load event, as a person
    does (else as soon as the fixture says its form is there)."""
    url = server.url(f"ats/{folder.name}/{spec.get('entry', 'index.html')}")
    page = browser.open(url)
    try:
        if press_after_ms:
            # The page's own clock: the form may still be arriving, and the Fill waits for it.
            page.wait_for_function(_SINCE_LOAD_JS, arg=press_after_ms, timeout=LOADED_MS)
        else:
            # Forms that arrive after load (turbo-frames, SPA boot) say when they are ready.
            page.wait_for_function(
                "() => !window.__fixture || typeof window.__fixture.loaded !== 'function'"
                " || window.__fixture.loaded()",
                timeout=LOADED_MS,
            )
        steps = int(spec.get("steps", 1) or 1)
        run = FormRun(folder.name, spec, FormScore(spec.get("name", folder.name)), steps=steps)
        person = (spec.get("wizard") or {}).get("person") or []
        before_person: dict[str, Any] = {}
        step = current_step(page) if steps > 1 else 1
        step = step if step is not None else 1
        run.reached = max(step, 1)
        while True:
            outcome = browser.fill(page)
            # The Fill as the toolbar runs it, without the harness's settle wait and reads after.
            run.fill_ms.append(outcome.report.timings_ms["fill"])
            run.rounds.append(int(outcome.raw.get("rounds") or 1))
            run.reports.append(outcome.report)
            run.report_steps.append(step)
            run.navigations += outcome.report.navigations
            if steps == 1 or step >= steps:
                break
            mine = [a for a in person if a.get("step") == step]
            if mine:
                # The person answers what was left empty; what Relay put there is what is scored.
                values = read_all_frames(page)
                mine = [a for a in mine if "key" not in a or is_empty(values.get(a["key"]))]
                before_person.update({a["key"]: values.get(a["key"]) for a in mine if "key" in a})
                act_as_person(page, mine)
            frame, pressed = press_next(page, next_declaration(spec, step))
            if not pressed.get("advanced"):
                run.stalled_on = [str(k) for k in pressed.get("missing") or []]
                break
            frame.wait_for_function(_STEP_LEFT_JS, arg=step, timeout=STEP_MS)
            step = current_step(page) or step + 1
            run.reached = step
            page.wait_for_timeout(100)  # the new step's widgets finish their first render
        values = read_all_frames(page)
        values.update(before_person)
        run.score = score_form(spec.get("name", folder.name), spec, values)
        run.submits = submits_in_all_frames(page)
        return run
    finally:
        page.close()


def run_all(home: Path | None = None, only: set[str] | None = None, *, warm_up: bool = False,
            press_after_ms: int = 0) -> list[FormRun]:
    """Every fixture (or those in `only`). `warm_up`: fill the first one once before, unscored,
    so the first figure does not carry the bridge's and the extension's start-up.
    `press_after_ms`: see run_form."""
    runs = []
    with fixture_session(home) as (browser, server):
        specs = [(f, s) for f, s in fixture_specs() if not only or f.name in only]
        if warm_up and specs:
            run_form(browser, server, *specs[0], press_after_ms=press_after_ms)
        for folder, spec in specs:
            runs.append(run_form(browser, server, folder, spec, press_after_ms=press_after_ms))
    return runs
