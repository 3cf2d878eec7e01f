"""`relay profile import|list|use|show`: the profiles Relay keeps in its store."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bridge.cli.output import fail, open_store, print_json, table

JSON_VERSION = 1
NO_PROFILE = "no profile stored; add one with: relay profile import FILE"


def register(subparsers: Any) -> None:
    profile = subparsers.add_parser(
        "profile", help="import, list, choose and show profiles",
        description="Relay keeps each imported profile file's text unchanged; edits are stored "
                    "beside it.")
    verbs = profile.add_subparsers(dest="profile_command", metavar="ACTION", required=True)

    imp = verbs.add_parser("import", help="validate and store a profile file")
    imp.add_argument("file", type=Path, metavar="FILE")
    imp.add_argument("--name", metavar="N", help="store it under this name (default: file name)")
    imp.set_defaults(func=run_import)

    lst = verbs.add_parser("list", help="list stored profiles; * marks the active one")
    lst.add_argument("--json", action="store_true", help="print JSON (stable shape)")
    lst.set_defaults(func=run_list)

    use = verbs.add_parser("use", help="make a stored profile the active one")
    use.add_argument("name", metavar="NAME")
    use.set_defaults(func=run_use)

    show = verbs.add_parser("show", help="print a profile (default: the active one)")
    show.add_argument("name", nargs="?", metavar="NAME")
    show.add_argument("--original", action="store_true",
                      help="print the imported file's text exactly, without your edits")
    show.set_defaults(func=run_show)


def run_import(args: argparse.Namespace) -> int:
    with open_store() as store:
        name, replaced = store.import_profile(args.file, args.name)
        active = store.active_profile_name()
    verb = "Updated" if replaced else "Imported"
    note = " (active)" if active == name else f" (active profile is still {active})"
    print(f"{verb} profile {name!r} from {args.file}{note}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with open_store() as store:
        items = store.list_profiles()
    if args.json:
        print_json({"version": JSON_VERSION, "profiles": [item.model_dump() for item in items]})
        return 0
    if not items:
        print("No profiles stored. Add one with: relay profile import FILE")
        return 0
    print(table(("Active", "Profile", "Imported from", "Edited"),
                (("*" if item.active else "", item.name, item.source_path,
                  "yes" if item.has_edits else "") for item in items)))
    return 0


def run_use(args: argparse.Namespace) -> int:
    with open_store() as store:
        store.use_profile(args.name)
    print(f"Active profile: {args.name}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    with open_store() as store:
        name = args.name or store.active_profile_name()
        if name is None:
            return fail(NO_PROFILE)
        if args.original:
            sys.stdout.write(store.profile_original(name))
            return 0
        loaded = store.profile(name)  # a name that is not stored raises
    if loaded is None:
        return fail(NO_PROFILE)
    print(json.dumps(loaded.raw, indent=2, ensure_ascii=False))
    return 0
