"""Promise 1, read off the source: no code in the extension submits a form or presses Enter.

The end-to-end tests count submits on every fixture page (and the submit-trap pages count the
requests that reach the server); this catches a new code path before a fixture exercises it.

The submit guard has to name what it holds: its page-world half (`main-world-guard.js`) swaps
HTMLFormElement.prototype.submit and requestSubmit for stand-ins and puts them back. That module
alone may name requestSubmit, and it may not invoke any function it did not write (no call, apply,
bind or Reflect), so it cannot call what it saved. Calls stay forbidden everywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1] / "extension"
GUARD_MODULE = "background/main-world-guard.js"
NAMES = r"(?:submit|requestSubmit)"
FORBIDDEN = [
    (re.compile(rf"\.\s*{NAMES}\s*\("), "calls form.submit() or requestSubmit()"),
    (re.compile(rf"\[\s*['\"`]{NAMES}['\"`]\s*\]\s*\("), "calls form[\"submit\"]()"),
    (re.compile(rf"\b{NAMES}\s*\.\s*(?:call|apply|bind)\b"), "calls submit via call/apply/bind"),
    (re.compile(r"new\s+SubmitEvent\b|new\s+Event\(\s*['\"]submit['\"]"), "fires a submit event"),
    (re.compile(r"dispatchEvent\([^)]*['\"]submit['\"]"), "dispatches submit"),
    (re.compile(r"press\w*\([^)]*['\"]Enter['\"]"), "presses Enter"),
    (re.compile(r"key\s*:\s*['\"]Enter['\"]"), "builds an Enter key event"),
]
# Outside the guard module, naming requestSubmit at all is a reason to look.
MENTION = (re.compile(r"\brequestSubmit\b"), "names form.requestSubmit()")
# The guard module never invokes a function it holds.
GUARD_FORBIDDEN = [
    (re.compile(r"\.\s*(?:call|apply|bind)\s*\("), "the guard invokes a saved function"),
    (re.compile(r"\bReflect\s*\."), "the guard invokes a saved function"),
]


def code_lines(text: str) -> list[tuple[int, str]]:
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(("//", "*", "/*")):
            continue
        lines.append((number, line))
    return lines


def offences(relative: str, text: str) -> list[str]:
    rules = list(FORBIDDEN)
    rules += GUARD_FORBIDDEN if relative == GUARD_MODULE else [MENTION]
    return [
        f"{relative}:{number}: {why}"
        for number, line in code_lines(text)
        for pattern, why in rules
        if pattern.search(line)
    ]


def test_no_extension_code_submits_or_presses_enter() -> None:
    scripts = sorted(EXTENSION.rglob("*.js"))
    assert len(scripts) > 20, "the extension's scripts were not found"
    assert (EXTENSION / GUARD_MODULE).is_file()
    found = [
        offence
        for path in scripts
        for offence in offences(path.relative_to(EXTENSION).as_posix(), path.read_text("utf-8"))
    ]
    assert found == []


def test_the_check_catches_real_calls_in_any_module() -> None:
    calls = [
        "form.submit();",
        "form.requestSubmit(button);",
        "el.form . submit ()",
        'form["requestSubmit"]()',
        "form['submit']()",
        "HTMLFormElement.prototype.submit.call(form);",
        "saved.requestSubmit.apply(form, []);",
        "const go = proto.submit.bind(form);",
        "form.dispatchEvent(new SubmitEvent('submit'));",
        "el.dispatchEvent(new Event('submit', {bubbles: true}));",
        'pressKey(el, "Enter");',
    ]
    for relative in ("content/apply.js", GUARD_MODULE):
        for line in calls:
            assert offences(relative, line), (relative, line)


def test_only_the_guard_module_may_hold_the_methods_and_never_call_them() -> None:
    holding = 'const NAMES = ["submit", "requestSubmit"];\nObject.defineProperty(proto, k, before);'
    assert offences(GUARD_MODULE, holding) == []
    assert offences("content/apply.js", holding)  # named anywhere else: flagged
    assert offences(GUARD_MODULE, "before.value.call(this);")
    assert offences(GUARD_MODULE, "Reflect.apply(saved, form, []);")
    # What the rest of the extension legitimately says about submit controls passes.
    for line in ('if (control.type === "submit") return true;', "const who = event.submitter;",
                 'input[type=submit], button[type=submit]'):
        assert offences("content/drivers/util.js", line) == []
