"""Fill quality on the ATS fixture forms, end to end in Chromium with rules only.

Prints per form and in total: fillable fields, correct, wrong, left, never-fill violations, and
wrong answers on work authorization, sponsorship and EEO; then the real-world corpus, as the pages
are and with autocomplete removed (bench/fill_realworld.py; skip it with --ats-only).
Asserts nothing. Run: .venv/bin/python bench/fill_quality.py [--verbose] [--ats-only] [slug ...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ats_runner import FormRun, run_all
from tests.fixture_scoring import answerable

SENSITIVE = {"work_auth", "sponsorship", "eeo"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument("--ats-only", action="store_true", help="skip the real-world corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        runs = run_all(Path(home), set(args.slugs) or None)
    header = f"{'form':<20}{'fields':>7}{'answerable':>11}{'correct':>8}{'wrong':>6}{'left':>6}" \
             f"{'never-fill viol.':>17}{'sensitive wrong':>16}{'submits':>8}"
    print(header)
    totals: dict[str, int] = {}
    for run in runs:
        row = summarise(run)
        for key, value in row.items():
            totals[key] = totals.get(key, 0) + value
        print(line(run.slug, row))
    print("-" * len(header))
    print(line("TOTAL", totals))
    answerable = totals.get("answerable", 0)
    if answerable:
        print(f"\ncorrect of answerable: {100 * totals['correct_answerable'] / answerable:.1f}%  "
              f"wrong fills of all fields: {100 * totals['wrong'] / max(totals['fields'], 1):.2f}%")
    if not args.ats_only and not args.slugs:
        print("\n== real-world corpus (bench/fill_realworld.py)", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).with_name("fill_realworld.py"))],
                       check=False)
    if args.verbose:
        for run in runs:
            for f in run.score.fields:
                if f.verdict in ("wrong", "left", "violation"):
                    print(f"  {run.slug:<18} {f.verdict:<9} {f.key:<28} expect={f.expect!r} "
                          f"got={f.got!r}")


def summarise(run: FormRun) -> dict[str, int]:
    tally = run.score.tally()
    correct_answerable = sum(
        1 for f in run.score.fields if f.verdict == "correct" and answerable(f)
    )
    sensitive_wrong = sum(
        1 for f in run.score.fields if f.category in SENSITIVE and f.verdict == "wrong"
    )
    return {
        "fields": tally["fields"],
        "answerable": tally["answerable"],
        "correct_answerable": correct_answerable,
        "wrong": tally.get("wrong", 0),
        "left": tally.get("left", 0),
        "violation": tally.get("violation", 0),
        "sensitive_wrong": sensitive_wrong,
        "submits": run.submits + run.navigations,
    }


def line(name: str, row: dict[str, int]) -> str:
    return (f"{name:<20}{row['fields']:>7}{row['answerable']:>11}{row['correct_answerable']:>8}"
            f"{row['wrong']:>6}{row['left']:>6}{row['violation']:>17}{row['sensitive_wrong']:>16}"
            f"{row['submits']:>8}")


if __name__ == "__main__":
    main()
