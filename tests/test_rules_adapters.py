"""The ATS adapters' patterns are compiled on first use: each must still compile (a bad one in
`rules/ats/*.toml` fails here, not in the middle of someone's Fill)."""

from __future__ import annotations

import re

from bridge.rules.adapters import adapters


def test_every_adapter_pattern_compiles() -> None:
    rules = [rule for adapter in adapters() for rule in (*adapter.signature, *adapter.rules)]
    assert len(rules) > 100  # every adapter file was read
    for rule in rules:
        assert isinstance(rule.regex, re.Pattern), rule.pattern
        assert rule.lines.flags & re.MULTILINE, rule.pattern
