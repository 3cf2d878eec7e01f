"""Native-messaging framing: a 4-byte length in native byte order, then UTF-8 JSON.

Reading and writing are kept apart from dispatch so the host loop and the tests share one
implementation. Inbound frames over MAX_INBOUND are refused before their body is read; no
outbound frame exceeds MAX_OUTBOUND (the browser's limit for host-to-extension messages).
"""

from __future__ import annotations

import json
import struct
from typing import Any, BinaryIO

from bridge.protocol.errors import ErrorCode, RelayError
from bridge.protocol.text import (
    has_lone_surrogate,
    may_hold_surrogates,
    well_formed,
    well_formed_json,
)

HEADER = struct.Struct("=I")
MAX_INBOUND = 64 * 1024 * 1024
MAX_OUTBOUND = 1024 * 1024


class EnvelopeError(RelayError):
    """A request whose envelope is unusable; `request_id` is the best id to answer it under."""

    def __init__(self, code: ErrorCode, message: str, request_id: str) -> None:
        super().__init__(code, message)
        self.request_id = request_id


class StreamClosed(Exception):
    """The peer closed the stream cleanly between frames."""


class BrokenStream(RelayError):
    """The byte stream can no longer be trusted (short header, oversize length, truncated body).

    After this no further frame can be located, so the host must exit.
    """


def read_frame(stream: BinaryIO) -> bytes:
    """Read one frame's body. Raises StreamClosed at a clean end of stream."""
    header = _read_exact(stream, HEADER.size)
    if not header:
        raise StreamClosed
    if len(header) < HEADER.size:
        raise BrokenStream(ErrorCode.BAD_FRAME, "stream ended inside a frame header")
    (length,) = HEADER.unpack(header)
    if length > MAX_INBOUND:
        raise BrokenStream(
            ErrorCode.FRAME_TOO_LARGE, f"frame of {length} bytes exceeds {MAX_INBOUND} bytes"
        )
    body = _read_exact(stream, length)
    if len(body) < length:
        raise BrokenStream(
            ErrorCode.BAD_FRAME, f"stream ended after {len(body)} of {length} body bytes"
        )
    return body


def _not_json(name: str) -> Any:
    # Python reads NaN and Infinity; JSON has no such numbers, and an answer echoing one would
    # be a frame the browser cannot parse.
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


def decode_body(body: bytes) -> dict[str, Any]:
    """Turn a frame body into a JSON object, with a stable code for each way it can be wrong.

    Lone surrogates in the payload are replaced (U+FFFD), so no later step fails to encode them;
    in the envelope itself (id, type, keys) they make the request unusable: E_BAD_ENVELOPE."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RelayError(ErrorCode.BAD_ENCODING, f"frame is not valid UTF-8: {exc.reason}") from exc
    try:
        value = json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        raise RelayError(ErrorCode.BAD_JSON, f"frame is not valid JSON: {exc.msg}") from exc
    except RecursionError as exc:
        raise RelayError(ErrorCode.BAD_JSON, "frame is not valid JSON: nested too deeply") from exc
    except ValueError as exc:  # an integer of more digits than Python converts (4,300)
        too_long = "frame is not valid JSON: a number is too long"
        raise RelayError(ErrorCode.BAD_JSON, too_long) from exc
    if not isinstance(value, dict):
        raise RelayError(ErrorCode.BAD_JSON, "frame must be a JSON object")
    message: dict[str, Any] = value
    return _well_formed_message(message) if may_hold_surrogates(text) else message


def _well_formed_message(message: dict[str, Any]) -> dict[str, Any]:
    envelope = [k for k in message if has_lone_surrogate(k)]
    for k in ("id", "type"):
        value = message.get(k)
        if isinstance(value, str) and has_lone_surrogate(value):
            envelope.append(k)
    try:
        clean: dict[str, Any] = well_formed_json(message)
    except RecursionError as exc:
        raise RelayError(ErrorCode.BAD_JSON, "frame is not valid JSON: nested too deeply") from exc
    if envelope:
        names = ", ".join(sorted({well_formed(k) for k in envelope}))
        rid = clean.get("id")
        raise EnvelopeError(
            ErrorCode.BAD_ENVELOPE,
            f"{names}: must be well-formed text (it holds a lone UTF-16 surrogate)",
            rid if isinstance(rid, str) else "",
        )
    return clean


def encode_frame(message: dict[str, Any]) -> bytes:
    body = to_utf8(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
    if len(body) > MAX_OUTBOUND:
        raise RelayError(ErrorCode.RESULT_TOO_LARGE, f"frame of {len(body)} bytes is too large")
    return HEADER.pack(len(body)) + body


def to_utf8(text: str) -> bytes:
    """UTF-8 bytes of JSON text; a lone surrogate (from anywhere) becomes U+FFFD, never an error."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return well_formed(text).encode("utf-8")


def write_frame(stream: BinaryIO, message: dict[str, Any]) -> None:
    stream.write(encode_frame(message))
    stream.flush()  # an unflushed frame hangs the port silently


def _read_exact(stream: BinaryIO, size: int) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        chunk = stream.read(remaining)
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)
