"""`relay fill TARGET --profile FILE` and `relay demo`.

Other tools depend on these commands and flags: keep them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bridge.paths import repo_root
from bridge.protocol.errors import RelayError

DEMO_FORM = Path("demo") / "sample-application.html"
SAMPLE_PROFILE = Path("demo") / "profile" / "sample.json"


def register(subparsers: Any) -> None:
    fill = subparsers.add_parser(
        "fill",
        help="open a page in Chromium with Relay loaded and fill it (never submits)",
        description="Open TARGET (a URL or a local HTML file) in Chromium with the Relay extension"
        " and bridge, press Fill as the toolbar button does, and report what was filled.",
    )
    fill.add_argument("target", help="a URL or a local HTML file")
    fill.add_argument("--profile", required=True, type=Path, help="profile JSON file")
    _common(fill)
    fill.set_defaults(func=run_fill_command)

    demo = subparsers.add_parser(
        "demo", help="fill the bundled sample application form with the bundled sample profile"
    )
    _common(demo, default_screenshot=Path("relay-demo.png"))
    demo.set_defaults(func=run_demo)


def _common(parser: argparse.ArgumentParser, default_screenshot: Path | None = None) -> None:
    parser.add_argument("--report", type=Path, help="write the JSON report to this file")
    parser.add_argument(
        "--screenshot",
        type=Path,
        default=default_screenshot,
        help="write a full-page screenshot (PNG) after the fill",
    )
    parser.add_argument("--headed", action="store_true", help="show the browser window")


def run_fill_command(args: argparse.Namespace) -> int:
    try:
        from bridge.driver.report import table
        from bridge.driver.session import run_fill
    except ImportError:  # the desktop build leaves the Chromium driver out
        print("relay fill: this Relay has no Chromium driver (Playwright). In your own browser, "
              "press the Relay toolbar button instead; `relay fill` and `relay demo` run from a "
              "source checkout (./dev setup).", file=sys.stderr)
        return 1

    try:
        report = run_fill(
            args.target, args.profile, headed=args.headed, screenshot=args.screenshot
        )
    except RelayError as exc:
        print(f"relay fill: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    if not report.ok:
        err = report.error or {}
        print(f"relay fill: the fill did not run: {err.get('code')}: {err.get('message')}",
              file=sys.stderr)
        return 1
    print(table(report))
    if args.screenshot:
        print(f"screenshot: {args.screenshot}")
    if args.report:
        print(f"report: {args.report}")
    return 0


def run_demo(args: argparse.Namespace) -> int:
    root = repo_root()
    if root is None:
        print("relay demo: run it from a Relay source checkout", file=sys.stderr)
        return 1
    args.target = str(root / DEMO_FORM)
    args.profile = (root / SAMPLE_PROFILE).resolve()
    if not args.profile.is_file():
        print(f"relay demo: sample profile not found at {args.profile}", file=sys.stderr)
        return 1
    return run_fill_command(args)
