"""docs/security.md names the tests that show each promise: every one it names exists."""

from __future__ import annotations

import ast
import re

from tests.conftest import REPO

DOC = REPO / "docs" / "security.md"
NAMED = re.compile(r"`((?:tests|bench)/[\w/.-]+?\.py)(?:::(\w+))?`")


def _functions(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def test_every_test_the_security_page_names_exists() -> None:
    named = NAMED.findall(DOC.read_text(encoding="utf-8"))
    assert len(named) > 40  # the page maps every defect and suite bullet to its tests
    missing = [
        f"{path}::{name}" if name else path
        for path, name in named
        if not (REPO / path).is_file() or (name and name not in _functions(path))
    ]
    assert missing == []
