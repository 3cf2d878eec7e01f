"""Fill speed: the bridge's planning time per form, and the whole Fill in Chromium per form.

Fills every ATS fixture end to end (capturing the snapshots the bridge received), after one
unscored warm-up Fill so no figure carries the bridge's or the extension's start-up. Prints, per
single-page fixture, the whole Fill as the toolbar runs it (the wait for the application to
arrive, the snapshot, the plan, the apply with every later round) and its parts; per wizard, the
whole Fill of each step; then the rules engine's planning time on each captured snapshot, timed
in process. Prints figures; asserts nothing.
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def parts(report: FillReport) -> dict[str, float]:
    """The whole Fill and its parts, in ms (the extension's own timings; snapshot without the
    wait, apply with the later rounds)."""
    t = report.timings_ms
    wait = t.get("extension_wait", 0.0)
    return {
        "wait": wait,
        "snapshot": t.get("extension_snapshot", 0.0) - wait,
        "plan": t.get("extension_plan", 0.0),
        "apply": t.get("extension_apply", 0.0),
        "fill": t.get("fill", 0.0),
    }


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
    print(f"whole Fill of each single-page fixture (ms; aim <= {AIM_FILL_MS})")
    print(f"{'form':<20}{'fields':>7}{'wait':>7}{'snapshot':>10}{'plan':>7}"
          f"{'apply+rounds':>14}{'rounds':>8}{'whole Fill':>12}")
    wholes: list[float] = []
    for run in runs:
        p = parts(run.reports[0])
        wholes.append(p["fill"])
        print(f"{run.slug:<20}{len(run.spec['fields']):>7}{p['wait']:>7.0f}{p['snapshot']:>10.0f}"
              f"{p['plan']:>7.0f}{p['apply']:>14.0f}{run.rounds[0]:>8}{p['fill']:>12.0f}")
    if wholes:
        within = sum(1 for w in wholes if w <= AIM_FILL_MS)
        print(f"single-page fixtures: whole Fill median {statistics.median(wholes):.0f} ms, "
              f"max {max(wholes):.0f} ms; {within} of {len(wholes)} within {AIM_FILL_MS} ms")


def print_wizards(runs: list[FormRun]) -> None:
    print("\nwhole Fill of each wizard step (ms; rounds in brackets)")
    for run in runs:
        steps = ", ".join(f"{ms:.0f} [{n}]" for ms, n in zip(run.fill_ms, run.rounds, strict=True))
        print(f"{run.slug:<20} reached {run.reached}/{run.steps}: {steps}")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        capture = Path(scratch) / "snapshots"
        os.environ[CAPTURE_ENV] = str(capture)
        runs = run_all(Path(scratch) / "home", set(sys.argv[1:]) or None, warm_up=True)
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
