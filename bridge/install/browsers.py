"""Supported browsers and where each one looks for native-messaging hosts on each OS.

User-level locations for writing (no admin rights needed); on Linux also the system-wide folders a
package may fill, which `relay doctor` reads. Sources: Chrome's native messaging docs, MDN "Native
manifests", each vendor's profile-folder layout, and Flathub's and the Snap Store's packaging.

On Linux a browser may also be a Flatpak (`~/.var/app/<id>/`) or a Snap (`~/snap/<name>/`):
- A Flatpak browser reads hosts from its own folder and cannot start a program outside its sandbox
  unless it may talk to `org.freedesktop.Flatpak` (`flatpak-spawn --host`); Relay writes a small
  launcher that does that, and `relay doctor` says how to grant the permission.
- Firefox as a Snap (Ubuntu's default) starts hosts through the desktop's WebExtensions portal,
  which reads the usual `~/.mozilla/native-messaging-hosts` and asks the person once.
- Chromium, Brave and Vivaldi as Snaps cannot start native hosts at all: nothing to write there.
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
    # Linux sandboxed installs: the Flatpak app id and where, inside ~/.var/app/<id>/, it looks for
    # hosts; the Snap's name (None: not packaged that way).
    flatpak_id: str | None = None
    flatpak_hosts: str | None = None
    snap: str | None = None
    # The system-wide folder a distribution package fills (Linux), None when not known.
    linux_system_dir: str | None = None


BROWSERS: tuple[Browser, ...] = (
    Browser("chrome", "Google Chrome", "chromium",
            "google-chrome", "Google/Chrome", "Google/Chrome/User Data",
            r"Software\Google\Chrome\NativeMessagingHosts",
            ("google-chrome", "google-chrome-stable", "chrome"), "Google Chrome.app",
            "com.google.Chrome", "config/google-chrome/NativeMessagingHosts", None,
            "/etc/opt/chrome/native-messaging-hosts"),
    Browser("chromium", "Chromium", "chromium",
            "chromium", "Chromium", "Chromium/User Data",
            r"Software\Chromium\NativeMessagingHosts",
            ("chromium", "chromium-browser"), "Chromium.app",
            "org.chromium.Chromium", "config/chromium/NativeMessagingHosts", "chromium",
            "/etc/chromium/native-messaging-hosts"),
    Browser("edge", "Microsoft Edge", "chromium",
            "microsoft-edge", "Microsoft Edge", "Microsoft/Edge/User Data",
            r"Software\Microsoft\Edge\NativeMessagingHosts",
            ("microsoft-edge", "microsoft-edge-stable", "msedge"), "Microsoft Edge.app",
            "com.microsoft.Edge", "config/microsoft-edge/NativeMessagingHosts", None,
            "/etc/opt/edge/native-messaging-hosts"),
    Browser("brave", "Brave", "chromium",
            "BraveSoftware/Brave-Browser", "BraveSoftware/Brave-Browser",
            "BraveSoftware/Brave-Browser/User Data",
            r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts",
            ("brave-browser", "brave"), "Brave Browser.app",
            "com.brave.Browser", "config/BraveSoftware/Brave-Browser/NativeMessagingHosts",
            "brave"),
    Browser("vivaldi", "Vivaldi", "chromium",
            "vivaldi", "Vivaldi", "Vivaldi/User Data",
            r"Software\Vivaldi\NativeMessagingHosts",
            ("vivaldi", "vivaldi-stable"), "Vivaldi.app",
            "com.vivaldi.Vivaldi", "config/vivaldi/NativeMessagingHosts", "vivaldi"),
    Browser("firefox", "Firefox", "firefox",
            # Firefox ignores XDG on Linux: hosts live in ~/.mozilla, see manifest_dir().
            ".mozilla", "Mozilla", "Mozilla/Firefox",
            r"Software\Mozilla\NativeMessagingHosts",
            ("firefox",), "Firefox.app",
            "org.mozilla.firefox", ".mozilla/native-messaging-hosts", "firefox",
            "/usr/lib/mozilla/native-messaging-hosts"),
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


HOSTS_FOLDERS = {"NativeMessagingHosts", "native-messaging-hosts"}


def _used(folder: Path) -> bool:
    """A profile folder the browser itself has written to (not just one Relay created)."""
    try:
        return any(child.name not in HOSTS_FOLDERS for child in folder.iterdir())
    except OSError:
        return False


def _native_binary(browser: Browser, machine: Machine) -> bool:
    for binary in browser.binaries:
        found = machine.which(binary)
        # Ubuntu's `chromium`/`firefox` commands may only start the Snap: that is not a native
        # install (its folders are elsewhere).
        if found and not Path(found).resolve().is_relative_to(machine.root / "snap"):
            return True
    return False


def is_present(browser: Browser, machine: Machine) -> bool:
    """The browser is installed natively: its profile folder is in use, or its program (app
    bundle on macOS) is found."""
    if _used(profile_root(browser, machine)):
        return True
    if _native_binary(browser, machine):
        return True
    return any((root / browser.darwin_app).exists() for root in machine.app_roots)


def flatpak_present(browser: Browser, machine: Machine) -> bool:
    if machine.system != "linux" or browser.flatpak_id is None:
        return False
    places = [machine.home / ".var" / "app", *(d / "app" for d in machine.flatpak_dirs())]
    return any((place / browser.flatpak_id).is_dir() for place in places)


def snap_present(browser: Browser, machine: Machine) -> bool:
    if machine.system != "linux" or browser.snap is None:
        return False
    return (machine.home / "snap" / browser.snap).is_dir() or (
        machine.root / "snap" / browser.snap).is_dir()


def any_present(browser: Browser, machine: Machine) -> bool:
    return (is_present(browser, machine) or flatpak_present(browser, machine)
            or snap_present(browser, machine))


def present_browsers(machine: Machine) -> list[Browser]:
    return [b for b in BROWSERS if any_present(b, machine)]


def system_manifest_dir(browser: Browser, machine: Machine) -> Path | None:
    """Where a distribution package puts the manifest for everyone (Linux only)."""
    if machine.system != "linux" or browser.linux_system_dir is None:
        return None
    return machine.root.joinpath(*PurePosixPath(browser.linux_system_dir).parts[1:])
