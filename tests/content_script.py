"""The extension's content script as tests load it outside the extension.

Its files are classic scripts that the service worker injects in the order of
extension/content/files.js; read here from that one list so a test loads exactly what ships.
"""

from __future__ import annotations

import re
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1] / "extension"
LISTENER = "content/listen.js"


def content_files() -> list[str]:
    """The content script's files, in injection order, relative to extension/."""
    text = (EXTENSION / "content" / "files.js").read_text(encoding="utf-8")
    return re.findall(r'^\s*"(content/[\w/]+\.js)",$', text, re.M)


def content_source() -> str:
    """Every file but the listener (it needs the extension's messaging), as one script: in a page
    it leaves the parts in `relayContent`, as the isolated world holds them."""
    names = [name for name in content_files() if name != LISTENER]
    return "\n".join((EXTENSION / name).read_text(encoding="utf-8") for name in names)
