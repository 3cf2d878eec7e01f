"""Timestamps as Relay stores them: UTC with milliseconds, as text that sorts in time order."""

from __future__ import annotations

from datetime import UTC, datetime


def now_iso() -> str:
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
