"""Loading the rules data (`rules/*.toml`) once, from the checkout or installed package data."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any


def rules_dir() -> Path:
    """The `rules/` data folder: the repo root's, else one installed next to this package."""
    here = Path(__file__).resolve()
    candidates = [here.parents[2] / "rules", here.parent / "data", here.parents[1] / "rules_data"]
    for path in candidates:
        if (path / "fields").is_dir():
            return path
    raise FileNotFoundError(
        "rules data folder not found (looked in: " + ", ".join(map(str, candidates)) + ")"
    )


@cache
def load_toml(relative: str) -> dict[str, Any]:
    path = rules_dir() / relative
    with path.open("rb") as handle:
        return tomllib.load(handle)


@cache
def list_toml(folder: str) -> tuple[str, ...]:
    """Relative paths of the TOML files in one data folder, sorted so loading is deterministic."""
    base = rules_dir() / folder
    return tuple(f"{folder}/{p.name}" for p in sorted(base.glob("*.toml")))
