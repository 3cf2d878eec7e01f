"""`profile.extract`: facts read from a PDF or DOCX resume, for the person to confirm or fix.
Nothing is stored: the confirmed facts come back as a `profile.import`."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.profile_import import MAX_FILE_B64
from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime


class ExtractRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file_name: str = Field(min_length=1, max_length=200)
    data_b64: str = Field(max_length=MAX_FILE_B64)


PAYLOAD_MODEL = ExtractRequest


def parse(payload: dict[str, Any]) -> ExtractRequest:
    return validate_payload(ExtractRequest, payload)


def handle(runtime: Runtime, payload: ExtractRequest, request: Request) -> dict[str, Any]:
    from bridge.resume_extract import extract_facts, extract_text

    try:
        data = base64.b64decode(payload.data_b64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "data_b64: not base64") from exc
    text = extract_text(payload.file_name, data)
    facts = extract_facts(text)
    warnings = []
    if not text.strip():
        warnings.append(
            "No text could be read from this file (a scanned image?): fill in the form."
        )
    elif not facts:
        warnings.append("Relay found no details it could read by its rules: fill in the form.")
    return {
        "facts": [fact.model_dump() for fact in facts],
        "text_chars": len(text),
        "warnings": warnings,
    }
