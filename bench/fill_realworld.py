"""Relay's Fill on the real-world corpus in Chromium: accuracy as-is and with autocomplete removed.

Prints per page and in total, per type group, correct / wrong / left among the labelled fields a
person could fill, never-fill violations (payment card, password, date of birth), and the wrong
fills with label and value. The held-out pages (bench/data/realworld_held_out.json, a seeded
random draw) are scored with the rest but printed apart, as totals only: rules work must not look
at them, so their figure stays a first-sight one. Prints figures; asserts nothing.

Run: .venv/bin/python bench/fill_realworld.py [--profile PATH] [--only SUBSTRING] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.driver.session import relay_browser
from bridge.driver.static_server import StaticServer
from tests.realworld_scoring import (
    AIM_GROUPS,
    CORPUS,
    NEVER_GROUPS,
    SCORED,
    PageScore,
    aim_figures,
    corpus_pages,
    held_out,
    load_facts,
    prepare,
    score_pages,
    tally,
    violations,
)

REPO = Path(__file__).resolve().parents[1]
MODES = (("as-is", False), ("no-autocomplete", True))
COLUMNS = (*AIM_GROUPS, "other", "blank")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", type=Path, default=REPO / "demo" / "profile" / "sample.json")
    parser.add_argument("--only", default="", help="score only pages whose name contains this")
    parser.add_argument("--json", type=Path, help="also write every field's verdict here")
    args = parser.parse_args()

    pages = [p for p in corpus_pages() if args.only in p.name]
    facts = load_facts(args.profile)
    results: dict[str, list[PageScore]] = {mode: [] for mode, _ in MODES}
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="relay-home-") as home,  # runs stay out of the real one
        StaticServer(CORPUS) as server,
        relay_browser(args.profile, home=Path(home)) as browser,
    ):
        log = prepare(browser)
        jobs = [(spec, strip) for spec in pages for _, strip in MODES]
        for score in score_pages(browser, log, server, jobs, facts):
            results[score.mode].append(score)
    elapsed = time.perf_counter() - started

    kept = set(held_out().pages)
    tuning = {m: [s for s in r if s.page not in kept] for m, r in results.items()}
    apart = {m: [s for s in r if s.page in kept] for m, r in results.items()}
    print_pages(tuning)
    for mode, _ in MODES:
        print_totals(f"{mode}, all pages", results[mode])
    for mode, _ in MODES:
        print_totals(f"{mode}, held-out pages only ({len(apart[mode])})", apart[mode])
    print_wrong("as-is", tuning["as-is"], with_left=False)
    print_wrong("no-autocomplete", tuning["no-autocomplete"], with_left=True)
    print_guarantees(results)
    print(f"\n{len(pages)} pages, {len(MODES)} passes, {elapsed:.1f} s in Chromium")
    if args.json:  # the held-out pages' fields stay out of it too
        args.json.write_text(
            json.dumps({m: [asdict(s) for s in r] for m, r in tuning.items()}, indent=1),
            encoding="utf-8",
        )


def cell(counts: dict[str, int]) -> str:
    """correct/wrong/left, or "" when the page has no such field."""
    c, w, left = (counts.get(v, 0) for v in ("correct", "wrong", "left"))
    return f"{c}/{w}/{left}" if c + w + left else ""


def pct(correct: int, total: int) -> str:
    return f"{100 * correct / total:.1f}%" if total else "n/a"


def print_pages(results: dict[str, list[PageScore]]) -> None:
    print("Per page: correct/wrong/left per group; aim% = name+email+phone+address correct")
    header = ["page", "mode", "aim%", "names", "email", "phone", "lines", "city", "state"]
    header += ["postal", "country", "hidden", "never!", "fill"]
    rows = []
    for i, spec_score in enumerate(results["as-is"]):
        for mode, _ in MODES:
            s = results[mode][i]
            t = tally([s])
            correct, scored = aim_figures([s])
            hidden = sum(g.get("hidden", 0) for g in t.values())
            never = sum(t.get(g, {}).get("violation", 0) for g in NEVER_GROUPS)
            rows.append(
                [
                    spec_score.page if mode == "as-is" else "",
                    mode,
                    pct(correct, scored),
                    *(cell(t.get(g, {})) for g in AIM_GROUPS),
                    str(hidden),
                    str(never),
                    "ok" if s.fill_ok else f"FAILED: {s.fill_error[:40]}",
                ]
            )
    print_table(header, rows)


def print_totals(title: str, scores: list[PageScore]) -> None:
    t = tally(scores)
    correct, scored = aim_figures(scores)
    wrong = sum(1 for s in scores for f in s.fields if f.verdict in ("wrong", "filled"))
    print(
        f"\nTotal, {title}: {correct}/{scored} correct = {pct(correct, scored)} (aim >= 97%); "
        f"wrong fills {wrong} = {pct(wrong, scored)} of scored (aim <= 0.5%)"
    )
    header = ["group", "correct", "wrong", "left", "correct%", "hidden: scored", "hidden: left"]
    header += ["kept blank", "filled"]
    hidden: dict[str, int] = {}  # hidden fields the Fill changed: scored, counted here too
    for f in (f for s in scores for f in s.fields if f.hidden and f.verdict in SCORED):
        hidden[f.group] = hidden.get(f.group, 0) + 1
    rows = []
    for group in COLUMNS:
        g = t.get(group, {})
        c, w, left = (g.get(v, 0) for v in ("correct", "wrong", "left"))
        rows.append(
            [
                group,
                str(c),
                str(w),
                str(left),
                pct(c, c + w + left),
                str(hidden.get(group, 0)),
                str(g.get("hidden", 0)),
                str(g.get("kept_blank", 0)),
                str(g.get("filled", 0)),
            ]
        )
    print_table(header, rows)
    for group in NEVER_GROUPS:
        g = t.get(group, {})
        total = g.get("violation", 0) + g.get("untouched", 0)
        print(f"  {group}: {g.get('violation', 0)} filled of {total} (must be 0)")


def print_wrong(mode: str, scores: list[PageScore], *, with_left: bool) -> None:
    print(f"\nWrong fills, {mode}, held-out pages left out")
    print("(page | type | label -> value | engine key (reason)):")
    for s in scores:
        for f in s.fields:
            if f.verdict in ("wrong", "filled", "violation"):
                note = {"filled": " [should stay blank]", "violation": " [NEVER-FILL]"}.get(
                    f.verdict, ""
                )
                note += " [hidden field]" if f.hidden else ""
                print(f"  {s.page} | {f.kind} | {f.label!r} -> {f.value!r}{note} | {f.decision}")
    if not with_left:
        return
    print(f"\nLeft, {mode}, held-out pages left out")
    print("(page | type | label [value the page had] | engine key (reason)):")
    for s in scores:
        for f in s.fields:
            if f.verdict == "left":
                had = f" [had {f.before!r}]" if f.before else ""
                print(f"  {s.page} | {f.kind} | {f.label!r}{had} | {f.decision or '(no decision)'}")


def print_guarantees(results: dict[str, list[PageScore]]) -> None:
    print("\nHard guarantees:")
    for mode, scores in results.items():
        print(
            f"  {mode}: never-fill violations {len(violations(scores))}, "
            f"submits {sum(s.submits for s in scores)}, "
            f"navigations {sum(s.navigations for s in scores)}, "
            f"fills failed {sum(not s.fill_ok for s in scores)}, "
            f"labelled fields not found {sum(s.missing for s in scores)}"
        )


def print_table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    print(fmt.format(*header))
    print(fmt.format(*("-" * w for w in widths)))
    for row in rows:
        print(fmt.format(*row))


if __name__ == "__main__":
    main()
