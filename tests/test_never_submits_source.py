"""Promise 1, read off the source: no code in the extension submits a form or presses Enter.

The end-to-end tests count submits on every fixture page; this catches a new code path before a
fixture happens to exercise it.
"""

from __future__ import annotations

import re
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1] / "extension"
FORBIDDEN = [
    (re.compile(r"\.submit\s*\("), "calls form.submit()"),
    (re.compile(r"\brequestSubmit\b"), "calls form.requestSubmit()"),
    (re.compile(r"new\s+SubmitEvent\b|new\s+Event\(\s*['\"]submit['\"]"), "fires a submit event"),
    (re.compile(r"dispatchEvent\([^)]*['\"]submit['\"]"), "dispatches submit"),
    (re.compile(r"press\w*\([^)]*['\"]Enter['\"]"), "presses Enter"),
    (re.compile(r"key\s*:\s*['\"]Enter['\"]"), "builds an Enter key event"),
]


def code_lines(path: Path) -> list[tuple[int, str]]:
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(("//", "*", "/*")):
            continue
        lines.append((number, line))
    return lines


def test_no_extension_code_submits_or_presses_enter() -> None:
    scripts = sorted(EXTENSION.rglob("*.js"))
    assert len(scripts) > 20, "the extension's scripts were not found"
    offences = [
        f"{path.relative_to(EXTENSION)}:{number}: {why}"
        for path in scripts
        for number, line in code_lines(path)
        for pattern, why in FORBIDDEN
        if pattern.search(line)
    ]
    assert offences == []
