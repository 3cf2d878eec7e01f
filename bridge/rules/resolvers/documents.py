"""Documents: the resume and the cover letter files."""

from __future__ import annotations

import mimetypes

from bridge.forms import FileRef
from bridge.rules.model import Answer, Missing
from bridge.rules.resolvers.base import Ask, Result


def resolve(ask: Ask) -> Result:
    kind = "resume" if ask.key == "documents.resume" else "coverLetter"
    path = ask.lp.document_path(kind)  # type: ignore[arg-type]
    if path is None:
        return Missing(f"no {kind} file in the profile")
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Answer(
        "file", path.name, file=FileRef(name=path.name, mime=mime, size=path.stat().st_size)
    )
