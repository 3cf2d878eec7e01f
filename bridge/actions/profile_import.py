"""`profile.import`: a JSON Resume the person chose (a file's text, or the facts they confirmed
from their resume), with the resume file itself when they brought one. Stored as read; the
warnings say what was upgraded from older names and what job forms will miss."""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime

MAX_TEXT = 5 * 1024 * 1024
MAX_FILE_B64 = 14 * 1024 * 1024  # a 10 MB document


class Document(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    data_b64: str = Field(max_length=MAX_FILE_B64)


class ImportRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    text: str = Field(max_length=MAX_TEXT)  # JSON Resume text; a byte-order mark is fine
    source_name: str = Field(default="", max_length=200)  # the file's name, for the record
    resume: Document | None = None  # the resume file to attach to application forms


PAYLOAD_MODEL = ImportRequest


def parse(payload: dict[str, Any]) -> ImportRequest:
    return validate_payload(ImportRequest, payload)


def _safe_file_name(name: str) -> str:
    cleaned = re.sub(r"[^\w.\- ]+", "_", name.replace("\\", "/").rsplit("/", 1)[-1]).strip(" .")
    return cleaned or "resume"


def handle(runtime: Runtime, payload: ImportRequest, request: Request) -> dict[str, Any]:
    from bridge.actions.profile_get import document
    from bridge.jsonresume import decode, read
    from bridge.paths import private_dir

    text = decode(payload.text)
    raw, warnings = read(text)
    notes = raw != json.loads(text)
    if notes:
        # Older names were upgraded: what is stored is what Relay read, and the person was told.
        text = json.dumps(raw, ensure_ascii=False, indent=2)
    folder = private_dir(runtime.home / "documents" / _safe_file_name(payload.name))
    resume_name = ""
    if payload.resume is not None:
        try:
            data = base64.b64decode(payload.resume.data_b64, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise RelayError(ErrorCode.BAD_PAYLOAD, "resume.data_b64: not base64") from exc
        resume_name = _safe_file_name(payload.resume.name)
        (folder / resume_name).write_bytes(data)
    source = f"console: {payload.source_name}" if payload.source_name else "console"
    store = runtime.store()
    name, replaced = store.import_profile_text(
        text, payload.name, source_path=source, base_dir=folder
    )
    documents = raw.get("application", {}).get("documents", {}) if isinstance(raw, dict) else {}
    if resume_name and not documents.get("resume"):
        # The file is attached as an edit: the imported text stays as it was read.
        store.edit_profile(name, {"application": {"documents": {"resume": resume_name}}})
    # Audited by name and shape only: the profile's content stays out of the log.
    store.audit(actor=runtime.door, action="profile.import", payload={
        "name": name, "replaced": replaced, "resume": bool(resume_name), "upgraded": bool(notes),
    })
    result = document(runtime, name)
    result["replaced"] = replaced
    result["warnings"] = list(dict.fromkeys(warnings + result["warnings"]))
    return result
