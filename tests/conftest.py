"""Shared test fixtures: repository paths, an isolated RELAY_HOME, Chromium discovery."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"
FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def relay_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder: nothing touches the developer's real one."""
    home = tmp_path_factory.mktemp("relay-home")
    monkeypatch.setenv("RELAY_HOME", str(home))
    monkeypatch.delenv("RELAY_PROFILE", raising=False)
    return home


def chromium_path() -> str | None:
    return os.environ.get("RELAY_CHROMIUM") or shutil.which("chromium")


@pytest.fixture(scope="session")
def chromium() -> Iterator[str]:
    path = chromium_path()
    if not path:
        pytest.fail("Chromium is required for browser tests: run ./dev setup")
    yield path
