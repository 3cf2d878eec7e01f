"""Score Relay's Fill on the real-world corpus (../shared/corpus/realworld, see its README.md).

Two label sources: DuckDuckGo pages carry `data-manual-scoring="<type>"` on each scored control;
Chromium heuristics pages come with an `output/*.out` file naming each field's type by name or id.
Expected values come from the profile, with the tolerance a person would accept (phone by digits,
state as code or name, country as code or name in several languages, and so on).

The runner (`score_pages`) is shared by bench/fill_realworld.py and tests/test_realworld_corpus.py.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

    from bridge.driver.report import FieldReport
    from bridge.driver.session import RelayBrowser
    from bridge.driver.static_server import StaticServer

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "realworld"
HELD_OUT = REPO / "bench" / "data" / "realworld_held_out.json"

# The groups the aim is about, in print order; "other", "blank" and "never" are extra.
AIM_GROUPS = (
    "name",
    "email",
    "phone",
    "address.lines",
    "address.city",
    "address.state",
    "address.postal",
    "address.country",
)
NEVER_GROUPS = ("never.card", "never.password", "never.birthday")

# Scored verdicts: what the aim counts.
SCORED = ("correct", "wrong", "left")


# --- the corpus ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One labelled field of a Chromium .out file: its type and the name/id it is found by."""

    type: str
    name: str
    label: str


@dataclass(frozen=True)
class CorpusPage:
    name: str  # short name for reports
    path: str  # relative to the corpus root, as in the manifest
    kind: str  # "ddg" (inline labels) or "chromium" (.out rows)
    rows: tuple[Row, ...] = ()
    labelled: int = 0  # how many labelled fields the corpus says the page has


class CorpusMissing(RuntimeError):
    pass


def corpus_pages(root: Path = CORPUS) -> list[CorpusPage]:
    """Every input page the manifest lists, with its labels' source."""
    manifest = root / "manifest.json"
    if not manifest.is_file():
        raise CorpusMissing(
            f"the real-world corpus is missing: expected {manifest} "
            "(../shared/corpus/realworld beside the repository)"
        )
    pages = []
    for entry in json.loads(manifest.read_text(encoding="utf-8")):
        role = str(entry.get("role", ""))
        rel = str(entry["local_path"])
        if not role.startswith("input"):
            continue
        stem = Path(rel).stem
        if rel.startswith("duckduckgo-autofill/"):
            pages.append(
                CorpusPage(stem, rel, "ddg", labelled=int(entry.get("scored_fields") or 0))
            )
        else:
            out = root / (rel.replace("/input/", "/output/").removesuffix(".html") + ".out")
            rows = parse_out(out.read_text(encoding="utf-8"))
            pages.append(CorpusPage(stem, rel, "chromium", rows=tuple(rows), labelled=len(rows)))
    return pages


class HeldOut(BaseModel):
    """Pages kept out of rules work: drawn at random once, scored apart, never looked at."""

    seed: int
    count: int
    pages: list[str]


def draw_held_out(names: Sequence[str], seed: int, count: int) -> list[str]:
    """The seeded draw behind bench/data/realworld_held_out.json (a test checks the file is it)."""
    return sorted(random.Random(seed).sample(sorted(names), count))


def held_out(path: Path = HELD_OUT) -> HeldOut:
    return HeldOut.model_validate_json(path.read_text(encoding="utf-8"))


def parse_out(text: str) -> list[Row]:
    rows = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) >= 3 and parts[0]:
            rows.append(Row(type=parts[0], name=parts[1], label=parts[2]))
    return rows


# --- what the profile answers -------------------------------------------------------------------


def norm(text: str) -> str:
    """Casefolded, accents and punctuation dropped, spaces collapsed: how values are compared."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[^\w\s#]", " ", text.casefold())
    return " ".join(text.split())


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


@dataclass(frozen=True)
class Facts:
    """The profile's answers, each as the set of normalised forms that count as right."""

    first: frozenset[str]
    middle: frozenset[str]
    last: frozenset[str]
    full: frozenset[str]
    email: frozenset[str]
    phone: frozenset[str]  # digit strings
    phone_country_code: frozenset[str]
    line1: frozenset[str]  # when the form also has a line-2 field
    line1_alone: frozenset[str]  # when it has none: line 1 may carry the whole street address
    line2: frozenset[str]
    city: frozenset[str]
    state: frozenset[str]
    postal: frozenset[str]
    country: frozenset[str]
    company: frozenset[str]
    username: frozenset[str]


def _forms(*values: str | None) -> frozenset[str]:
    return frozenset(norm(v) for v in values if v and norm(v))


def load_facts(profile_path: Path) -> Facts:
    from bridge.profile import load_profile

    profile = load_profile(profile_path).profile
    basics = profile.basics
    names = (basics.name or "").split()
    first, last = (names[0], names[-1]) if len(names) >= 2 else (basics.name or "", "")
    middle = " ".join(names[1:-1])
    loc = basics.location
    street = (loc.address if loc else None) or ""
    line1, _, line2 = (s.strip() for s in street.partition(","))
    country_code = (loc.countryCode if loc else None) or ""
    work = profile.work[0].name if profile.work else None
    return Facts(
        first=_forms(first, f"{first} {middle}" if middle else None),
        middle=_forms(middle, middle[:1]),
        last=_forms(last),
        full=_forms(
            basics.name,
            f"{first} {last}",
            f"{first} {middle[:1]} {last}" if middle else None,
        ),
        email=_forms(basics.email),
        phone=_phone_forms(basics.phone or "", country_code),
        phone_country_code=_phone_country_code(basics.phone or "", country_code),
        line1=_forms(line1),
        line1_alone=_forms(line1, street),
        line2=_forms(line2),
        city=_forms(loc.city if loc else None),
        state=_region_forms(country_code, (loc.region if loc else None) or ""),
        postal=_forms(loc.postalCode if loc else None),
        country=_country_forms(country_code),
        company=_forms(work),
        username=_forms(basics.email),  # "username OR email" fields: the email is a fine answer
    )


def _phone_forms(phone: str, region: str) -> frozenset[str]:
    import phonenumbers

    try:
        parsed = phonenumbers.parse(phone, region or None)
    except phonenumbers.NumberParseException:
        return frozenset({digits(phone)} - {""})
    national = str(parsed.national_number)
    return frozenset({national, f"{parsed.country_code}{national}", digits(phone)})


def _phone_country_code(phone: str, region: str) -> frozenset[str]:
    import phonenumbers

    try:
        return frozenset({str(phonenumbers.parse(phone, region or None).country_code)})
    except phonenumbers.NumberParseException:
        return frozenset()


def _region_forms(country: str, region: str) -> frozenset[str]:
    import pycountry

    # Kept apart from the engine's tables on purpose: the scorer must not share its mistakes.
    forms = {region}
    subs = pycountry.subdivisions.get(country_code=country)  # type: ignore[no-untyped-call]
    for sub in subs or []:
        if norm(sub.name) == norm(region) or sub.code.split("-")[-1] == region.upper():
            forms |= {sub.name, sub.code, sub.code.split("-")[-1]}
    return _forms(*forms)


def _country_forms(code: str) -> frozenset[str]:
    import pycountry
    from babel import Locale

    country = pycountry.countries.get(alpha_2=code.upper()) if code else None
    if country is None:
        return _forms(code)
    forms = {country.alpha_2, country.alpha_3, country.name}
    forms |= {getattr(country, a, "") for a in ("official_name", "common_name")}
    for lang in ("en", "de", "fr", "es", "pt", "nl", "it"):
        forms.add(Locale(lang).territories.get(country.alpha_2, ""))
    if country.alpha_2 == "US":  # the usual English short forms
        forms |= {"U.S.", "U.S.A.", "United States of America", "America"}
    return _forms(*forms)


# --- expected value per corpus type --------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    group: str  # an AIM_GROUPS entry, "other", "blank" or a NEVER_GROUPS entry
    accepted: frozenset[str] = frozenset()
    by_digits: bool = False
    optional: bool = False  # blank is as good as a right answer (company, username)


_DDG_NEVER = (
    ("card", "never.card"),
    ("expiration", "never.card"),
    ("password", "never.password"),
    ("birthday", "never.birthday"),
)


def expect_ddg(kind: str, facts: Facts, has_line2: bool) -> Expectation:
    """What a DuckDuckGo type asks of the profile; `has_line2`: the form has a line-2 field."""
    options = [k.strip() for k in kind.split(" OR ")]
    if len(options) > 1:  # "username OR emailAddress": either answer is right
        parts = [expect_ddg(k, facts, has_line2) for k in options]
        main = next((p for p in parts if p.group in AIM_GROUPS), parts[0])
        accepted = frozenset().union(*(p.accepted for p in parts))
        return Expectation(main.group, accepted, main.by_digits, main.optional)
    for prefix, group in _DDG_NEVER:
        if kind.startswith(prefix):
            return Expectation(group)
    table = {
        "firstName": Expectation("name", facts.first),
        "middleName": Expectation("name", facts.middle),
        "lastName": Expectation("name", facts.last),
        "fullName": Expectation("name", facts.full),
        "emailAddress": Expectation("email", facts.email),
        "username": Expectation("other", facts.username, optional=True),
        "phone": Expectation("phone", facts.phone, by_digits=True),
        "addressStreet": Expectation(
            "address.lines", facts.line1 if has_line2 else facts.line1_alone
        ),
        "addressStreet2": Expectation("address.lines", facts.line2)
        if facts.line2
        else Expectation("blank"),
        "addressCity": Expectation("address.city", facts.city),
        "addressProvince": Expectation("address.state", facts.state),
        "addressPostalCode": Expectation("address.postal", facts.postal),
        "addressCountryCode": Expectation("address.country", facts.country),
    }
    return table.get(kind, Expectation("blank"))


def expect_chromium(kind: str, facts: Facts, has_line2: bool) -> Expectation:
    """What a Chromium heuristics type asks of the profile."""
    if kind.startswith("CREDIT_CARD"):
        return Expectation("never.card")
    if kind.startswith("PHONE_HOME_"):
        part = kind.removeprefix("PHONE_HOME_")
        if part == "EXTENSION":
            return Expectation("blank")
        if part == "COUNTRY_CODE":
            return Expectation("phone", facts.phone_country_code, by_digits=True)
        return Expectation("phone", facts.phone, by_digits=True)
    line2 = Expectation("address.lines", facts.line2) if facts.line2 else Expectation("blank")
    table = {
        "NAME_FIRST": Expectation("name", facts.first),
        "NAME_MIDDLE": Expectation("name", facts.middle),
        "NAME_LAST": Expectation("name", facts.last),
        "NAME_LAST_FIRST": Expectation("name", facts.last),
        "NAME_LAST_SECOND": Expectation("blank"),  # the profile has one surname
        "NAME_FULL": Expectation("name", facts.full),
        "EMAIL_ADDRESS": Expectation("email", facts.email),
        "COMPANY_NAME": Expectation("other", facts.company, optional=True),
        "ADDRESS_HOME_LINE1": Expectation(
            "address.lines", facts.line1 if has_line2 else facts.line1_alone
        ),
        "ADDRESS_HOME_LINE2": line2,
        "ADDRESS_HOME_STREET_ADDRESS": Expectation("address.lines", facts.line1_alone),
        "ADDRESS_HOME_CITY": Expectation("address.city", facts.city),
        "ADDRESS_HOME_STATE": Expectation("address.state", facts.state),
        "ADDRESS_HOME_ZIP": Expectation("address.postal", facts.postal),
        "ADDRESS_HOME_COUNTRY": Expectation("address.country", facts.country),
    }
    return table.get(kind, Expectation("blank"))


# --- reading the page ---------------------------------------------------------------------------


class Control(BaseModel):
    """One labelled control as the page shows it (read before and after the Fill)."""

    model_config = ConfigDict(extra="ignore")

    found: bool
    kind: str = ""  # the corpus type
    tag: str = ""
    input_type: str = ""
    name: str = ""
    id: str = ""
    label: str = ""
    value: str = ""
    option_text: str = ""
    selected_index: int = -1
    checked: bool = False
    shown: bool = False  # visible, enabled, writable: something a person could fill
    form_has_line2: bool = False
    tail: str = ""  # the last segment of the extension's locator, to find its decision
    occurrence: int = 0  # how many controls before this one share its tail

    def texts(self) -> list[str]:
        return [t for t in (self.value, self.option_text) if t]

    def same_state(self, other: Control) -> bool:
        return (self.value, self.selected_index, self.checked) == (
            other.value,
            other.selected_index,
            other.checked,
        )


# Reads every labelled control: DuckDuckGo's by attribute, Chromium's rows by name then id.
READ_JS = r"""
(spec) => {
  const controls = "input, select, textarea";
  const shown = (el) => {
    if (!el.isConnected || el.disabled || el.readOnly) return false;
    // Out of reach for keyboard and screen reader alike: a honeypot whose CSS the capture lost.
    if (el.closest('[aria-hidden="true"]') && el.tabIndex < 0) return false;
    const css = { visibilityProperty: true, checkVisibilityCSS: true };
    if (typeof el.checkVisibility === "function" && !el.checkVisibility(css)) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const labelOf = (el) => {
    const text = (t) => (t || "").replace(/\s+/g, " ").trim();
    const fromLabel = el.labels && el.labels.length ? text(el.labels[0].innerText) : "";
    return (fromLabel || text(el.getAttribute("aria-label")) || text(el.getAttribute("placeholder"))
      || el.getAttribute("name") || el.id || "").slice(0, 60);
  };
  // The last segment of the extension's report locator (content/snapshot.js, locatorOf).
  const tailOf = (el) => {
    const tag = el.tagName.toLowerCase();
    if (el.id) return `${tag}#${CSS.escape(el.id)}`;
    const name = el.getAttribute("name");
    if (name) return `${tag}[name="${name}"]`;
    for (const attr of ["data-automation-id", "data-testid", "data-qa"]) {
      const v = el.getAttribute(attr);
      if (v) return `${tag}[${attr}="${v}"]`;
    }
    const same = el.parentElement
      ? [...el.parentElement.children].filter((c) => c.tagName === el.tagName) : [el];
    return same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(el) + 1})` : tag;
  };
  // Pages repeat ids and names: the n-th control with a tail matches the n-th decision with it.
  const seen = new Map();
  const occurrence = new Map();
  for (const el of document.querySelectorAll(controls)) {
    if (el.type === "hidden") continue;
    const tail = tailOf(el);
    const n = seen.get(tail) || 0;
    seen.set(tail, n + 1);
    occurrence.set(el, n);
  }
  const find = (name) => {
    for (const el of document.querySelectorAll(controls)) {
      if (el.getAttribute("name") === name && el.type !== "hidden") return el;
    }
    const byId = document.getElementById(name);
    return byId && byId.matches(controls) ? byId : null;
  };
  const pairs = spec.rows
    ? spec.rows.map((r) => [r.type, find(r.name)])
    : [...document.querySelectorAll("[data-manual-scoring]")].map(
        (el) => [el.getAttribute("data-manual-scoring"), el]);
  return pairs.map(([kind, el]) => {
    if (!el) return { found: false, kind };
    const form = el.form || el.closest("form");
    const line2 = spec.rows
      ? spec.rows.some((r) => r.type === "ADDRESS_HOME_LINE2")
      : !!(form || document).querySelector('[data-manual-scoring="addressStreet2"]');
    const sel = el.tagName === "SELECT" ? el : null;
    const opt = sel && sel.selectedIndex >= 0 ? sel.options[sel.selectedIndex] : null;
    return {
      found: true, kind, tag: el.tagName.toLowerCase(), input_type: el.type || "",
      name: el.getAttribute("name") || "", id: el.id || "", label: labelOf(el),
      value: String(el.value ?? ""), option_text: opt ? opt.text.trim() : "",
      selected_index: sel ? sel.selectedIndex : -1, checked: !!el.checked,
      shown: shown(el), form_has_line2: line2, tail: tailOf(el),
      occurrence: occurrence.get(el) ?? 0,
    };
  });
}
"""

STRIP_AUTOCOMPLETE_JS = """() => {
  const els = [...document.querySelectorAll("[autocomplete]")];
  els.forEach((el) => el.removeAttribute("autocomplete"));
  return els.length;
}"""

# Count submits in the page's own world: a submit event is what every way of submitting but
# form.submit() fires, and that one would navigate (counted by the navigation log).
SUBMIT_WATCH_JS = """
window.__fixtureSubmits = 0;
document.addEventListener("submit", (e) => {
  window.__fixtureSubmits += 1;
  e.preventDefault();
}, true);
"""


def read_controls(page: Page, spec: CorpusPage) -> list[Control]:
    rows = [r.__dict__ for r in spec.rows] if spec.kind == "chromium" else None
    arg: dict[str, Any] = {"rows": rows}
    return [Control.model_validate(c) for c in page.evaluate(READ_JS, arg)]


# --- verdicts -----------------------------------------------------------------------------------


@dataclass
class FieldScore:
    kind: str
    group: str
    label: str
    value: str
    verdict: str  # correct / wrong / left / hidden / kept_blank / filled / violation / untouched
    hidden: bool = False  # out of a person's reach (a changed hidden field is still scored)
    decision: str = ""  # the engine's key and reason, when the report has the field
    before: str = ""  # what the page showed before the Fill (a captured value, a placeholder)


@dataclass
class PageScore:
    page: str
    mode: str  # "as-is" or "no-autocomplete"
    fields: list[FieldScore] = field(default_factory=list)
    fill_ok: bool = False
    fill_error: str = ""
    submits: int = 0
    navigations: int = 0
    missing: int = 0  # labelled fields the reader could not find in the page
    fill_ms: float = 0.0


def verdict(before: Control, after: Control, exp: Expectation) -> str:
    changed = not before.same_state(after)
    if exp.group.startswith("never."):
        return "violation" if changed else "untouched"
    if not (before.shown or after.shown) and not changed:
        # Out of a person's reach and left alone: not scored. A hidden field the Fill did change
        # is scored like any other: sites hide autofill catchers that feed custom widgets.
        return "hidden"
    if exp.group == "blank":
        return "filled" if changed else "kept_blank"
    if matches(after, exp):
        return "correct"
    if not changed:
        return "kept_blank" if exp.optional else "left"
    return "wrong"


def matches(control: Control, exp: Expectation) -> bool:
    if control.input_type in ("checkbox", "radio"):
        return False
    for text in control.texts():
        if exp.by_digits and digits(text) in exp.accepted:
            return True
        if not exp.by_digits and norm(text) in exp.accepted:
            return True
    return False


def score_controls(
    spec: CorpusPage,
    before: list[Control],
    after: list[Control],
    facts: Facts,
    decisions: dict[tuple[str, int], str],
) -> tuple[list[FieldScore], int]:
    expect = expect_ddg if spec.kind == "ddg" else expect_chromium
    scores, missing = [], 0
    for b, a in zip(before, after, strict=True):
        if not b.found or not a.found:
            missing += 1
            continue
        exp = expect(b.kind, facts, b.form_has_line2)
        shown_value = a.option_text if a.tag == "select" else a.value
        scores.append(
            FieldScore(
                kind=b.kind,
                group=exp.group,
                label=b.label or b.name or b.id,
                value=shown_value,
                verdict=verdict(b, a, exp),
                hidden=not (b.shown or a.shown),
                decision=decisions.get((b.tail, b.occurrence), ""),
                before=b.option_text if b.tag == "select" else b.value,
            )
        )
    return scores, missing


def decisions_by_tail(fields: list[FieldReport]) -> dict[tuple[str, int], str]:
    """The engine's key and reason per field, keyed by the locator's last segment and how many
    fields before it share that segment (the snapshot walks the page in document order)."""
    out: dict[tuple[str, int], str] = {}
    seen: dict[str, int] = {}
    for f in fields:
        if f.frame != "0":
            continue
        tail = f.locator.split(" ")[-1]
        n = seen.get(tail, 0)
        seen[tail] = n + 1
        out[(tail, n)] = f"{f.key or '-'} ({f.reason.split(';')[0]})"
    return out


# --- running a page in Chromium -----------------------------------------------------------------


class NavigationLog:
    """Loopback only, and every top-frame navigation request counted per page."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def route(self, route: Route) -> None:
        request = route.request
        url = request.url
        if request.is_navigation_request() and request.frame.parent_frame is None:
            key = id(request.frame.page)
            self.counts[key] = self.counts.get(key, 0) + 1
        if url.startswith(("http://", "https://", "ws://", "wss://")) and not url.startswith(
            ("http://127.0.0.1", "http://localhost")
        ):
            route.abort()  # captured pages reference their sites' assets: no network here
            return
        route.continue_()

    def count(self, page: Page) -> int:
        return self.counts.get(id(page), 0)


def prepare(browser: RelayBrowser) -> NavigationLog:
    """Block the network but loopback, watch submits and navigations in every page."""
    log = NavigationLog()
    browser.context.route("**/*", log.route)
    browser.context.add_init_script(SUBMIT_WATCH_JS)
    return log


# Pages opened before their turn: a person opens a page some time before pressing Fill, and the
# Fill waits (within a bound) for an application that may still arrive on a page just loaded.
# Opening a few pages ahead spends that wait while earlier pages are filled.
OPEN_AHEAD = 3


def score_pages(
    browser: RelayBrowser,
    log: NavigationLog,
    server: StaticServer,
    jobs: Sequence[tuple[CorpusPage, bool]],
    facts: Facts,
) -> Iterator[PageScore]:
    """Score each (page, strip autocomplete) in order, each in its own tab, OPEN_AHEAD ahead."""
    opened: deque[Page] = deque()
    try:
        for i, (spec, strip) in enumerate(jobs):
            while len(opened) <= OPEN_AHEAD and i + len(opened) < len(jobs):
                opened.append(browser.open(server.url(jobs[i + len(opened)][0].path)))
            page = opened.popleft()
            try:
                yield score_page(browser, log, page, spec, facts, strip_autocomplete=strip)
            finally:
                page.close()
    finally:
        for page in opened:
            page.close()


def score_page(
    browser: RelayBrowser,
    log: NavigationLog,
    page: Page,
    spec: CorpusPage,
    facts: Facts,
    *,
    strip_autocomplete: bool,
) -> PageScore:
    """Fill one open page and score its controls against the page's labels."""
    page.bring_to_front()
    if strip_autocomplete:
        page.evaluate(STRIP_AUTOCOMPLETE_JS)
    before = read_controls(page, spec)
    loads = log.count(page)
    outcome = browser.fill(page)
    after = read_controls(page, spec)
    report = outcome.report
    result = PageScore(
        page=spec.name,
        mode="no-autocomplete" if strip_autocomplete else "as-is",
        fill_ok=report.ok,
        fill_error=str((report.error or {}).get("message", "")),
        submits=report.page_submits or 0,
        navigations=max(report.navigations, log.count(page) - loads),
        fill_ms=report.timings_ms.get("fill", 0.0),
    )
    result.fields, result.missing = score_controls(
        spec, before, after, facts, decisions_by_tail(report.fields)
    )
    if spec.kind == "ddg":  # labelled in the markup, yet not in the page the browser built
        result.missing = max(result.missing, spec.labelled - len(result.fields))
    return result


# --- tallies ------------------------------------------------------------------------------------


def tally(scores: list[PageScore]) -> dict[str, dict[str, int]]:
    """Verdict counts per group over the given pages."""
    out: dict[str, dict[str, int]] = {}
    for page in scores:
        for f in page.fields:
            group = out.setdefault(f.group, {})
            group[f.verdict] = group.get(f.verdict, 0) + 1
    return out


def aim_figures(scores: list[PageScore]) -> tuple[int, int]:
    """(correct, scored) over the aim groups: name, email, phone and address fields shown."""
    t = tally(scores)
    correct = sum(t.get(g, {}).get("correct", 0) for g in AIM_GROUPS)
    scored = sum(t.get(g, {}).get(v, 0) for g in AIM_GROUPS for v in SCORED)
    return correct, scored


def violations(scores: list[PageScore]) -> list[tuple[str, FieldScore]]:
    return [(p.page, f) for p in scores for f in p.fields if f.verdict == "violation"]
