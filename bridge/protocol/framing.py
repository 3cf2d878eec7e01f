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

HEADER = struct.Struct("=I")
MAX_INBOUND = 64 * 1024 * 1024
MAX_OUTBOUND = 1024 * 1024


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


def decode_body(body: bytes) -> dict[str, Any]:
    """Turn a frame body into a JSON object, with a stable code for each way it can be wrong."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RelayError(ErrorCode.BAD_ENCODING, f"frame is not valid UTF-8: {exc.reason}") from exc
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RelayError(ErrorCode.BAD_JSON, f"frame is not valid JSON: {exc.msg}") from exc
    if not isinstance(value, dict):
        raise RelayError(ErrorCode.BAD_JSON, "frame must be a JSON object")
    return value


def encode_frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(body) > MAX_OUTBOUND:
        raise RelayError(ErrorCode.RESULT_TOO_LARGE, f"frame of {len(body)} bytes is too large")
    return HEADER.pack(len(body)) + body


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
