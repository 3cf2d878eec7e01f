"""Fill quality on the ATS fixture forms, end to end in Chromium with rules only.

Prints per form and in total: fields, answerable, correct, wrong, left, never-fill violations,
wrong answers on work authorization, sponsorship and EEO, submits, the wizard step reached by
real clicks on the page's own Next button, and the form's first-sight score (measured when the
fixture was added, before anything was changed for it; "—" where none was measured) beside the
current one. Then the real-world corpus, as the pages are and with autocomplete removed
(bench/fill_realworld.py; skip it with --ats-only). Asserts nothing.

Run: .venv/bin/python bench/fill_quality.py [--verbose] [--ats-only] [slug ...]
     .venv/bin/python bench/fill_quality.py --record-first-sight slug ...   (new fixtures only)
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ats_runner import FormRun, run_all
from tests.fixture_scoring import ATS_DIR, answerable

SENSITIVE = {"work_auth", "sponsorship", "eeo"}
REPO = Path(__file__).resolve().parents[1]
AIMS = (
    "aims: >=97% correct of answerable; >=95% at first sight; 0 wrong on authorization, "
    "sponsorship and EEO; wrong fills <=0.3% of all fields; 0 never-fill violations; "
    "0 submits; every wizard reaches its last step by real clicks on its own Next button"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument("--ats-only", action="store_true", help="skip the real-world corpus")
    parser.add_argument("--record-first-sight", action="store_true",
                        help="write the score into expected.json of fixtures that have none")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        runs = run_all(Path(home), set(args.slugs) or None)
    print_table(runs)
    if args.verbose:
        print_misses(runs)
    if args.record_first_sight:
        record_first_sight(runs)
    if not args.ats_only and not args.slugs:
        print("\n== real-world corpus (bench/fill_realworld.py)", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).with_name("fill_realworld.py"))],
                       check=False)


def summarise(run: FormRun) -> dict[str, int]:
    tally = run.score.tally()
    return {
        "fields": tally["fields"],
        "answerable": tally["answerable"],
        "correct": sum(1 for f in run.score.fields if f.verdict == "correct" and answerable(f)),
        "wrong": tally.get("wrong", 0),
        "left": tally.get("left", 0),
        "violations": tally.get("violation", 0),
        "sensitive_wrong": sum(
            1 for f in run.score.fields if f.category in SENSITIVE and f.verdict == "wrong"
        ),
        "submits": run.submits + run.navigations,
    }


def share(correct: int, asked: int) -> str:
    return f"{correct}/{asked} {100 * correct / asked:5.1f}%" if asked else "—"


def print_table(runs: list[FormRun]) -> None:
    header = (f"{'form':<22}{'fields':>7}{'answ.':>6}{'right':>6}{'wrong':>6}{'left':>5}"
              f"{'nf-viol':>8}{'sens-wr':>8}{'subm':>5}{'step':>6}  {'first sight':>15}  "
              f"{'current':>15}")
    print(header)
    totals: dict[str, int] = {}
    seen_total = {"answerable": 0, "correct": 0, "now_answerable": 0, "now_correct": 0}
    wizards = stalled = 0
    for run in runs:
        row = summarise(run)
        for key, value in row.items():
            totals[key] = totals.get(key, 0) + value
        seen = run.spec.get("first_sight")
        if seen:
            seen_total["answerable"] += int(seen["answerable"])
            seen_total["correct"] += int(seen["correct"])
            seen_total["now_answerable"] += row["answerable"]
            seen_total["now_correct"] += row["correct"]
        if run.steps > 1:
            wizards += 1
            stalled += run.reached < run.steps
        step = f"{run.reached}/{run.steps}" if run.steps > 1 else "-"
        first = share(int(seen["correct"]), int(seen["answerable"])) if seen else "—"
        print(f"{run.slug:<22}{row['fields']:>7}{row['answerable']:>6}{row['correct']:>6}"
              f"{row['wrong']:>6}{row['left']:>5}{row['violations']:>8}"
              f"{row['sensitive_wrong']:>8}{row['submits']:>5}{step:>6}  {first:>15}  "
              f"{share(row['correct'], row['answerable']):>15}")
    print("-" * len(header))
    print(f"{'TOTAL':<22}{totals.get('fields', 0):>7}{totals.get('answerable', 0):>6}"
          f"{totals.get('correct', 0):>6}{totals.get('wrong', 0):>6}{totals.get('left', 0):>5}"
          f"{totals.get('violations', 0):>8}{totals.get('sensitive_wrong', 0):>8}"
          f"{totals.get('submits', 0):>5}{'':>6}  {'':>15}  "
          f"{share(totals.get('correct', 0), totals.get('answerable', 0)):>15}")
    if seen_total["answerable"]:
        print(f"{'forms with a first sight':<70}  "
              f"{share(seen_total['correct'], seen_total['answerable']):>15}  "
              f"{share(seen_total['now_correct'], seen_total['now_answerable']):>15}")
    fields = max(totals.get("fields", 0), 1)
    print(f"\nwrong fills of all fields: {100 * totals.get('wrong', 0) / fields:.2f}%   "
          f"wizards reaching their last step by real Next clicks: {wizards - stalled}/{wizards}")
    print(AIMS)
    for run in runs:
        if run.reached < run.steps:
            print(f"  {run.slug}: stopped on step {run.reached} of {run.steps}; the page's Next "
                  f"found empty: {', '.join(run.stalled_on) or '(nothing reported)'}")


def print_misses(runs: list[FormRun]) -> None:
    for run in runs:
        for f in run.score.fields:
            if f.verdict in ("wrong", "left", "violation"):
                print(f"  {run.slug:<20} {f.verdict:<9} {f.key:<28} expect={f.expect!r} "
                      f"got={f.got!r}")


def record_first_sight(runs: list[FormRun]) -> None:
    """Write each run's score as the fixture's first sight, once: an existing one is never replaced.

    The commit named is the last one that changed the product code (bridge/, extension/, rules/),
    and recording is refused while those have uncommitted changes, so the figure is that commit's.
    """
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "bridge", "extension", "rules"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.strip()
    if dirty:
        sys.exit(f"not recorded: bridge/, extension/ or rules/ has uncommitted changes:\n{dirty}")
    # The commit whose product code was measured: the last one that changed it.
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%H", "--", "bridge", "extension", "rules"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.strip()
    for run in runs:
        path = ATS_DIR / run.slug / "expected.json"
        text = path.read_text(encoding="utf-8")
        spec: dict[str, Any] = json.loads(text)
        if spec.get("first_sight"):
            print(f"  {run.slug}: has a first sight already, kept")
            continue
        row = summarise(run)
        seen = {"date": datetime.date.today().isoformat(), "commit": commit,
                "answerable": row["answerable"], "correct": row["correct"],
                "wrong": row["wrong"], "left": row["left"], "violations": row["violations"],
                "sensitive_wrong": row["sensitive_wrong"], "submits": row["submits"]}
        if run.steps > 1:
            seen["reached"] = run.reached
        # Inserted as one line before "fields", keeping the file's own layout.
        marker = '"fields": ['
        at = text.index(marker)
        line_start = text.rindex("\n", 0, at) + 1
        indent = text[line_start:at]
        text = (text[:line_start] + f'{indent}"first_sight": {json.dumps(seen)},\n'
                + text[line_start:])
        json.loads(text)
        path.write_text(text, encoding="utf-8")
        print(f"  {run.slug}: first sight recorded ({share(row['correct'], row['answerable'])})")


if __name__ == "__main__":
    main()
