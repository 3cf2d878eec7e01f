"""Names and ids that tie the extension, the host manifests and the bridge together."""

from __future__ import annotations

# Native-messaging host name: what the extension passes to connectNative().
HOST_NAME = "dev.relay.bridge"
HOST_DESCRIPTION = "Relay bridge: fills job applications from your local profile"

# The extension's id follows from the fixed `key` in extension/manifest.json.
CHROME_EXTENSION_IDS: tuple[str, ...] = ("oohbnckbgppopfjgnninihfpgibipmeo",)
FIREFOX_ADDON_IDS: tuple[str, ...] = ("relay@relay.dev",)

BRIDGE_VERSION = "0.1.0"
PROTOCOL_VERSION = "1.0"
PROTOCOL_MAJOR = 1


def allowed_chrome_origins() -> list[str]:
    return [f"chrome-extension://{ext_id}/" for ext_id in CHROME_EXTENSION_IDS]
