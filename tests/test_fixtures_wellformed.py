"""Every ATS fixture form loads cleanly and matches its expected.json.

For each `tests/fixtures/ats/*/expected.json` (found generically, whoever wrote it): the file is
well formed; the entry page loads over loopback HTTP without page errors; every frame has the
submit recorder; `window.__fixture.read()`, merged over all frames and over all steps (shown
with the fixture's `showStep(n)` hook, which only this module uses), reports exactly the keys in
expected.json, never-fill fields start empty; a click on the form's submit control is counted by
the recorder; and a wizard's own Next button, pressed on an empty step, refuses to move on.
One Chromium serves the whole module.
"""

from __future__ import annotations

import datetime
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Frame, Page, sync_playwright
from pydantic import BaseModel, ConfigDict, Field, model_validator

from bridge.driver.chromium import chromium_args
from bridge.driver.static_server import StaticServer
from tests.ats_runner import SUBMIT_WORDS, act_as_person, current_step, next_declaration, press_next
from tests.fixture_scoring import READ_JS

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ATS_DIR = FIXTURES / "ats"
VENDOR = ATS_DIR / "_vendor"
SPECS = sorted(ATS_DIR.glob("*/expected.json"))

MIN_FIELDS_PER_FORM = 25
MIN_FIELDS_TOTAL = 400
SUBMIT_SELECTOR = (
    "button[type=submit], input[type=submit], input[type=image], [data-fixture-submit]"
)
# Uncaught errors in any frame, including cross-origin ones, end up in a per-frame list.
ERROR_TRAP = """
window.__fixtureErrors = [];
window.addEventListener('error', (e) => window.__fixtureErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.__fixtureErrors.push(String(e.reason)));
"""
STEPS_JS = "() => (window.__fixture && window.__fixture.steps) || 1"

Kind = Literal[
    "text",
    "email",
    "tel",
    "url",
    "textarea",
    "select",
    "react-select",
    "select2",
    "listbox",
    "combobox",
    "radio",
    "yesno-buttons",
    "checkbox",
    "checkbox-group",
    "date",
    "file",
    "contenteditable",
]
Category = Literal[
    "name",
    "contact",
    "phone",
    "address",
    "links",
    "location",
    "work_auth",
    "sponsorship",
    "eeo",
    "experience",
    "education",
    "compensation",
    "availability",
    "documents",
    "questions",
    "never_fill",
    "other",
]
Match = Literal["exact", "casefold", "digits", "date", "contains"]
Expect = str | bool | list[str] | list[list[str]]


class FieldSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str = Field(min_length=1)
    label: str = Field(min_length=1)
    kind: Kind
    category: Category
    expect: Expect
    match: Match = "exact"
    never_fill: bool = False
    step: int | None = Field(default=None, ge=1)


class NextButton(BaseModel):
    """A wizard's own Next control: `selector` (any frame) whose text contains `text`."""

    model_config = ConfigDict(extra="forbid")
    step: int | None = Field(default=None, ge=0)
    selector: str = Field(min_length=1)
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def never_a_submit(self) -> NextButton:
        if SUBMIT_WORDS.search(self.text):
            raise ValueError(f"a Next button reading {self.text!r} would submit")
        return self


class PersonAction(BaseModel):
    """What the person does before Next (a password, a consent box): exactly one operation."""

    model_config = ConfigDict(extra="forbid")
    step: int = Field(ge=0)
    key: str | None = None
    selector: str = Field(min_length=1)
    fill: str | None = None
    check: bool | None = None
    select: str | None = None
    click: bool | None = None

    @model_validator(mode="after")
    def one_operation(self) -> PersonAction:
        ops = [self.fill is not None, bool(self.check), self.select is not None, bool(self.click)]
        if sum(ops) != 1:
            raise ValueError("a person action does exactly one of fill, check, select, click")
        return self


class Wizard(BaseModel):
    model_config = ConfigDict(extra="forbid")
    next: list[NextButton] = Field(min_length=1)
    person: list[PersonAction] = []


class FirstSight(BaseModel):
    """The score the code of `commit` gave the form when it was added, before any change for it."""

    model_config = ConfigDict(extra="forbid")
    date: datetime.date
    commit: str = Field(pattern=r"^[0-9a-f]{40}$")
    answerable: int = Field(ge=0)
    correct: int = Field(ge=0)
    wrong: int = Field(ge=0)
    left: int = Field(ge=0)
    violations: int = Field(ge=0)
    sensitive_wrong: int = Field(ge=0)
    submits: int = Field(ge=0)
    reached: int | None = Field(default=None, ge=0)


class FormSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    ats: str = Field(min_length=1)
    language: str = Field(min_length=2)
    entry: str = Field(min_length=1)
    steps: int = Field(ge=1)
    wizard: Wizard | None = None
    first_sight: FirstSight | None = None
    fields: list[FieldSpec]


def load_spec(path: Path) -> FormSpec:
    return FormSpec.model_validate(json.loads(path.read_text(encoding="utf-8")))


def is_empty(value: Any) -> bool:
    return value in (None, "", False, []) or (isinstance(value, str) and not value.strip())


@pytest.fixture(scope="module")
def server_port() -> Iterator[int]:
    with StaticServer(FIXTURES) as server:
        yield server.port


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=chromium, headless=True, args=chromium_args())
        yield instance
        instance.close()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    context.add_init_script(ERROR_TRAP)
    opened = context.new_page()
    yield opened
    context.close()


def live_frames(page: Page) -> list[Frame]:
    return [f for f in page.frames if not f.is_detached()]


def open_form(page: Page, port: int, slug: str, spec: FormSpec) -> list[str]:
    """Load the entry page; returns uncaught page errors seen so far."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{port}/ats/{slug}/{spec.entry}", wait_until="load")
    for frame in live_frames(page):
        frame.wait_for_function("() => window.__fixtureSubmits !== undefined", timeout=5000)
    page.wait_for_timeout(100)  # let React and friends finish their first render
    return errors


def frame_errors(page: Page) -> list[str]:
    found: list[str] = []
    for frame in live_frames(page):
        found.extend(frame.evaluate("() => window.__fixtureErrors || []"))
    return found


def show_step(frame: Frame, n: int) -> None:
    frame.evaluate("(n) => window.__fixture.showStep(n)", n)


def read_everything(page: Page) -> dict[str, Any]:
    """Merge read() over frames, after visiting every step of multi-step frames."""
    merged: dict[str, Any] = {}
    for frame in live_frames(page):
        steps = int(frame.evaluate(STEPS_JS))
        for n in range(1, steps + 1):
            if steps > 1:
                show_step(frame, n)
                frame.wait_for_timeout(30)
        part = frame.evaluate(READ_JS)
        if isinstance(part, dict):
            merged.update(part)
    return merged


def _ids() -> list[str]:
    return [p.parent.name for p in SPECS]


def test_fixtures_exist() -> None:
    assert SPECS, "no tests/fixtures/ats/*/expected.json found"


@pytest.mark.parametrize("spec_path", SPECS, ids=_ids())
def test_expected_json_is_well_formed(spec_path: Path) -> None:
    spec = load_spec(spec_path)
    keys = [f.key for f in spec.fields]
    assert len(keys) == len(set(keys)), f"duplicate keys in {spec_path}"
    assert len(keys) >= MIN_FIELDS_PER_FORM, f"{spec_path.parent.name}: only {len(keys)} fields"
    assert (spec_path.parent / spec.entry.split("?")[0]).is_file()
    for f in spec.fields:
        if f.never_fill:
            assert is_empty(f.expect), f"{f.key}: never-fill field must expect empty"
        if spec.steps > 1:
            assert f.step is not None and f.step <= spec.steps, f"{f.key}: step missing or too big"
        if f.kind == "checkbox-group" and isinstance(f.expect, list):
            assert all(isinstance(e, list) for e in f.expect), f"{f.key}: list of lists"
    if spec.steps > 1:
        assert spec.wizard, "a multi-step form declares its Next buttons (wizard.next)"
    if spec.wizard:
        for action in spec.wizard.person:
            assert action.key is None or action.key in keys, f"person acts on {action.key}?"
    if spec.first_sight:
        seen = spec.first_sight
        assert seen.correct + seen.left <= seen.answerable, "first sight does not add up"


def test_forms_reach_field_total() -> None:
    total = sum(len(load_spec(p).fields) for p in SPECS)
    assert total >= MIN_FIELDS_TOTAL, f"only {total} fields across {len(SPECS)} forms"


def test_pages_use_only_local_vendor_files() -> None:
    pages = [p for p in ATS_DIR.glob("*/*.html") if not p.parent.name.startswith("_")]
    assert pages
    for html in pages:
        text = html.read_text(encoding="utf-8")
        remote = re.findall(r"""(?:src|href)\s*=\s*["'](?:https?:)?//[^"']+""", text)
        assert not remote, f"{html}: remote resources {remote}"
        for ref in re.findall(r"""["'](\.\./_(?:vendor|shared)/[^"'?#]+)""", text):
            assert (html.parent / ref).resolve().is_file(), f"{html}: missing {ref}"


def test_vendor_readme_lists_every_bundle() -> None:
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    bundles = [p for p in VENDOR.rglob("*.js")]
    assert bundles
    for bundle in bundles:
        rel = bundle.relative_to(VENDOR).as_posix()
        assert rel in readme or bundle.name in readme, f"{rel} not in _vendor/README.md"
    assert (VENDOR / "build.sh").is_file()
    for licence in (
        "react.LICENSES.txt",
        "mui.LICENSES.txt",
        "jquery.LICENSE.txt",
        "select2-4/LICENSE.md",
        "select2-3/LICENSE",
        "intl-tel-input/LICENSE",
    ):
        assert (VENDOR / licence).is_file(), licence


@pytest.mark.parametrize("spec_path", SPECS, ids=_ids())
def test_form_loads_reads_and_counts_submit(spec_path: Path, page: Page, server_port: int) -> None:
    slug = spec_path.parent.name
    spec = load_spec(spec_path)
    errors = open_form(page, server_port, slug, spec)

    expected_keys = {f.key for f in spec.fields}
    # React fixtures report their fields after the first render; give a slow machine time.
    deadline = time.monotonic() + 10
    initial = read_everything(page)
    while not expected_keys <= set(initial) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        initial = read_everything(page)
    missing, extra = expected_keys - set(initial), set(initial) - expected_keys
    assert not missing and not extra, f"missing {sorted(missing)}, extra {sorted(extra)}"
    for f in spec.fields:
        if f.never_fill:
            assert is_empty(initial[f.key]), f"{f.key} starts filled: {initial[f.key]!r}"

    # The submit control sits on the last step of a multi-step frame.
    clicked = False
    for frame in live_frames(page):
        steps = int(frame.evaluate(STEPS_JS))
        if steps > 1:
            show_step(frame, steps)
            frame.wait_for_timeout(30)
        for control in frame.locator(SUBMIT_SELECTOR).all():
            if not control.is_visible():
                continue
            before = int(frame.evaluate("() => window.__fixtureSubmits"))
            control.click()
            log = frame.evaluate("() => window.__fixtureSubmitLog")
            assert int(frame.evaluate("() => window.__fixtureSubmits")) > before
            assert any(str(entry).startswith("click:") for entry in log), log
            clicked = True
            break
        if clicked:
            break
    assert clicked, f"{slug}: no visible submit control"

    assert not errors, errors
    assert not frame_errors(page), frame_errors(page)


WIZARDS = [p for p in SPECS if load_spec(p).steps > 1]


@pytest.mark.parametrize("spec_path", WIZARDS, ids=[p.parent.name for p in WIZARDS])
def test_wizard_next_refuses_an_empty_step(spec_path: Path, page: Page, server_port: int) -> None:
    """The page's own Next, clicked as a person clicks it on an empty form, stays on the step and
    names the required fields it found empty (steps without required fields, such as a consent
    gate, are passed the way a person passes them)."""
    slug = spec_path.parent.name
    spec = load_spec(spec_path)
    raw = json.loads(spec_path.read_text(encoding="utf-8"))
    open_form(page, server_port, slug, spec)
    for _ in range(spec.steps + 1):
        step = current_step(page)
        assert step is not None, "a multi-step fixture reports its step()"
        act_as_person(page, [a for a in raw["wizard"].get("person", [])
                             if a["step"] == step and a.get("key") is None])
        _, pressed = press_next(page, next_declaration(raw, step))
        if not pressed["advanced"]:
            assert pressed["missing"], "a refused Next names the empty required fields"
            assert current_step(page) == step
            assert step < spec.steps
            return
    pytest.fail(f"{slug}: its Next never refused an empty step")
