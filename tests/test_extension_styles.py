"""One look for the console and the side panel: both pages load the shared tokens stylesheet, and
their own stylesheets name no colour, font family or custom property of their own, only the
tokens'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

EXTENSION = REPO / "extension"
TOKENS = EXTENSION / "shared" / "tokens.css"
PAGES = {
    EXTENSION / "options" / "options.html": ["options.css"],
    EXTENSION / "sidepanel" / "panel.html": ["panel.css", "choose.css"],
}
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(|\b(?:white|black)\b(?![-\w])")
OWN_PROPERTY = re.compile(r"(?<![\w-])--[\w-]+\s*:")


def _rules(css: str) -> str:
    without_comments = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    # Property values only: `white-space: nowrap` is not a colour.
    return " ".join(m.group(1) for m in re.finditer(r":\s*([^;{}]+)", without_comments))


@pytest.mark.parametrize("page", sorted(PAGES), ids=lambda p: p.parent.name)
def test_each_page_loads_the_tokens_first_then_only_its_own_sheets(page: Path) -> None:
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page.read_text(encoding="utf-8"))
    assert sheets == ["../shared/tokens.css", *PAGES[page]]


@pytest.mark.parametrize(
    "sheet", sorted(page.parent / name for page, names in PAGES.items() for name in names),
    ids=lambda p: p.name,
)
def test_a_page_stylesheet_uses_the_tokens_and_no_colour_of_its_own(sheet: Path) -> None:
    css = sheet.read_text(encoding="utf-8")
    assert not OWN_PROPERTY.findall(css), f"{sheet.name} defines its own variables"
    values = _rules(css)
    assert not COLOUR.findall(values), f"{sheet.name} names colours: {COLOUR.findall(values)}"
    assert "system-ui" not in values, f"{sheet.name} names a font family"
    used = set(re.findall(r"var\((--[\w-]+)\)", css))
    defined = set(re.findall(r"(--[\w-]+)\s*:", TOKENS.read_text(encoding="utf-8")))
    assert used <= defined, f"{sheet.name} uses tokens that do not exist: {used - defined}"
