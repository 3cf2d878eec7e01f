"""What every `relay` command prints the same way: failures, JSON, tables and times.

A command raises `RelayError` for anything the person must fix; `dispatch` turns it into one
plain line on stderr and exit status 1, so no command repeats that.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bridge.protocol.errors import RelayError

if TYPE_CHECKING:
    from bridge.store import Store


def fail(message: str) -> int:
    print(f"relay: {message}", file=sys.stderr)
    return 1


def dispatch(args: argparse.Namespace) -> int:
    """Run the command the parser chose; its `RelayError` is a plain failure, not a traceback."""
    try:
        code: int = args.func(args)
    except RelayError as exc:
        return fail(exc.message)
    return code


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], indent: str = "",
          right: Sequence[int] = ()) -> str:
    """Columns aligned for the terminal (those in `right` to the right); values are shown as they
    are (no number parsing)."""
    from tabulate import tabulate  # here: the host starts through this package and needs no tables

    align = ["right" if i in right else "left" for i in range(len(headers))]
    text = tabulate(list(rows), headers=list(headers), tablefmt="simple", disable_numparse=True,
                    colalign=align)
    return "\n".join(indent + line for line in text.splitlines())


def short_time(stamp: str | None) -> str:
    """An ISO time as `YYYY-MM-DD HH:MM:SS` (stored times are UTC)."""
    return (stamp or "")[:19].replace("T", " ")


def open_store() -> Store:
    # Imported here: `relay --help` and the host's first frame need no database code.
    from bridge.store import Store

    return Store.open()
