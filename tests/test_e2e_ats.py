"""End to end on every ATS fixture: real Chromium, real extension, real bridge, rules only.

Wizards are walked by real clicks on their own Next buttons (tests/ats_runner.py). Accuracy aims
are benchmark figures (bench/fill_quality.py); these tests hold what must never slip: no submit,
no never-fill field touched, no wrong answer on work authorization, sponsorship or EEO beyond the
misses the current code is known to make, no wizard stopping earlier than it does today, and a
floor under today's share of right answers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ats_runner import FormRun, run_all
from tests.fixture_scoring import answerable, fixture_specs

# One Chromium fills every fixture (wizards step by step) in the module fixture: a minute or two
# here, more on a busy machine, beyond the suite's per-test default.
pytestmark = [pytest.mark.timeout(900), pytest.mark.long]

SLUGS = [folder.name for folder, _ in fixture_specs()]
SENSITIVE = {"work_auth", "sponsorship", "eeo"}
# A regression floor under today's share of right answers over all fixtures (78% when the twelve
# fixtures of issue 9 were added, 97.5% once their misses' classes were fixed: see the bench),
# with room for a slow typeahead on a loaded machine: a drop below it means a part of the path
# broke.
MIN_CORRECT_SHARE = 0.95
# What the current code is known to get wrong (measured on the commit named in the new fixtures'
# first_sight). These are fixes still to make, not allowances: anything new fails the test.
KNOWN_VIOLATIONS: set[tuple[str, str]] = set()
KNOWN_SENSITIVE_WRONG: set[tuple[str, str]] = set()
# How far each wizard gets today by real clicks on its own Next button; it must not get less far.
MIN_STEP_REACHED = {
    # taleo: its Source list shows only after a source type is picked; the Fill's later round
    # plans it once shown (issue 9.1). oracle-cx: its State list, enabled once Country is chosen,
    # is planned by a later round (a control enabled since the snapshot is a change), and its
    # "years of experience in backend software development" is answered from the job titles.
    # workday-wizard: each work block's "I currently work here" is its own box (they share a
    # name), and a yes/no question in a text box may follow a preamble sentence.
    "jobvite": 2, "smartrecruiters": 2, "taleo": 4, "workday": 7,
    "oracle-cx": 5, "smartrecruiters-ca": 2, "successfactors-de": 2, "workday-wizard": 7,
    "phenom-fr": 5, "google-forms": 2, "avature-wizard": 6,
}


# The adapters' names for the ATS each fixture replicates (Taleo is Oracle's); forms of vendors
# without an adapter are recorded with no ATS.
ADAPTER_OF = {
    "taleo": "oracle", "personio": "", "welcome-to-the-jungle": "",
    "jazzhr": "", "successfactors": "", "breezy": "", "dover": "", "eightfold": "", "phenom": "",
    "pinpoint": "", "rippling": "", "shadcn": "", "gravityforms": "", "google-forms": "",
    "antd": "", "jotform": "", "wpforms": "", "avature": "", "msforms": "", "hubspot": "",
    "mui": "",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("relay-home-ats")


@pytest.fixture(scope="module")
def runs(home: Path, chromium: str) -> dict[str, FormRun]:
    return {run.slug: run for run in run_all(home)}


def test_every_fill_is_a_stored_run_with_its_ats(runs: dict[str, FormRun], home: Path) -> None:
    from bridge.store import Store

    with Store.open(home) as store:
        stored = {r["run_id"]: r for r in store.history()}
    for run in runs.values():
        expected_ats = ADAPTER_OF.get(run.spec["ats"], run.spec["ats"])
        for report in run.reports:
            if not report.ok:
                continue
            record = stored[report.run_id]
            assert record["status"] == "applied", (run.slug, record["status"])
            assert record["ats"] == expected_ats, (run.slug, record["ats"])
            assert len(record["decisions"]) == len(report.fields)


def test_there_are_enough_fixture_forms() -> None:
    specs = fixture_specs()
    assert len(specs) >= 27
    assert sum(len(spec["fields"]) for _, spec in specs) >= 800


@pytest.mark.parametrize("slug", SLUGS)
def test_form_fills_without_submit_or_forbidden_fields(runs: dict[str, FormRun], slug: str) -> None:
    run = runs[slug]
    steps_with_fields = {int(f.get("step", 1)) for f in run.spec["fields"]}
    for step, report in zip(run.report_steps, run.reports, strict=True):
        no_fields = (report.error or {}).get("code") == "E_NO_FIELDS"
        assert report.ok or (no_fields and step not in steps_with_fields), (step, report.error)
    assert run.submits == 0 and run.navigations == 0
    # No fixture submits from its handlers: anything the submit guard stopped is a regression.
    assert [b.detail for r in run.reports for b in r.blocked] == []
    violations = {(slug, f.key) for f in run.score.fields if f.verdict == "violation"}
    assert violations <= KNOWN_VIOLATIONS, f"never-fill fields touched: {violations}"
    sensitive = {
        (slug, f.key)
        for f in run.score.fields
        if f.category in SENSITIVE and f.verdict == "wrong"
    }
    assert sensitive <= KNOWN_SENSITIVE_WRONG, (
        f"wrong work-authorization / sponsorship / EEO answers: {sensitive}"
    )
    filled = sum(1 for f in run.score.fields if f.verdict == "correct")
    assert filled > 0, "nothing was filled"


@pytest.mark.parametrize("slug", [s for s in SLUGS if s in MIN_STEP_REACHED])
def test_wizard_gets_at_least_as_far_as_today(runs: dict[str, FormRun], slug: str) -> None:
    run = runs[slug]
    assert run.reached >= MIN_STEP_REACHED[slug], (
        f"stopped on step {run.reached}; the page's Next found empty: {run.stalled_on}"
    )


def test_every_wizard_has_a_floor() -> None:
    wizards = {folder.name for folder, spec in fixture_specs() if int(spec.get("steps", 1)) > 1}
    assert wizards == set(MIN_STEP_REACHED)


def test_overall_correct_share_stays_above_the_floor(runs: dict[str, FormRun]) -> None:
    asked = correct = 0
    for run in runs.values():
        for f in run.score.fields:
            if not answerable(f):
                continue
            asked += 1
            correct += f.verdict == "correct"
    assert correct / asked >= MIN_CORRECT_SHARE, f"{correct}/{asked} correct"
