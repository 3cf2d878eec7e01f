"""The loopback server that serves fixture and corpus pages to Chromium."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from bridge.driver.static_server import StaticServer


def test_pages_are_served_as_utf8(tmp_path: Path) -> None:
    """A page that declares no charset must still reach the browser as UTF-8 (a label such as
    "Straße" or "Имя" would otherwise be decoded as windows-1252)."""
    (tmp_path / "form.html").write_text("<label>Straße <input></label>", encoding="utf-8")
    (tmp_path / "app.js").write_text("const name = 'Имя';", encoding="utf-8")
    with StaticServer(tmp_path) as server:
        for name, kind in (("form.html", "text/html"), ("app.js", "text/javascript")):
            with urllib.request.urlopen(server.url(name)) as response:
                content_type = response.headers["Content-Type"]
            assert content_type.split(";")[0] == kind
            assert response.headers.get_content_charset() == "utf-8", content_type
