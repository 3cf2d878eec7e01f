"""Fill speed: the bridge's planning time per form, and the whole Fill in Chromium per form.

Fills every ATS fixture end to end (capturing the snapshots the bridge received), after one
unscored warm-up Fill so no figure carries the bridge's or the extension's start-up. The first
Fill on each page is pressed a second after its load event, as a person presses it (a form still
arriving then is waited for, and that wait is part of the Fill); a wizard's later steps are filled
right after the page's own Next shows them. Prints, per single-page fixture, the whole
Fill as the toolbar runs it (the wait for the application to arrive, the snapshot, the plan, the
apply with every later round, the report to the bridge and the review) and its parts; per wizard,
the whole Fill of each step; then the rules engine's planning time on each captured snapshot,
timed in process. Prints figures; asserts nothing.
Run: .venv/bin/python bench/fill_speed.py [slug ...]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.driver.report import FillReport
from bridge.forms import FillRequest
from bridge.profile import load_profile
from bridge.rules.engine import decide
from bridge.runtime import CAPTURE_ENV
from tests.ats_runner import SAMPLE_PROFILE, FormRun, run_all

PLAN_REPEATS = 50
AIM_FILL_MS = 400  # issue 9: the whole Fill of a single-page fixture
PRESS_AFTER_MS = 1_000  # a person sees the page before pressing Fill


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


# The parts of one Fill (the extension's own timings, background/fill.js): column, key, width.
COLUMNS = [
    ("wait", "wait", 6), ("snapshot", "snapshot", 9), ("plan", "plan", 6),
    ("apply", "first_apply", 7), ("room", "room", 6), ("rounds", "rounds", 8),
    ("changes", "changes", 9), ("guard", "guard", 7), ("report", "report", 8),
    ("panel", "panel", 7),
]


def parts(report: FillReport) -> dict[str, float]:
    """The whole Fill and its parts, in ms: the snapshot without the wait; rounds: the later
    rounds, with the frames' answers whether their form changed (changes); guard: arming and
    releasing the submit guard; report: fill.applied; panel: showing the review."""
    t = {k.removeprefix("extension_"): v for k, v in report.timings_ms.items()}
    wait = t.get("wait", 0.0)
    out = {key: t.get(key, 0.0) for _, key, _ in COLUMNS}
    out["snapshot"] = t.get("snapshot", 0.0) - wait
    out["fill"] = report.timings_ms.get("fill", 0.0)
    return out


def plan_times(run: FormRun, capture: Path) -> tuple[int, list[float]]:
    """Fields planned and the rules engine's time per plan, over the run's captured snapshots."""
    profile = load_profile(SAMPLE_PROFILE)
    times: list[float] = []
    fields = 0
    for report in run.reports:
        path = capture / f"{report.run_id}.json"
        if not report.run_id or not path.is_file():
            continue
        request = FillRequest.model_validate(json.loads(path.read_text()))
        fields += len(request.all_fields())
        decide(request, profile)  # first call loads the rules data
        for _ in range(PLAN_REPEATS):
            started = time.perf_counter()
            decide(request, profile)
            times.append((time.perf_counter() - started) * 1000)
    return fields, times


def print_single(runs: list[FormRun]) -> None:
    print(f"whole Fill of each single-page fixture (ms; aim <= {AIM_FILL_MS}; Fill pressed "
          f"{PRESS_AFTER_MS} ms after load)")
    print(f"{'form':<20}{'fields':>7}" + "".join(f"{name:>{width}}" for name, _, width in COLUMNS)
          + f"{'n':>3}{'whole Fill':>12}")
    wholes: list[float] = []
    for run in runs:
        p = parts(run.reports[0])
        wholes.append(p["fill"])
        print(f"{run.slug:<20}{len(run.spec['fields']):>7}"
              + "".join(f"{p[key]:>{width}.0f}" for _, key, width in COLUMNS)
              + f"{run.rounds[0]:>3}{p['fill']:>12.0f}")
    if wholes:
        within = sum(1 for w in wholes if w <= AIM_FILL_MS)
        print(f"single-page fixtures: whole Fill median {statistics.median(wholes):.0f} ms, "
              f"max {max(wholes):.0f} ms; {within} of {len(wholes)} within {AIM_FILL_MS} ms")
        # A form the page builds after the press (an embed, a swapped frame) is waited for.
        arrived = sum(1 for w, run in zip(wholes, runs, strict=True)
                      if w - parts(run.reports[0])["wait"] <= AIM_FILL_MS)
        print(f"  without the arrival wait (the first look, and waiting for a form still "
              f"arriving): {arrived} of {len(wholes)} within {AIM_FILL_MS} ms")


def print_wizards(runs: list[FormRun]) -> None:
    print("\nwhole Fill of each wizard step (ms; rounds in brackets)")
    for run in runs:
        steps = ", ".join(f"{ms:.0f} [{n}]" for ms, n in zip(run.fill_ms, run.rounds, strict=True))
        print(f"{run.slug:<20} reached {run.reached}/{run.steps}: {steps}")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        capture = Path(scratch) / "snapshots"
        os.environ[CAPTURE_ENV] = str(capture)
        runs = run_all(Path(scratch) / "home", set(sys.argv[1:]) or None, warm_up=True,
                       press_after_ms=PRESS_AFTER_MS)
        single = [r for r in runs if r.steps == 1 and r.reports]
        print_single(single)
        print_wizards([r for r in runs if r.steps > 1])
        print(f"\n{'form':<20}{'fields':>7}{'plan median ms':>16}{'plan p95 ms':>13}")
        all_plans: list[float] = []
        for run in runs:
            fields, times = plan_times(run, capture)
            all_plans.extend(times)
            if times:
                print(f"{run.slug:<20}{fields:>7}{statistics.median(times):>16.2f}"
                      f"{percentile(times, 0.95):>13.2f}")
        if all_plans:
            print(f"\nplanning, all forms: median {statistics.median(all_plans):.2f} ms, "
                  f"p95 {percentile(all_plans, 0.95):.2f} ms")


if __name__ == "__main__":
    main()
