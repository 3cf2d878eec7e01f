"""Shared test fixtures: repository paths, an isolated RELAY_HOME, Chromium discovery, and Relay
in Chromium beside the served test fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bridge.driver.chromium import find_chromium
from bridge.protocol.errors import RelayError

if TYPE_CHECKING:
    from bridge.driver.session import RelayBrowser
    from bridge.driver.static_server import StaticServer

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
# Fixtures every module may name: the keychain's stand-in (`memory_keyring`).
pytest_plugins = ["tests.keyring_standin"]

SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"
FIXTURES = REPO / "tests" / "fixtures"
# "build": tests/test_bundle.py runs `./dev bundle` itself before its tests (once, on one worker).
BUILD_BUNDLE_ENV = "RELAY_TEST_BUNDLE"


@pytest.fixture(autouse=True)
def relay_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder: nothing touches the developer's real one."""
    home = tmp_path_factory.mktemp("relay-home")
    monkeypatch.setenv("RELAY_HOME", str(home))
    monkeypatch.delenv("RELAY_PROFILE", raising=False)
    return home


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long modules first (the workers take modules in this order: the longest must not start
    last). Desktop-build tests run only when `./dev bundle` has made the build (dist/bundle.json),
    or when RELAY_TEST_BUNDLE=build asks tests/test_bundle.py to make it first (.ci/run).
    """
    del config
    items.sort(key=lambda item: "long" not in item.keywords)  # stable: each module stays in order
    if (REPO / "dist" / "bundle.json").is_file() or os.environ.get(BUILD_BUNDLE_ENV) == "build":
        return
    skip = pytest.mark.skip(reason="no desktop build in dist/: run ./dev bundle first")
    for item in items:
        if "bundle" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Chromium's path, found as `relay fill` finds it (RELAY_CHROMIUM, then PATH)."""
    try:
        return str(find_chromium())
    except RelayError as exc:
        pytest.fail(f"browser tests need Chromium: {exc.message}")


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, chromium: str,
            request: pytest.FixtureRequest) -> Iterator[tuple[RelayBrowser, StaticServer]]:
    """One Chromium with Relay and the sample profile per module, its own data folder, and
    tests/fixtures served on loopback (a module that needs more defines its own `session`)."""
    from bridge.driver.session import relay_browser
    from bridge.driver.static_server import StaticServer

    del chromium
    home = tmp_path_factory.mktemp(f"relay-home-{request.module.__name__.rsplit('.', 1)[-1]}")
    with StaticServer(FIXTURES) as server, relay_browser(SAMPLE_PROFILE, home=home) as browser:
        yield browser, server
