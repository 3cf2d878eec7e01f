"""`relay`: parse the command line and hand off to the command module that owns the verb."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from bridge.identity import BRIDGE_VERSION

# Each module defines `register(subparsers)` and sets `func` on the parsers it adds.
COMMAND_MODULES: tuple[str, ...] = (
    "bridge.cli.fill_cmd",
    "bridge.cli.install_cmd",
    "bridge.cli.profile_cmd",
    "bridge.cli.history_cmd",
    "bridge.cli.key_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="relay",
        description="Relay fills job applications from your profile; you click Submit.",
    )
    parser.add_argument("--version", action="version", version=f"relay {BRIDGE_VERSION}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    code: int = func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
