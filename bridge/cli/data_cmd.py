"""`relay export`, `import`, `forget`: everything Relay stores, as one file, and really deleted."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from bridge.cli.output import fail, open_store

# What `export`, `import` and `forget` report, per table: (one, many).
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


def _describe(counts: dict[str, int]) -> str:
    parts = []
    for name, n in counts.items():
        one, many = TABLE_WORDS.get(name, (name, name))
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts) if parts else "nothing"


def run_export(args: argparse.Namespace) -> int:
    target: Path = args.file.expanduser()
    if target.exists() and not args.force:
        return fail(f"{target} exists; pass --force to replace it")
    with open_store() as store:
        doc = store.export()
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
        return fail(f"cannot write {target}: {exc}")
    counts = {name: len(table["rows"]) for name, table in doc["tables"].items()}
    print(f"Exported {_describe(counts)} to {target}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    source: Path = args.file.expanduser()
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return fail(f"cannot read {source}: {exc}")
    with open_store() as store:
        counts = store.import_(raw, origin=str(source))
    print(f"Imported {_describe(counts)} from {source}")
    return 0


def run_forget(args: argparse.Namespace) -> int:
    with open_store() as store:
        counts = store.forget_all() if args.all else store.forget_run(args.run)
    if args.all:
        print(f"Forgot every run: deleted {_describe(counts)}. Profiles and settings were kept.")
    else:
        print(f"Forgot run {args.run}: deleted {_describe(counts)}.")
    return 0
