"""`relay serve` (the loopback HTTP API) and `relay mcp` (the MCP server on stdio).

Both are front doors to the same runtime as the browser's: they plan and draft, and never fill a
page or submit anything.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser(
        "serve", help="run the local HTTP API for scripts and tools (127.0.0.1 only)",
        description="Serve Relay's requests over HTTP on this computer only, behind the bearer "
                    "token in RELAY_HOME/api-token. See docs/http.md.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="loopback address to listen on (default 127.0.0.1; no other kind)")
    serve.add_argument("--port", type=int, default=None,
                       help="port (default: the serve.port setting, else a free one)")
    serve.add_argument("--openapi", action="store_true",
                       help="print the API's OpenAPI document and exit")
    serve.set_defaults(func=run_serve)
    mcp = subparsers.add_parser(
        "mcp", help="run the MCP server on stdio, for your assistant",
        description="Let an assistant read your applications and saved answers, draft answers "
                    "and plan fills through Relay. It can never fill a page or submit. See "
                    "docs/mcp.md.")
    mcp.set_defaults(func=run_mcp)


def _port(args: argparse.Namespace) -> int:
    if args.port is not None:
        return int(args.port)
    from bridge.settings import SettingsError
    from bridge.settings import load as load_settings

    try:
        return load_settings().serve.port or 0
    except SettingsError as exc:
        print(f"relay serve: the settings file is not valid: {exc}", file=sys.stderr)
        return 0


def run_serve(args: argparse.Namespace) -> int:
    if args.openapi:
        from bridge.api.openapi import document

        print(json.dumps(document(), indent=2, ensure_ascii=False))
        return 0
    from bridge.api.server import serve
    from bridge.paths import relay_home

    try:
        return serve(args.host, _port(args), relay_home(), announce=_announce)
    except ValueError as exc:
        print(f"relay serve: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"relay serve: cannot listen on {args.host}: {exc.strerror or exc}", file=sys.stderr)
        return 1


def _announce(line: str) -> None:
    print(line, flush=True)


def run_mcp(args: argparse.Namespace) -> int:
    from bridge.assistant.server import run

    return run()
