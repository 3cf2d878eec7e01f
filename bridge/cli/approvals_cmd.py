"""`relay approvals list|approve|deny`: what an assistant asked Relay to do that waits for you.

An assistant (through `relay mcp`) may ask to save an answer; nothing happens until you approve
it here. Approving sends the request it holds through the same dispatcher as every front door.
`--json` output is a stable contract: keys are only ever added.
"""

from __future__ import annotations

import argparse
from typing import Any

from bridge.cli.output import open_store, print_json

JSON_VERSION = 1


def register(subparsers: Any) -> None:
    approvals = subparsers.add_parser(
        "approvals", help="approve or deny what an assistant asked Relay to do",
        description="Requests an assistant made through `relay mcp` that need your say-so "
                    "(saving an answer). Nothing is done until you approve it.")
    sub = approvals.add_subparsers(dest="approvals_command", required=True)
    listing = sub.add_parser("list", help="requests waiting for you (--all: decided ones too)")
    listing.add_argument("--all", action="store_true", help="also those already decided")
    listing.add_argument("--json", action="store_true", help="print JSON (stable shape)")
    listing.set_defaults(func=run_list)
    for verb, helptext in (("approve", "do what the request asks"), ("deny", "drop it")):
        cmd = sub.add_parser(verb, help=helptext)
        cmd.add_argument("id", type=int)
        cmd.set_defaults(func=run_decide, approve=verb == "approve")


def _describe(row: dict[str, Any]) -> list[str]:
    payload = row["payload"] or {}
    if row["kind"] == "answer.save":
        question = payload.get("question", {}).get("label", "")
        lines = [f"save the answer to “{question}”:", f"      {payload.get('value', '')}"]
    else:
        lines = [f"send {row['kind']}"]
    when = row["created_at"][:16].replace("T", " ")
    decided = "" if row["status"] == "pending" else f"; {row['status']}"
    lines.append(f"      asked by your assistant, {when} UTC{decided}")
    return lines


def run_list(args: argparse.Namespace) -> int:
    with open_store() as store:
        rows = store.approvals(None if args.all else "pending")
    if args.json:
        print_json({"version": JSON_VERSION, "approvals": rows})
        return 0
    if not rows:
        print("Nothing waits for your approval.")
        return 0
    for row in rows:
        first, *rest = _describe(row)
        print(f"#{row['approval_id']:<4} {first}")
        for line in rest:
            print(line)
    return 0


def run_decide(args: argparse.Namespace) -> int:
    from bridge.approvals import decide
    from bridge.runtime import Runtime

    runtime = Runtime(door="cli")
    try:
        decide(runtime, args.id, args.approve)
    finally:
        runtime.close()
    done = "Approved #{}: done." if args.approve else "Denied #{}; nothing was done."
    print(done.format(args.id))
    return 0
