"""The rules data's kept parses: read instead of the TOML while the file is unchanged, parsed
again once it changes, and never needed (a folder that cannot be written, or where Python writes
no bytecode, only means every bridge parses)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.rules import data

PATTERNS = '[[field]]\nkey = "email"\nmatch = ["email", "e-mail"]\n'


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A rules folder of one pattern file, in place of Relay's, with bytecode writing on."""
    (tmp_path / "fields").mkdir()
    (tmp_path / "fields" / "en.toml").write_text(PATTERNS, encoding="utf-8")
    monkeypatch.setattr(data, "rules_dir", lambda: tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    data.load_toml.cache_clear()
    yield tmp_path
    data.load_toml.cache_clear()


def _fresh_load() -> dict[str, object]:
    data.load_toml.cache_clear()  # as a new bridge process would
    return data.load_toml("fields/en.toml")


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    import tomllib

    seen: list[str] = []
    real = tomllib.loads

    def counted(text: str) -> dict[str, object]:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(tomllib, "loads", counted)
    return seen


def test_the_kept_parse_is_read_until_the_file_changes(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parses = _parses(monkeypatch)
    first = _fresh_load()
    assert first == {"field": [{"key": "email", "match": ["email", "e-mail"]}]}
    assert data.kept_path(rules / "fields" / "en.toml").is_file()
    assert _fresh_load() == first
    assert len(parses) == 1  # the second bridge read the kept parse
    (rules / "fields" / "en.toml").write_text(PATTERNS.replace('"e-mail"', '"mail"'), "utf-8")
    assert _fresh_load()["field"] == [{"key": "email", "match": ["email", "mail"]}]
    assert len(parses) == 2
    assert _fresh_load()["field"] == [{"key": "email", "match": ["email", "mail"]}]
    assert len(parses) == 2  # the new parse was kept in place of the old one


def test_an_unreadable_kept_parse_is_parsed_again(rules: Path) -> None:
    _fresh_load()
    data.kept_path(rules / "fields" / "en.toml").write_bytes(b"\x00 not marshal")
    assert _fresh_load()["field"] == [{"key": "email", "match": ["email", "e-mail"]}]


def test_nothing_is_kept_where_python_writes_no_bytecode_or_cannot_write(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert _fresh_load()["field"]
    assert not (rules / "fields" / data.KEPT_FOLDER).exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    (rules / "fields" / data.KEPT_FOLDER).write_text("a file where the folder would be")
    assert _fresh_load()["field"]  # loaded all the same
    assert data.keep_parsed() == 0


def test_keep_parsed_keeps_every_file_of_relays_rules() -> None:
    data.load_toml.cache_clear()
    files = sorted(data.rules_dir().rglob("*.toml"))
    assert data.keep_parsed() == len(files)
    assert all(data.kept_path(path).is_file() for path in files)
