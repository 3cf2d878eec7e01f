"""`relay history`, `audit`, `cost`: what Relay filled, what it did, what the model cost.

`--json` output is a stable contract (docs/store.md): keys are only ever added.
"""

from __future__ import annotations

import argparse
from typing import Any

from bridge.cli.output import open_store, print_json, short_time, table
from bridge.source_words import sources_line

JSON_VERSION = 1

# Who set an application's field, in the person's words.
SET_BY_WORDS = {
    "rules": "Relay (your profile)",
    "saved_answer": "Relay (a saved answer)",
    "model": "Relay (the model)",
    "person": "you",
    "page": "the page",
    "default": "Relay (a default)",
}


def register(subparsers: Any) -> None:
    history = subparsers.add_parser(
        "history", help="your applications, newest first, then fills never submitted",
        description="The applications Relay saw you submit (company, job title, status), newest "
                    "first; then, apart, the fills you never submitted.")
    history.add_argument("--run", metavar="ID", help="only this run, with its fields")
    history.add_argument("--application", metavar="ID", type=int,
                         help="only this application, with every field and who set it")
    history.add_argument("--json", action="store_true", help="print JSON (stable shape)")
    history.set_defaults(func=run_history)

    audit = subparsers.add_parser("audit", help="show the audit log (what Relay did, redacted)")
    audit.add_argument("--run", metavar="ID", help="only entries about this run")
    audit.add_argument("--json", action="store_true", help="print JSON (stable shape)")
    audit.set_defaults(func=run_audit)

    cost = subparsers.add_parser("cost", help="model costs per run, day and month")
    cost.add_argument("--json", action="store_true", help="print JSON (stable shape)")
    cost.set_defaults(func=run_cost)


def run_history(args: argparse.Namespace) -> int:
    if args.application is not None:
        return _one_application(args)
    with open_store() as store:
        runs = store.history(args.run)
        applications = [] if args.run else store.applications(1000)
        submitted = store.submitted_runs()
    if args.json:
        # Stable: "runs" as before (each now says whether it was submitted), "applications" added.
        for run in runs:
            run["submitted"] = run["run_id"] in submitted
        print_json({"version": JSON_VERSION, "runs": runs, "applications": applications})
        return 0
    if not args.run:
        _print_applications(applications)
        runs = [run for run in runs if run["run_id"] not in submitted]
        if runs:
            print("\nFills never submitted:")
    if not runs:
        if args.run or not applications:
            print("No fills yet.")
        return 0
    for run in runs:
        counts = run["counts"]
        title = run["title"] or "(no title)"
        ats = f"  [{run['ats']}]" if run["ats"] else ""
        print(f"{run['run_id']}  {short_time(run['started_at'])}  {run['status']}{ats}  {title}")
        print(f"    {run['url']}")
        print(
            f"    {counts['decisions']} fields: {counts['fill']} filled, {counts['flag']} flagged,"
            f" {counts['leave']} left, {counts['never']} never, {counts['keep']} kept;"
            f" Relay applied values to {counts['applied']} on the page;"
            f" cost {run['cost_cents']} cents"
        )
        print(f"    values from: {sources_line(counts)}")
        if args.run:
            print()
            print(table(("Field", "Decision", "Profile key", "On the page", "Value"),
                        ((f"{item['frame']}/{item['field_id']}", item["status"],
                          item["key"] or "?", item["outcome"] or "-", _shown(item))
                         for item in run["decisions"]), indent="    "))
    return 0


def _shown(item: dict[str, Any]) -> str:
    if item["encrypted"] and item["value"] is None:
        return "(encrypted)"
    return str(item["value"] or ", ".join(item["values"]))


def _print_applications(applications: list[dict[str, Any]]) -> None:
    if not applications:
        print("No applications recorded yet: Relay records one when you press Submit yourself.")
        return
    print("Your applications (newest first):")
    rows = []
    for app in applications:
        who = " — ".join(x for x in (app["company"], app["job_title"]) if x) or (
            app["page_title"] or app["url"])
        rows.append((f"#{app['application_id']}", short_time(app["submitted_at"]),
                     app["status"], who))
    print(table(("", "Submitted (UTC)", "Status", "Job"), rows, indent="  "))


def _one_application(args: argparse.Namespace) -> int:
    with open_store() as store:
        app = store.application(args.application)
    if args.json:
        print_json({"version": JSON_VERSION, "application": app})
        return 0
    print(f"#{app['application_id']}  {app['company']} — {app['job_title']}  ({app['status']})")
    print(f"    {app['url']}  submitted {short_time(app['submitted_at'])}")
    if app["files"]:
        print(f"    files: {', '.join(app['files'])}")
    print()
    print(table(("Field", "Set by", "Value"),
                ((f["label"][:40], SET_BY_WORDS.get(f["set_by"], f["set_by"]), f["value"])
                 for f in app["fields"]), indent="    "))
    return 0


def run_audit(args: argparse.Namespace) -> int:
    with open_store() as store:
        entries = store.audit_entries(args.run)
    if args.json:
        print_json({"version": JSON_VERSION, "entries": entries})
        return 0
    if not entries:
        print("The audit log is empty.")
        return 0
    rows = []
    for entry in entries:
        extra = []
        if entry["decision"]:
            extra.append(f"decision={entry['decision']}")
        if entry["tokens_in"] or entry["tokens_out"]:
            extra.append(f"tokens={entry['tokens_in']}/{entry['tokens_out']}")
        if entry["cost_cents"] != "0.0000":
            extra.append(f"cost={entry['cost_cents']}c")
        if entry["error"]:
            extra.append(f"error={entry['error']}")
        rows.append((f"#{entry['id']}", short_time(entry["started_at"]), entry["actor"],
                     entry["action"], entry["run_id"] or "-", entry["status"], " ".join(extra)))
    print(table(("", "Time (UTC)", "Who", "Action", "Run", "Status", "Details"), rows))
    return 0


def run_cost(args: argparse.Namespace) -> int:
    with open_store() as store:
        summary = store.cost_summary()
    if args.json:
        print_json({"version": JSON_VERSION, **summary})
        return 0
    total = summary["total"]
    print(
        f"Total: {total['cost_cents']} cents over {total['calls']} model calls "
        f"({total['tokens_in']} tokens in, {total['tokens_out']} out)"
    )
    for title, key, rows in (
        ("Month", "month", summary["by_month"]),
        ("Day", "day", summary["by_day"]),
        ("Run", "run_id", summary["by_run"]),
    ):
        if rows:
            print()
            print(table((title, "Cents", "Calls"),
                        ((row[key] or "(no run)", row["cost_cents"], row["calls"])
                         for row in rows), indent="  ", right=(1, 2)))
    return 0
