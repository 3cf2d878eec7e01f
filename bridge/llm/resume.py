"""Text of the profile's resume PDF, which the fabrication guard checks answers against.

pypdf is optional: without it (or without a resume) the guard checks against the profile alone.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from bridge.profile import LoadedProfile

log = logging.getLogger(__name__)


@lru_cache(maxsize=8)
def _extract(path: Path, mtime_ns: int) -> str:
    del mtime_ns  # part of the cache key only: a changed file is read again
    try:
        from pypdf import PdfReader
    except ImportError:
        log.info("pypdf not installed; resume text unavailable")
        return ""
    try:
        reader = PdfReader(str(path))
        return "\n".join((page.extract_text() or "") for page in reader.pages).strip()
    except Exception as exc:  # a damaged PDF must not break a fill
        log.warning("cannot read resume %s: %s", path.name, exc)
        return ""


def resume_text(profile: LoadedProfile) -> str:
    path = profile.document_path("resume")
    if path is None:
        return ""
    if path.suffix.lower() in {".txt", ".md"}:
        return path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() != ".pdf":
        return ""
    return _extract(path, path.stat().st_mtime_ns)
