"""Stable error codes. Append only: a code, once published, never changes meaning or is reused.

docs/protocol.md lists the same table for people; tests check the two agree.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    BAD_FRAME = "E_BAD_FRAME"  # length header short or body truncated
    FRAME_TOO_LARGE = "E_FRAME_TOO_LARGE"  # inbound frame over 64 MiB, refused unread
    BAD_ENCODING = "E_BAD_ENCODING"  # body is not UTF-8
    BAD_JSON = "E_BAD_JSON"  # body is not a JSON object
    BAD_ENVELOPE = "E_BAD_ENVELOPE"  # missing or wrong v / id / type / payload
    UNSUPPORTED_VERSION = "E_UNSUPPORTED_VERSION"  # protocol major version differs
    UNKNOWN_TYPE = "E_UNKNOWN_TYPE"  # no such request type
    BAD_PAYLOAD = "E_BAD_PAYLOAD"  # payload fails validation for its type
    RESULT_TOO_LARGE = "E_RESULT_TOO_LARGE"  # reply would need more chunks than allowed
    PROFILE_MISSING = "E_PROFILE_MISSING"  # no profile configured or file not found
    PROFILE_INVALID = "E_PROFILE_INVALID"  # profile fails validation (message names the path)
    ORIGIN_REFUSED = "E_ORIGIN_REFUSED"  # caller is not an allowed Relay extension
    INTERNAL = "E_INTERNAL"  # a bug in Relay; details are in the log, never on the wire
    STORE_FAILED = "E_STORE_FAILED"  # the local database could not be read or written
    NOT_FOUND = "E_NOT_FOUND"  # a referenced run, field or record does not exist
    UNAUTHORIZED = "E_UNAUTHORIZED"  # HTTP: no bearer token, or not Relay's
    HOST_REFUSED = "E_HOST_REFUSED"  # HTTP: the Host header names another server (DNS rebinding)
    BODY_TOO_LARGE = "E_BODY_TOO_LARGE"  # HTTP: the request body is over the limit
    NO_KEYRING = "E_NO_KEYRING"  # no secure OS keyring to keep an API key or store key in


class RelayError(Exception):
    """An error that reaches the caller with a stable code and a plain message."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
