"""`relay`: parse the command line and hand off to the command module that owns the verb."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from bridge.cli.output import dispatch
from bridge.identity import BRIDGE_VERSION

# Each module defines `register(subparsers)` and sets `func` on the parsers it adds.
COMMAND_MODULES: tuple[str, ...] = (
    "bridge.cli.fill_cmd",
    "bridge.cli.install_cmd",
    "bridge.cli.profile_cmd",
    "bridge.cli.history_cmd",
    "bridge.cli.data_cmd",
    "bridge.cli.encryption_cmd",
    "bridge.cli.answers_cmd",
    "bridge.cli.approvals_cmd",
    "bridge.cli.key_cmd",
    "bridge.cli.config_cmd",
    "bridge.cli.serve_cmd",
)


def host_arguments(argv: Sequence[str]) -> list[str] | None:
    """The native-messaging host's arguments when this run is the host, else None.

    `relay bridge [ARGS]`, or what a browser passes when it starts the program a manifest names:
    `chrome-extension://ID/` (Chrome family, plus `--parent-window=N` on Windows), or the
    manifest's path and the add-on id (Firefox). The desktop build has one program for both jobs.
    """
    if argv and argv[0] == "bridge":
        return list(argv[1:])
    if argv and argv[0].startswith(("chrome-extension://", "extension://")):
        return list(argv)
    if len(argv) == 2 and argv[0].endswith(".json") and os.path.isabs(argv[0]):
        return list(argv)  # the host itself checks that the add-on is Relay's
    return None


def run_host(args: argparse.Namespace) -> int:
    from bridge import host

    return host.main(args.host_args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="relay",
        description="Relay fills job applications from your profile; you click Submit.",
    )
    parser.add_argument("--version", action="version", version=f"relay {BRIDGE_VERSION}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    bridge = subparsers.add_parser(
        "bridge", help="run the native-messaging host (the browser starts it for you)")
    bridge.add_argument("host_args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    bridge.set_defaults(func=run_host)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    host_args = host_arguments(given)
    if host_args is not None:
        # Before the parser: the host answers its first frame without loading every command.
        from bridge import host

        return host.main(host_args)
    parser = build_parser()
    args = parser.parse_args(given)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = dispatch(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`relay audit | head -1`): not an error, and no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
