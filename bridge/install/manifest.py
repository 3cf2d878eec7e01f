"""The host manifest: what Relay writes, and what is wrong with one found on disk."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Literal

from bridge.identity import (
    FIREFOX_ADDON_IDS,
    HOST_DESCRIPTION,
    HOST_NAME,
    allowed_chrome_origins,
)
from bridge.install.browsers import Family

ProblemCode = Literal[
    "missing_manifest",
    "unreadable_manifest",
    "invalid_json",
    "name_mismatch",
    "wrong_type",
    "host_not_absolute",
    "host_missing",
    "host_not_executable",
    "wrong_allowed_origin",
]


def build(family: Family, host_path: PurePath) -> dict[str, Any]:
    manifest: dict[str, Any] = {
        "name": HOST_NAME,
        "description": HOST_DESCRIPTION,
        "path": str(host_path),
        "type": "stdio",
    }
    if family == "firefox":
        manifest["allowed_extensions"] = list(FIREFOX_ADDON_IDS)
    else:
        manifest["allowed_origins"] = allowed_chrome_origins()
    return manifest


def render(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2) + "\n").encode("utf-8")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write via a temp file and rename, so a browser never reads half a manifest."""
    fd, tmp = tempfile.mkstemp(prefix=".relay-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)  # browsers run as the same user but other tools may read it
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Finding:
    code: ProblemCode
    message: str


def check_host(value: object, base: Path | None = None) -> list[Finding]:
    """`base`: on Windows a relative `path` is relative to the manifest's folder (what the
    Windows installer writes); elsewhere it must be absolute."""
    if not isinstance(value, str) or not value:
        return [Finding("host_missing", "the manifest has no `path` to the host executable")]
    path = Path(value)
    if not path.is_absolute() and base is not None:
        path = base / path
    if not path.is_absolute():
        return [Finding("host_not_absolute", f"host path is not absolute: {value}")]
    if not path.is_file():
        return [Finding("host_missing", f"host executable does not exist: {value}")]
    if not os.access(path, os.X_OK):
        return [Finding("host_not_executable", f"host is not executable: {value}")]
    return []


def check_data(
    data: bytes, family: Family, base: Path | None = None
) -> tuple[dict[str, Any] | None, list[Finding]]:
    """Parse and check a manifest's bytes; returns the parsed object (if any) and findings."""
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [Finding("invalid_json", f"manifest is not valid JSON: {exc}")]
    if not isinstance(parsed, dict):
        return None, [Finding("invalid_json", "manifest is JSON but not an object")]
    findings: list[Finding] = []
    if parsed.get("name") != HOST_NAME:
        findings.append(Finding(
            "name_mismatch", f"manifest name is {parsed.get('name')!r}, expected {HOST_NAME!r}"))
    if parsed.get("type") != "stdio":
        findings.append(Finding("wrong_type", f"type is {parsed.get('type')!r}, expected 'stdio'"))
    findings.extend(check_host(parsed.get("path"), base))
    if family == "firefox":
        field, expected = "allowed_extensions", list(FIREFOX_ADDON_IDS)
    else:
        field, expected = "allowed_origins", allowed_chrome_origins()
    listed = parsed.get(field)
    missing = [item for item in expected if not isinstance(listed, list) or item not in listed]
    if missing:
        findings.append(Finding(
            "wrong_allowed_origin",
            f"`{field}` does not list {', '.join(missing)} (has {listed!r})"))
    return parsed, findings
