"""Supported browsers and where each one looks for native-messaging hosts on each OS.

User-level locations only (no admin rights needed). Sources: Chrome's native messaging docs,
MDN "Native manifests", and each vendor's profile-folder layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from bridge.install.machine import Machine

Family = Literal["chromium", "firefox"]


@dataclass(frozen=True)
class Browser:
    name: str  # the `--browser` value
    label: str
    family: Family
    # Profile root relative to ~/.config (Linux, XDG) or ~/Library/Application Support (macOS).
    linux_dir: str
    darwin_dir: str
    # Windows: profile root under %LOCALAPPDATA% (Chromium family) or %APPDATA% (Firefox).
    windows_dir: str
    # HKCU-relative registry folder that holds host keys.
    windows_key: str
    binaries: tuple[str, ...]
    darwin_app: str


BROWSERS: tuple[Browser, ...] = (
    Browser("chrome", "Google Chrome", "chromium",
            "google-chrome", "Google/Chrome", "Google/Chrome/User Data",
            r"Software\Google\Chrome\NativeMessagingHosts",
            ("google-chrome", "google-chrome-stable", "chrome"), "Google Chrome.app"),
    Browser("chromium", "Chromium", "chromium",
            "chromium", "Chromium", "Chromium/User Data",
            r"Software\Chromium\NativeMessagingHosts",
            ("chromium", "chromium-browser"), "Chromium.app"),
    Browser("edge", "Microsoft Edge", "chromium",
            "microsoft-edge", "Microsoft Edge", "Microsoft/Edge/User Data",
            r"Software\Microsoft\Edge\NativeMessagingHosts",
            ("microsoft-edge", "microsoft-edge-stable", "msedge"), "Microsoft Edge.app"),
    Browser("brave", "Brave", "chromium",
            "BraveSoftware/Brave-Browser", "BraveSoftware/Brave-Browser",
            "BraveSoftware/Brave-Browser/User Data",
            r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts",
            ("brave-browser", "brave"), "Brave Browser.app"),
    Browser("vivaldi", "Vivaldi", "chromium",
            "vivaldi", "Vivaldi", "Vivaldi/User Data",
            r"Software\Vivaldi\NativeMessagingHosts",
            ("vivaldi", "vivaldi-stable"), "Vivaldi.app"),
    Browser("firefox", "Firefox", "firefox",
            # Firefox ignores XDG on Linux: hosts live in ~/.mozilla, see manifest_dir().
            ".mozilla", "Mozilla", "Mozilla/Firefox",
            r"Software\Mozilla\NativeMessagingHosts",
            ("firefox",), "Firefox.app"),
)

BROWSER_NAMES: tuple[str, ...] = tuple(b.name for b in BROWSERS)


def by_name(name: str) -> Browser:
    for browser in BROWSERS:
        if browser.name == name:
            return browser
    raise KeyError(f"unknown browser {name!r}; choose from {', '.join(BROWSER_NAMES)}")


def _join(base: Path, relative: str) -> Path:
    return base.joinpath(*PurePosixPath(relative).parts)


def profile_root(browser: Browser, machine: Machine) -> Path:
    """The browser's per-user config folder: its existence means the browser has been used."""
    if machine.system == "linux":
        if browser.family == "firefox":
            return machine.home / ".mozilla"
        return _join(machine.xdg_config(), browser.linux_dir)
    if machine.system == "darwin":
        return _join(machine.home / "Library" / "Application Support", browser.darwin_dir)
    base = machine.roaming_appdata() if browser.family == "firefox" else machine.local_appdata()
    return _join(base, browser.windows_dir)


def manifest_dir(browser: Browser, machine: Machine) -> Path:
    """Linux and macOS: the folder the browser scans for `<host name>.json`."""
    if machine.system == "windows":
        # Windows browsers read the registry; the file lives in Relay's own folder instead.
        return machine.local_appdata() / "Relay" / "NativeMessagingHosts" / browser.name
    if machine.system == "linux" and browser.family == "firefox":
        return machine.home / ".mozilla" / "native-messaging-hosts"
    if machine.system == "darwin" and browser.family == "firefox":
        return machine.home / "Library" / "Application Support" / "Mozilla" / "NativeMessagingHosts"
    return profile_root(browser, machine) / "NativeMessagingHosts"


def is_present(browser: Browser, machine: Machine) -> bool:
    """Config folder exists, or a binary (app bundle on macOS) is found."""
    if profile_root(browser, machine).is_dir():
        return True
    if any(machine.which(binary) for binary in browser.binaries):
        return True
    return any((root / browser.darwin_app).exists() for root in machine.app_roots)


def present_browsers(machine: Machine) -> list[Browser]:
    return [b for b in BROWSERS if is_present(b, machine)]
