"""`relay history`, `audit`, `cost`, `export`, `import`, `forget`, `encryption`: the local store.

`--json` output is a stable contract (docs/store.md): keys are only ever added.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from bridge.protocol.errors import RelayError
from bridge.source_words import sources_line

JSON_VERSION = 1

# What `import` and `forget` report, per table: (one, many).
TABLE_WORDS = {
    "settings": ("setting", "settings"),
    "profiles": ("profile", "profiles"),
    "runs": ("run", "runs"),
    "blobs": ("attached document", "attached documents"),
    "blob_refs": ("document reference", "document references"),
    "decisions": ("field decision", "field decisions"),
    "deliveries": ("delivery", "deliveries"),
    "requests": ("stored request answer", "stored request answers"),
    "texts": ("cached text", "cached texts"),
    "answer_cache": ("cached model answer", "cached model answers"),
    "audit": ("audit entry", "audit entries"),
    "ledger": ("cost ledger row", "cost ledger rows"),
    "applications": ("application", "applications"),
    "application_fields": ("application field", "application fields"),
    "saved_answers": ("saved answer", "saved answers"),
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

    export = subparsers.add_parser(
        "export", help="write everything Relay stores to one JSON file",
        description="Profiles, runs, field decisions, audit log and cost ledger as one JSON "
                    "document. Encrypted values stay encrypted; the key is not exported.")
    export.add_argument("file", type=Path, metavar="FILE")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    export.set_defaults(func=run_export)

    imp = subparsers.add_parser(
        "import", help="load an export into an empty RELAY_HOME",
        description="Reproduces the exported history and audit log exactly. Refuses a store "
                    "that already holds data.")
    imp.add_argument("file", type=Path, metavar="FILE")
    imp.set_defaults(func=run_import)

    forget = subparsers.add_parser(
        "forget", help="delete a run, or all runs, and everything recorded about them",
        description="Really deletes: the run, its field decisions, deliveries, cached page text "
                    "and drafts, its audit entries and cost rows. --all keeps profiles.")
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument("--run", metavar="ID", help="forget this run")
    which.add_argument("--all", action="store_true", help="forget every run")
    forget.set_defaults(func=run_forget)

    enc = subparsers.add_parser(
        "encryption", help="encrypt cached page text and drafted answers at rest",
        description="AES-256-GCM with the key in the OS keyring. `on` derives the key from a "
                    "secret you type (or makes a random one with --random-key).")
    enc.add_argument("action", choices=["status", "on", "off"])
    enc.add_argument("--random-key", action="store_true", help="with `on`: no secret, random key")
    enc.add_argument("--json", action="store_true", help="print JSON (status)")
    enc.set_defaults(func=run_encryption)


def _fail(message: str) -> int:
    print(f"relay: {message}", file=sys.stderr)
    return 1


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _open() -> Any:
    from bridge.store import Store

    return Store.open()


def _short_time(stamp: str | None) -> str:
    return (stamp or "")[:19].replace("T", " ")


def run_history(args: argparse.Namespace) -> int:
    if args.application is not None:
        return _one_application(args)
    try:
        with _open() as store:
            runs = store.history(args.run)
            applications = [] if args.run else store.applications(1000)
            submitted = store.submitted_runs()
    except RelayError as exc:
        return _fail(exc.message)
    if args.json:
        # Stable: "runs" as before (each now says whether it was submitted), "applications" added.
        for run in runs:
            run["submitted"] = run["run_id"] in submitted
        _print_json({"version": JSON_VERSION, "runs": runs, "applications": applications})
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
        print(f"{run['run_id']}  {_short_time(run['started_at'])}  {run['status']}{ats}  {title}")
        print(f"    {run['url']}")
        print(
            f"    {counts['decisions']} fields: {counts['fill']} filled, {counts['flag']} flagged,"
            f" {counts['leave']} left, {counts['never']} never, {counts['keep']} kept;"
            f" Relay applied values to {counts['applied']} on the page;"
            f" cost {run['cost_cents']} cents"
        )
        print(f"    values from: {sources_line(counts)}")
        if args.run:
            for item in run["decisions"]:
                shown = "(encrypted)" if item["encrypted"] and item["value"] is None else (
                    item["value"] or ", ".join(item["values"]))
                key = item["key"] or "?"
                print(
                    f"      {item['frame']}/{item['field_id']:<6} {item['status']:<5} {key:<28}"
                    f" {item['outcome'] or '-':<10} {shown}"
                )
    return 0


def _print_applications(applications: list[dict[str, Any]]) -> None:
    if not applications:
        print("No applications recorded yet: Relay records one when you press Submit yourself.")
        return
    print("Your applications (newest first):")
    for app in applications:
        who = " — ".join(x for x in (app["company"], app["job_title"]) if x) or (
            app["page_title"] or app["url"])
        print(f"  #{app['application_id']:<4} {_short_time(app['submitted_at'])}  "
              f"{app['status']:<12} {who}")


def _one_application(args: argparse.Namespace) -> int:
    try:
        with _open() as store:
            app = store.application(args.application)
    except RelayError as exc:
        return _fail(exc.message)
    if args.json:
        _print_json({"version": JSON_VERSION, "application": app})
        return 0
    print(f"#{app['application_id']}  {app['company']} — {app['job_title']}  ({app['status']})")
    print(f"    {app['url']}  submitted {_short_time(app['submitted_at'])}")
    if app["files"]:
        print(f"    files: {', '.join(app['files'])}")
    words = {"rules": "Relay (your profile)", "saved_answer": "Relay (a saved answer)",
             "model": "Relay (the model)", "person": "you", "page": "the page",
             "default": "Relay (a default)"}
    for f in app["fields"]:
        print(f"      {f['label'][:40]:<40} {words.get(f['set_by'], f['set_by']):<22} {f['value']}")
    return 0


def run_audit(args: argparse.Namespace) -> int:
    try:
        with _open() as store:
            entries = store.audit_entries(args.run)
    except RelayError as exc:
        return _fail(exc.message)
    if args.json:
        _print_json({"version": JSON_VERSION, "entries": entries})
        return 0
    if not entries:
        print("The audit log is empty.")
        return 0
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
        print(
            f"#{entry['id']:<5} {_short_time(entry['started_at'])}  {entry['actor']:<9}"
            f" {entry['action']:<14} {entry['run_id'] or '-':<20} {entry['status']}"
            + (f"  {' '.join(extra)}" if extra else "")
        )
    return 0


def run_cost(args: argparse.Namespace) -> int:
    try:
        with _open() as store:
            summary = store.cost_summary()
    except RelayError as exc:
        return _fail(exc.message)
    if args.json:
        _print_json({"version": JSON_VERSION, **summary})
        return 0
    total = summary["total"]
    print(
        f"Total: {total['cost_cents']} cents over {total['calls']} model calls "
        f"({total['tokens_in']} tokens in, {total['tokens_out']} out)"
    )
    for title, key, rows in (
        ("By month", "month", summary["by_month"]),
        ("By day", "day", summary["by_day"]),
        ("By run", "run_id", summary["by_run"]),
    ):
        if rows:
            print(f"{title}:")
            for row in rows:
                print(f"  {row[key] or '(no run)':<22} {row['cost_cents']:>12} cents"
                      f"  {row['calls']} calls")
    return 0


def _describe(counts: dict[str, int]) -> str:
    parts = []
    for table, n in counts.items():
        one, many = TABLE_WORDS.get(table, (table, table))
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts) if parts else "nothing"


def run_export(args: argparse.Namespace) -> int:
    target: Path = args.file.expanduser()
    if target.exists() and not args.force:
        return _fail(f"{target} exists; pass --force to replace it")
    try:
        with _open() as store:
            doc = store.export()
    except RelayError as exc:
        return _fail(exc.message)
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    # Write beside the target and rename: a crash never leaves half an export under its name.
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".relay-export-", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)  # it holds the person's profile and history
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        return _fail(f"cannot write {target}: {exc}")
    counts = {name: len(table["rows"]) for name, table in doc["tables"].items()}
    print(f"Exported {_describe(counts)} to {target}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    source: Path = args.file.expanduser()
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _fail(f"cannot read {source}: {exc}")
    try:
        with _open() as store:
            counts = store.import_(raw, origin=str(source))
    except RelayError as exc:
        return _fail(exc.message)
    print(f"Imported {_describe(counts)} from {source}")
    return 0


def run_forget(args: argparse.Namespace) -> int:
    try:
        with _open() as store:
            counts = store.forget_all() if args.all else store.forget_run(args.run)
    except RelayError as exc:
        return _fail(exc.message)
    if args.all:
        print(f"Forgot every run: deleted {_describe(counts)}. Profiles and settings were kept.")
    else:
        print(f"Forgot run {args.run}: deleted {_describe(counts)}.")
    return 0


def run_encryption(args: argparse.Namespace) -> int:
    try:
        with _open() as store:
            if args.action == "on":
                secret = None
                if not args.random_key:
                    secret = getpass.getpass("Secret for Relay's encryption key: ")
                    if not secret:
                        return _fail("an empty secret; pass --random-key for a random key")
                key_id = store.enable_encryption(secret)
                print(f"Encryption is on (key {key_id}, kept in the OS keyring).")
                return 0
            if args.action == "off":
                store.disable_encryption()
                print("Encryption is off; stored values were decrypted and the key removed.")
                return 0
            status = store.encryption_status()
    except RelayError as exc:
        return _fail(exc.message)
    if args.json:
        _print_json({"version": JSON_VERSION, **status})
        return 0
    state = f"on (key {status['key_id']} since {status['since']})" if status["enabled"] else "off"
    print(f"Encryption: {state}")
    usable = "usable" if status["keyring_usable"] else "NOT usable"
    print(f"Keyring: {usable}: {status['keyring']}")
    return 0
