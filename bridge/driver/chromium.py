"""Finding Chromium and launching it with the Relay extension and the bridge registered."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Playwright

CHROMIUM_ENV = "RELAY_CHROMIUM"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# Flags that keep a headless Chromium quiet on a machine with no outside network, and let the
# unpacked extension's service worker start (Playwright adds --disable-extensions otherwise).
BASE_ARGS = (
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-features=MediaRouter,OptimizationHints",
)


def find_chromium() -> Path:
    env = os.environ.get(CHROMIUM_ENV)
    if env:
        path = Path(env)
        if path.is_file() and os.access(path, os.X_OK):
            return path
        raise RelayError(ErrorCode.INTERNAL, f"{CHROMIUM_ENV}={env} is not an executable file")
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise RelayError(
        ErrorCode.INTERNAL,
        "Chromium not found: install it (Debian: apt-get install chromium) or set RELAY_CHROMIUM",
    )


def chromium_args(extension_dir: Path | None = None) -> list[str]:
    """Command-line flags for Relay's Chromium, with the unpacked extension when one is given."""
    args = list(BASE_ARGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    if extension_dir is not None:
        args.append(f"--disable-extensions-except={extension_dir}")
        args.append(f"--load-extension={extension_dir}")
    return args


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or os.name == "nt"


def launch(
    playwright: Playwright,
    *,
    user_data_dir: Path,
    extension_dir: Path,
    headed: bool = False,
    env: dict[str, str] | None = None,
) -> BrowserContext:
    return playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=str(find_chromium()),
        headless=not headed,
        args=chromium_args(extension_dir),
        env={**os.environ, **(env or {})},
        viewport={"width": 1280, "height": 900},
    )
