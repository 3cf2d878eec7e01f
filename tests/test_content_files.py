"""The content script's file list (extension/content/files.js): every content file is injected,
each after the files it takes parts from when it loads, and none is an ES module (an injected
script cannot be one; a page could fetch a web-accessible one)."""

from __future__ import annotations

import json
import re

from tests.content_script import EXTENSION, content_files

# `relayContent.dom` or `relayContent["drivers/util"]` read when a file loads.
_USES = re.compile(r'relayContent(?:\.(\w+)|\["([\w/]+)"\])')


def _part(name: str) -> str:
    return name.removeprefix("content/").removesuffix(".js")


def test_every_content_file_is_injected_once_after_what_it_uses() -> None:
    files = content_files()
    on_disk = {p.relative_to(EXTENSION).as_posix() for p in (EXTENSION / "content").rglob("*.js")}
    assert sorted(files) == sorted(on_disk - {"content/files.js"})
    assert len(files) == len(set(files))
    assert files[0] == "content/namespace.js" and files[-1] == "content/listen.js"
    loaded: set[str] = set()
    for name in files:
        text = (EXTENSION / name).read_text(encoding="utf-8")
        own = _part(name)
        # What the file registers is its own part; everything else it reads must be loaded.
        uses = {a or b for a, b in _USES.findall(text)} - {own}
        assert uses <= loaded, (name, sorted(uses - loaded))
        loaded.add(own)


def test_no_content_file_is_a_module_and_nothing_is_web_accessible() -> None:
    for name in content_files():
        text = (EXTENSION / name).read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import|export)\s", text, re.M), name
    manifest = json.loads((EXTENSION / "manifest.json").read_text(encoding="utf-8"))
    assert "web_accessible_resources" not in manifest
    assert "content_scripts" not in manifest
