"""`relay answers list|edit|delete|export`: the answers Relay saved from your applications.

`--json` output is a stable contract: keys are only ever added.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bridge.cli.output import fail, open_store, print_json

JSON_VERSION = 1
ORIGIN_WORDS = {
    "saved": "you saved it",
    "submitted": "you filled it in",
    "edited": "you changed Relay's answer",
}


def register(subparsers: Any) -> None:
    answers = subparsers.add_parser(
        "answers", help="list, edit, delete or export your saved answers",
        description="Answers Relay saved from the applications you submitted (and from "
                    "\"save this answer\"). Relay answers the same question from them next time.")
    sub = answers.add_subparsers(dest="answers_command", required=True)
    listing = sub.add_parser("list", help="your saved answers, newest first")
    listing.add_argument("--query", default="", help="only those whose question or answer has it")
    listing.add_argument("--json", action="store_true", help="print JSON (stable shape)")
    listing.set_defaults(func=run_list)
    edit = sub.add_parser("edit", help="change a saved answer")
    edit.add_argument("id", type=int)
    edit.add_argument("value")
    edit.set_defaults(func=run_edit)
    delete = sub.add_parser("delete", help="delete a saved answer")
    delete.add_argument("id", type=int)
    delete.set_defaults(func=run_delete)
    export = sub.add_parser(
        "export", help="write your saved answers to a JSON file",
        description="Self-identification answers (gender, ethnicity, veteran, disability) stay "
                    "out unless you ask for them with --include-self-id.")
    export.add_argument("file", type=Path, metavar="FILE")
    export.add_argument("--include-self-id", action="store_true")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    export.set_defaults(func=run_export)


def run_list(args: argparse.Namespace) -> int:
    with open_store() as store:
        answers = store.saved_answers(args.query, 10_000)
    if args.json:
        print_json({"version": JSON_VERSION, "answers": answers})
        return 0
    if not answers:
        print("No saved answers yet.")
        return 0
    for a in answers:
        used = f"used {a['used_count']} times" if a["used_count"] else "not used yet"
        mark = "  (self-identification: kept on this computer only)" if a["self_id"] else ""
        print(f"#{a['answer_id']:<4} “{a['question']}”{mark}")
        print(f"      {a['value']}")
        print(f"      {ORIGIN_WORDS.get(a['origin'], a['origin'])}, {a['updated_at'][:10]}; {used}")
    return 0


def run_edit(args: argparse.Namespace) -> int:
    with open_store() as store:
        answer = store.update_saved_answer(args.id, args.value)
    print(f"Saved answer #{answer['answer_id']} to “{answer['question']}” is now:"
          f" {answer['value']}")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    with open_store() as store:
        deleted = store.delete_saved_answer(args.id)
    if not deleted:
        return fail(f"no saved answer {args.id}")
    print(f"Deleted saved answer #{args.id}.")
    return 0


def run_export(args: argparse.Namespace) -> int:
    path: Path = args.file
    if path.exists() and not args.force:
        return fail(f"{path} exists; pass --force to replace it")
    with open_store() as store:
        answers = store.saved_answers("", 1_000_000)
    kept = [a for a in answers if args.include_self_id or not a["self_id"]]
    from bridge.paths import private_file

    path.write_text(json.dumps({"version": JSON_VERSION, "answers": kept}, indent=2,
                               ensure_ascii=False), encoding="utf-8")
    private_file(path)
    print(f"Wrote {len(kept)} saved answers to {path}"
          + (f" ({len(answers) - len(kept)} self-identification answers left out)"
             if len(kept) < len(answers) else ""))
    return 0
