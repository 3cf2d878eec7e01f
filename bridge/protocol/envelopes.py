"""Message envelopes: requests in, replies and events out.

Request  {"v":1,"id":"…","type":"…","payload":{…}}
Reply    {"v":1,"id":"…","ok":true,"result":{…}} | {"v":1,"id":"…","ok":false,"error":{…}}
Chunk    {"v":1,"id":"…","ok":true,"chunk":{"index":i,"count":n,"data":"…"}}
Event    {"v":1,"type":"event","seq":N,"event":{…}}
Chunk    {"v":1,"type":"event","seq":N,"chunk":{"index":i,"count":n,"data":"…"}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bridge.identity import PROTOCOL_MAJOR
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.protocol.framing import MAX_OUTBOUND, to_utf8

if TYPE_CHECKING:
    from pydantic import ValidationError

# Room for the chunk envelope around each piece of a large reply.
CHUNK_DATA_BYTES = MAX_OUTBOUND - 4096
MAX_CHUNKS = 64


MAX_ID = 200
MAX_TYPE = 100


@dataclass(frozen=True)
class Request:
    """A request envelope. Checked by hand, not by pydantic, so that the host can answer its
    first `hello` before pydantic is even imported (cold start is part of every Fill).
    Payloads are validated by each action's pydantic model."""

    v: int
    id: str
    type: str
    payload: dict[str, Any] = field(default_factory=dict)


def parse_request(message: dict[str, Any]) -> Request:
    """Validate the envelope; the version first, so old and new peers get a clear answer."""
    version = message.get("v")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RelayError(ErrorCode.BAD_ENVELOPE, "v: must be the protocol major version number")
    if version != PROTOCOL_MAJOR:
        raise RelayError(
            ErrorCode.UNSUPPORTED_VERSION,
            f"protocol v{version} is not supported; this bridge speaks v{PROTOCOL_MAJOR}",
        )
    problems = []
    request_id, kind = message.get("id"), message.get("type")
    payload = message.get("payload", {})
    if not isinstance(request_id, str) or not 0 < len(request_id) <= MAX_ID:
        problems.append(f"id: must be a string of 1 to {MAX_ID} characters")
    if not isinstance(kind, str) or not 0 < len(kind) <= MAX_TYPE:
        problems.append(f"type: must be a string of 1 to {MAX_TYPE} characters")
    if not isinstance(payload, dict):
        problems.append("payload: must be a JSON object")
    extra = sorted(set(message) - {"v", "id", "type", "payload"})
    if extra:
        problems.append(f"{', '.join(extra)}: not allowed in a request")
    if problems:
        raise RelayError(ErrorCode.BAD_ENVELOPE, "; ".join(problems))
    assert isinstance(request_id, str) and isinstance(kind, str) and isinstance(payload, dict)
    return Request(v=version, id=request_id, type=kind, payload=payload)


def request_id_of(message: dict[str, Any]) -> str:
    """Best-effort id for an error reply to a message whose envelope may be broken."""
    value = message.get("id")
    return value if isinstance(value, str) and 0 < len(value) <= MAX_ID else ""


def ok_reply(request_id: str, result: dict[str, Any]) -> dict[str, Any]:
    return {"v": PROTOCOL_MAJOR, "id": request_id, "ok": True, "result": result}


def error_reply(request_id: str, code: ErrorCode, message: str) -> dict[str, Any]:
    body = {"code": code.value, "message": message}
    return {"v": PROTOCOL_MAJOR, "id": request_id, "ok": False, "error": body}


def event_message(seq: int, event: dict[str, Any]) -> dict[str, Any]:
    return {"v": PROTOCOL_MAJOR, "type": "event", "seq": seq, "event": event}


def split_event(seq: int, event: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames for an event: itself when it fits, else chunks of the event object's JSON text,
    each carrying the event's `seq` (a replayed resume is larger than one frame)."""
    message = event_message(seq, event)
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    if len(to_utf8(text)) <= CHUNK_DATA_BYTES:
        return [message]
    head = {"v": PROTOCOL_MAJOR, "type": "event", "seq": seq}
    return _chunked(text, head, "event")


def check_reply_fits(result: dict[str, Any]) -> None:
    """Raise E_RESULT_TOO_LARGE unless `result` can be sent; called before anything is stored,
    so a caller that gets the error finds nothing recorded in its name."""
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    if len(text) > _CHUNK_CHARS * MAX_CHUNKS:
        size, limit = len(text) / 1e6, _CHUNK_CHARS * MAX_CHUNKS / 1e6
        raise RelayError(
            ErrorCode.RESULT_TOO_LARGE,
            f"the answer is too large to send ({size:.1f} MB of at most {limit:.1f} MB); "
            "attached files count in full for each file field",
        )


def split_reply(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the frames for a reply: itself when it fits, else numbered chunks of its JSON text."""
    text = json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
    if len(to_utf8(text)) <= MAX_OUTBOUND:
        return [reply]
    head = {"v": PROTOCOL_MAJOR, "id": str(reply.get("id", "")), "ok": True}
    return _chunked(text, head, "result")


def _chunked(text: str, head: dict[str, Any], what: str) -> list[dict[str, Any]]:
    """`text` in numbered chunks, each frame `head` plus its chunk."""
    pieces = _split_utf8(text)
    if len(pieces) > MAX_CHUNKS:
        raise RelayError(
            ErrorCode.RESULT_TOO_LARGE,
            f"{what} needs {len(pieces)} chunks; at most {MAX_CHUNKS} are sent",
        )
    return [
        {**head, "chunk": {"index": index, "count": len(pieces), "data": piece}}
        for index, piece in enumerate(pieces)
    ]


def describe_validation(exc: ValidationError) -> str:
    """One line per problem, each naming the field path, for people and logs."""
    parts = []
    for err in exc.errors():
        path = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"{path}: {err['msg'].removeprefix('Value error, ')}")
    return "; ".join(parts)


# A character is at most 4 UTF-8 bytes, and escaping inside the chunk string at most doubles it
# (quotes and backslashes), so slicing by characters keeps every chunk under CHUNK_DATA_BYTES.
_CHUNK_CHARS = CHUNK_DATA_BYTES // 8


def _split_utf8(text: str) -> list[str]:
    return [text[i : i + _CHUNK_CHARS] for i in range(0, len(text), _CHUNK_CHARS)]
