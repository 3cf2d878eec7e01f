"""Relay's Fill on every page of the real-world corpus, in Chromium, with autocomplete removed.

Asserts the hard guarantees: no payment-card, password or birth-date field is touched, nothing
is submitted and the page never navigates, and every page was filled and scored; and regression
floors: the share of right answers and the number of wrong fills must not get worse than what
was reached (bench/fill_realworld.py prints the figures). The scorer's tolerance is tested last,
without a browser.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bridge.driver.session import RelayBrowser, relay_browser
from bridge.driver.static_server import StaticServer
from tests.conftest import SAMPLE_PROFILE
from tests.realworld_scoring import (
    CORPUS,
    Control,
    CorpusMissing,
    CorpusPage,
    Facts,
    PageScore,
    aim_figures,
    corpus_pages,
    draw_held_out,
    expect_chromium,
    expect_ddg,
    held_out,
    load_facts,
    prepare,
    score_pages,
    verdict,
)

# One Chromium fills all 163 pages in the module fixture (about five minutes here, more on a busy
# machine): beyond the suite's per-test default.
pytestmark = [pytest.mark.timeout(900), pytest.mark.long]

# Labelled controls the HTML parser drops: opticsplanet's expiry-month <select> is never closed,
# so the expiry-year <select> after it is swallowed (a browser does the same).
PARSER_LOSSES = {"opticsplanet_checkout": 1}


def _pages() -> list[CorpusPage]:
    try:
        return corpus_pages(CORPUS)
    except CorpusMissing:
        return []


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[list[PageScore]]:
    """One browser, every page once: the no-autocomplete pass, where the rules alone decide."""
    try:
        pages = corpus_pages(CORPUS)
    except CorpusMissing as exc:
        pytest.fail(str(exc))
    facts = load_facts(SAMPLE_PROFILE)
    home = tmp_path_factory.mktemp("relay-home-realworld")  # module scope: no autouse home yet
    browser: RelayBrowser
    with StaticServer(CORPUS) as server, relay_browser(SAMPLE_PROFILE, home=home) as browser:
        log = prepare(browser)
        yield list(score_pages(browser, log, server, [(p, True) for p in pages], facts))


def test_corpus_is_present() -> None:
    assert (CORPUS / "manifest.json").is_file(), (
        f"the real-world corpus is missing at {CORPUS}: it must sit beside the repository as "
        "../shared/corpus/realworld"
    )
    assert _pages(), "the corpus manifest lists no input pages"


@pytest.mark.e2e
def test_every_page_filled_and_scored(scores: list[PageScore]) -> None:
    pages = corpus_pages(CORPUS)
    assert [s.page for s in scores] == [p.name for p in pages]
    failed = {s.page: s.fill_error for s in scores if not s.fill_ok}
    assert not failed, f"the Fill failed on: {failed}"
    for spec, score in zip(pages, scores, strict=True):
        lost = PARSER_LOSSES.get(spec.name, 0)
        assert score.missing == lost, f"{spec.name}: {score.missing} labelled fields not found"
        assert len(score.fields) == spec.labelled - lost, f"{spec.name}: not every field scored"


@pytest.mark.e2e
def test_no_card_password_or_birth_date_field_touched(scores: list[PageScore]) -> None:
    touched = [
        f"{s.page}: {f.kind} {f.label!r} -> {f.value!r} ({f.decision})"
        for s in scores
        for f in s.fields
        if f.verdict == "violation"
    ]
    assert not touched, "never-fill fields were filled:\n" + "\n".join(touched)


@pytest.mark.e2e
def test_nothing_submitted_and_no_navigation(scores: list[PageScore]) -> None:
    submitted = {s.page: s.submits for s in scores if s.submits}
    navigated = {s.page: s.navigations for s in scores if s.navigations}
    assert not submitted, f"forms submitted: {submitted}"
    assert not navigated, f"pages navigated during the Fill: {navigated}"


# Reached on the no-autocomplete pass (issue 9: 92.8%, 7 wrong); raise them as the rules get
# better. Three of the wrong fills left are corpus labels that disagree with the page (an
# "Address" and a "Phone" box labelled as user names, a "College" box as a phone), counted as the
# scorer counts them; four are on the held-out pages (bench/data/realworld_held_out.json).
RIGHT_FLOOR = 0.925
WRONG_CAP = 7


@pytest.mark.e2e
def test_accuracy_does_not_fall_below_what_was_reached(scores: list[PageScore]) -> None:
    correct, scored = aim_figures(scores)
    wrong = [
        f"{s.page}: {f.label!r} -> {f.value!r} ({f.decision})"
        for s in scores
        for f in s.fields
        if f.verdict in ("wrong", "filled")
    ]
    assert correct / scored >= RIGHT_FLOOR, f"{correct}/{scored} right, floor {RIGHT_FLOOR:.1%}"
    assert len(wrong) <= WRONG_CAP, "more wrong fills than before:\n" + "\n".join(wrong)


# --- the scorer itself, without a browser ---------------------------------------------------------


def _control(value: str = "", *, shown: bool = True, **kw: object) -> Control:
    return Control.model_validate({"found": True, "value": value, "shown": shown, **kw})


@pytest.fixture(scope="module")
def facts() -> Facts:
    return load_facts(SAMPLE_PROFILE)


@pytest.mark.parametrize(
    ("kind", "value", "line2", "verdict_"),
    [
        ("phone", "(415) 555-0142", False, "correct"),
        ("phone", "+1 415 555 0142", False, "correct"),
        ("phone", "555-0142", False, "wrong"),
        ("addressProvince", "CA", False, "correct"),
        ("addressProvince", "california", False, "correct"),
        ("addressCountryCode", "USA", False, "correct"),
        ("addressCountryCode", "United States of America", False, "correct"),
        ("fullName", "Ada Lovelace", False, "correct"),
        ("fullName", "Ada Quinn Lovelace", False, "correct"),
        ("firstName", "Ada Quinn Lovelace", False, "wrong"),
        ("addressStreet", "2710 Mission St, Apt 4", False, "correct"),
        ("addressStreet", "2710 Mission St, Apt 4", True, "wrong"),
        ("addressStreet", "2710 Mission St", True, "correct"),
        ("addressStreet2", "Apt 4", True, "correct"),
        ("addressPostalCode", "", False, "left"),
        ("unknown", "Analytical Engines Inc", False, "filled"),
        ("cardName", "Ada Lovelace", False, "violation"),
        ("password", "", False, "untouched"),
    ],
)
def test_scorer_tolerance(facts: Facts, kind: str, value: str, line2: bool, verdict_: str) -> None:
    exp = expect_ddg(kind, facts, line2)
    assert verdict(_control(), _control(value), exp) == verdict_


def test_scorer_reads_chromium_types(facts: Facts) -> None:
    assert (
        verdict(
            _control(),
            _control("Vereinigte Staaten"),
            expect_chromium("ADDRESS_HOME_COUNTRY", facts, False),
        )
        == "correct"
    )
    assert expect_chromium("CREDIT_CARD_NUMBER", facts, False).group == "never.card"
    assert (
        verdict(_control(), _control("Lovelace"), expect_chromium("NAME_LAST_SECOND", facts, False))
        == "filled"
    )


def test_scorer_skips_hidden_fields_but_not_never_fill_ones(facts: Facts) -> None:
    hidden, filled = _control(shown=False), _control("x", shown=False)
    assert verdict(hidden, hidden, expect_ddg("firstName", facts, False)) == "hidden"
    assert verdict(hidden, filled, expect_ddg("firstName", facts, False)) == "wrong"
    assert verdict(hidden, filled, expect_ddg("cardNumber", facts, False)) == "violation"


def test_select_scored_by_value_or_text(facts: Facts) -> None:
    before = _control("", tag="select", selected_index=0, option_text="State")
    after = _control("string:CA", tag="select", selected_index=5, option_text="California")
    assert verdict(before, after, expect_ddg("addressProvince", facts, False)) == "correct"
    assert verdict(before, before, expect_ddg("addressProvince", facts, False)) == "left"


def test_held_out_pages_are_the_seeded_draw() -> None:
    """The held-out list is the seeded draw over the corpus, not a hand-picked one."""
    kept = held_out()
    names = [p.name for p in _pages()]
    assert len(set(names)) == len(names), "page names must be unique to hold pages out by name"
    assert kept.pages == draw_held_out(names, kept.seed, kept.count)
