"""Bounds on what a caller may send: every string and integer in a request model has one.

Identifiers (run ids, field ids, frames) that are too long are refused: a real one is short, so a
long one is a broken or hostile caller. Text read from a page (labels, help text, current values)
is cut instead: a page may hold a 1 MB label, and the rest of its form should still be filled.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field

# SQLite integers are signed 64-bit; sequence numbers stay far below that.
MAX_SEQ = 2**31 - 1
MAX_ROW_ID = 2**63 - 1
MAX_FIELDS = 5000  # fields in one fill request, all frames together
MAX_OPTIONS = 2000
MAX_ATTRS = 64
ECHO_CHARS = 80  # how much of a caller's value an error message repeats


def _clip(limit: int) -> BeforeValidator:
    def clip(value: Any) -> Any:
        return value[:limit] if isinstance(value, str) and len(value) > limit else value

    return BeforeValidator(clip)


RunId = Annotated[str, Field(min_length=1, max_length=64)]
FieldId = Annotated[str, Field(min_length=1, max_length=64)]
FrameId = Annotated[str, Field(max_length=32)]
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]
Count = Annotated[int, Field(ge=0, le=MAX_SEQ)]
RowId = Annotated[int, Field(ge=1, le=MAX_ROW_ID)]  # a row the store numbered (an application)
Word = Annotated[str, _clip(200)]  # names, ids, types, autocomplete tokens, patterns
PageText = Annotated[str, _clip(2000)]  # labels, sections, help text, option texts
PageValue = Annotated[str, _clip(20_000)]  # what a control holds now (a written cover letter)
Url = Annotated[str, _clip(4000)]


def echo(value: str) -> str:
    """A caller's value as an error message may repeat it: a short prefix, quoted."""
    if len(value) <= ECHO_CHARS:
        return repr(value)
    return f"{value[:ECHO_CHARS]!r}… ({len(value)} characters)"
