"""`profile.extract`: facts read from a PDF or DOCX resume, for the person to confirm or fix.
Rules first; with a model set up, one guarded model call adds what the rules missed. Nothing is
stored: the confirmed facts come back as a `profile.import`."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.profile_import import MAX_FILE_B64
from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime

if TYPE_CHECKING:
    from bridge.llm.resume_facts import ModelReading
    from bridge.resume_extract import Fact


class ExtractRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file_name: str = Field(min_length=1, max_length=200)
    data_b64: str = Field(max_length=MAX_FILE_B64)


PAYLOAD_MODEL = ExtractRequest


def parse(payload: dict[str, Any]) -> ExtractRequest:
    return validate_payload(ExtractRequest, payload)


def handle(runtime: Runtime, payload: ExtractRequest, request: Request) -> dict[str, Any]:
    from bridge.resume_align import placed
    from bridge.resume_extract import extract_facts, extract_text

    try:
        data = base64.b64decode(payload.data_b64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise RelayError(ErrorCode.BAD_PAYLOAD, "data_b64: not base64") from exc
    text = extract_text(payload.file_name, data)
    facts = extract_facts(text)
    warnings: list[str] = []
    refused: list[dict[str, str]] = []
    if text.strip():
        reading = _read_with_model(runtime, text, facts)
        if reading is not None:
            facts = placed(facts, reading.facts)  # each beside the rules' facts of its entry
            refused = [r.model_dump() for r in reading.refused]
            warnings += reading.warnings
    if not text.strip():
        warnings.append(
            "No text could be read from this file (a scanned image?): fill in the form."
        )
    elif not facts:
        warnings.append("Relay found no details it could read by its rules: fill in the form.")
    return {
        "facts": [fact.model_dump() for fact in facts],
        "refused": refused,
        "text_chars": len(text),
        "warnings": warnings,
    }


def _read_with_model(runtime: Runtime, text: str, facts: list[Fact]) -> ModelReading | None:
    """The model's checked facts, or None when no model is set up."""
    from bridge import config_file
    from bridge.llm.config import load_config
    from bridge.llm.ledger import CachedAnswer
    from bridge.llm.resume_facts import read_with_model
    from bridge.store.llm_ledger import StoreLlmLedger

    config = load_config(path=config_file.config_path(runtime.home))
    if not config.enabled:
        return None
    ledger = StoreLlmLedger(runtime.store(), CachedAnswer)
    return read_with_model(text, facts, config=config, ledger=ledger)
