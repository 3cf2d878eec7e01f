"""Fill speed: the bridge's planning time per form, and the whole Fill in Chromium per form.

Fills every ATS fixture end to end (capturing the snapshots the bridge received), then times the
rules engine on each captured snapshot in process. Prints figures; asserts nothing.
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

from bridge.forms import FillRequest
from bridge.profile import load_profile
from bridge.rules.engine import decide
from bridge.runtime import CAPTURE_ENV
from tests.ats_runner import SAMPLE_PROFILE, run_all

PLAN_REPEATS = 50


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    profile = load_profile(SAMPLE_PROFILE)
    with tempfile.TemporaryDirectory() as scratch:
        capture = Path(scratch) / "snapshots"
        os.environ[CAPTURE_ENV] = str(capture)
        runs = run_all(Path(scratch) / "home", set(sys.argv[1:]) or None)
        print(f"{'form':<20}{'fields':>7}{'plan median ms':>16}{'plan p95 ms':>13}"
              f"{'Fill in Chromium ms (per step)':>34}")
        all_plans: list[float] = []
        for run in runs:
            plan_times: list[float] = []
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
                    plan_times.append((time.perf_counter() - started) * 1000)
            all_plans.extend(plan_times)
            fills = ", ".join(f"{ms:.0f}" for ms in run.fill_ms)
            if plan_times:
                print(f"{run.slug:<20}{fields:>7}{statistics.median(plan_times):>16.2f}"
                      f"{percentile(plan_times, 0.95):>13.2f}   {fills}")
        if all_plans:
            print(f"\nplanning, all forms: median {statistics.median(all_plans):.2f} ms, "
                  f"p95 {percentile(all_plans, 0.95):.2f} ms")
        single = [r for r in runs if r.steps == 1]
        if single:
            largest = max(single, key=lambda r: len(r.spec["fields"]))
            size = len(largest.spec["fields"])
            print(f"largest single-page form ({largest.slug}, {size} fields):"
                  f" Fill in Chromium {largest.fill_ms[0]:.0f} ms")


if __name__ == "__main__":
    main()
