"""Framing and envelope rules, byte for byte, in process."""

from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path

import pytest

from bridge.host import caller_allowed, serve
from bridge.protocol.envelopes import MAX_CHUNKS, split_reply
from bridge.protocol.errors import ErrorCode
from bridge.protocol.framing import HEADER, MAX_INBOUND, MAX_OUTBOUND, read_frame

DOCS = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def frame(obj: object) -> bytes:
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return struct.pack("=I", len(body)) + body


def run_host(stream: bytes, argv: tuple[str, ...] = ()) -> tuple[int, list[dict[str, object]]]:
    out = io.BytesIO()
    code = serve(io.BytesIO(stream), out, argv)
    out.seek(0)
    replies = []
    while True:
        head = out.read(HEADER.size)
        if not head:
            break
        (length,) = HEADER.unpack(head)
        assert length <= MAX_OUTBOUND
        replies.append(json.loads(out.read(length)))
    return code, replies


def req(kind: str, rid: str = "1", **payload: object) -> dict[str, object]:
    return {"v": 1, "id": rid, "type": kind, "payload": payload}


def test_ping_and_hello_round_trip() -> None:
    code, replies = run_host(frame(req("hello", "a", protocol="1.0")) + frame(req("ping", "b")))
    assert code == 0
    assert replies[0]["ok"] and replies[0]["id"] == "a"
    result = replies[0]["result"]
    assert isinstance(result, dict) and result["protocol"] == "1.0"
    assert replies[1] == {"v": 1, "id": "b", "ok": True, "result": replies[1]["result"]}


def error_code(reply: dict[str, object]) -> str:
    assert reply["ok"] is False
    error = reply["error"]
    assert isinstance(error, dict)
    return str(error["code"])


def test_short_header_ends_stream_with_error() -> None:
    code, replies = run_host(b"\x05\x00")
    assert code == 3
    assert error_code(replies[0]) == ErrorCode.BAD_FRAME


def test_truncated_body_ends_stream() -> None:
    code, replies = run_host(struct.pack("=I", 100) + b"{}")
    assert code == 3 and error_code(replies[0]) == ErrorCode.BAD_FRAME


def test_oversize_length_refused_before_reading_body() -> None:
    class Exploding(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            if size is not None and size > MAX_INBOUND:
                raise AssertionError("body of an oversize frame was read")
            return super().read(size)

    stream = Exploding(struct.pack("=I", MAX_INBOUND + 1) + b"x" * 10)
    with pytest.raises(Exception) as info:
        read_frame(stream)
    assert getattr(info.value, "code", None) == ErrorCode.FRAME_TOO_LARGE
    code, replies = run_host(struct.pack("=I", MAX_INBOUND + 1))
    assert code == 3 and error_code(replies[0]) == ErrorCode.FRAME_TOO_LARGE


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\xff\xfe{}", ErrorCode.BAD_ENCODING),
        (b"{not json", ErrorCode.BAD_JSON),
        (b"[1, 2]", ErrorCode.BAD_JSON),
        (json.dumps({"v": 1, "type": "ping"}).encode(), ErrorCode.BAD_ENVELOPE),
        (json.dumps({"v": 1, "id": "x", "type": "ping", "payload": 3}).encode(),
         ErrorCode.BAD_ENVELOPE),
        (json.dumps({"v": "1", "id": "x", "type": "ping"}).encode(), ErrorCode.BAD_ENVELOPE),
        (json.dumps(req("no.such.thing")).encode(), ErrorCode.UNKNOWN_TYPE),
        (json.dumps({**req("ping"), "v": 2}).encode(), ErrorCode.UNSUPPORTED_VERSION),
        (json.dumps(req("hello", protocol="2.0")).encode(), ErrorCode.UNSUPPORTED_VERSION),
        (json.dumps(req("fill.plan", frames=[{"fields": [{"name": "x"}]}])).encode(),
         ErrorCode.BAD_PAYLOAD),
        (json.dumps(req("fill.plan", frames="nope")).encode(), ErrorCode.BAD_PAYLOAD),
    ],
)
def test_bad_messages_get_stable_codes_and_the_stream_goes_on(body: bytes, code: str) -> None:
    exit_code, replies = run_host(frame(body) + frame(req("ping", "after")))
    assert exit_code == 0
    assert error_code(replies[0]) == code
    assert replies[1]["ok"] is True and replies[1]["id"] == "after"


def test_bad_payload_names_the_field_path() -> None:
    _, replies = run_host(frame(req("fill.plan", frames=[{"fields": [{"name": "x"}]}])))
    error = replies[0]["error"]
    assert isinstance(error, dict)
    assert "frames.0.fields.0.id" in str(error["message"])


def test_large_reply_is_chunked_and_reassembles() -> None:
    reply = {"v": 1, "id": "big", "ok": True, "result": {"blob": 'x"\\é' * 600_000}}
    frames = split_reply(reply)
    assert len(frames) > 1
    for index, piece in enumerate(frames):
        assert len(json.dumps(piece, ensure_ascii=False).encode()) <= MAX_OUTBOUND
        assert piece["chunk"]["index"] == index and piece["chunk"]["count"] == len(frames)
    joined = "".join(str(piece["chunk"]["data"]) for piece in frames)
    assert json.loads(joined) == reply


def test_reply_needing_too_many_chunks_fails_cleanly() -> None:
    blob = "x" * (MAX_OUTBOUND * MAX_CHUNKS)
    reply = {"v": 1, "id": "huge", "ok": True, "result": {"blob": blob}}
    with pytest.raises(Exception) as info:
        split_reply(reply)
    assert getattr(info.value, "code", None) == ErrorCode.RESULT_TOO_LARGE


@pytest.mark.parametrize(
    ("argv", "allowed"),
    [
        ((), True),
        (("chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/",), True),
        (("chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/", "--parent-window=1234"), True),
        (("chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/",), False),
        (("/home/x/.mozilla/native-messaging-hosts/dev.relay.bridge.json", "relay@relay.dev"),
         True),
        (("/home/x/.mozilla/native-messaging-hosts/dev.relay.bridge.json", "evil@example.com"),
         False),
        (("C:\\Relay\\dev.relay.bridge.json", "relay@relay.dev"), True),
        # The add-on id alone is not enough: the first argument must be this host's manifest.
        (("anything", "relay@relay.dev"), False),
        (("/tmp/other-host.json", "relay@relay.dev"), False),
        (("/x/dev.relay.bridge.json", "relay@relay.dev", "extra"), False),
        # Chrome passes --parent-window only beside the caller's origin.
        (("--parent-window=5",), False),
        (("chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/", "extra"), False),
    ],
)
def test_caller_check(argv: tuple[str, ...], allowed: bool) -> None:
    assert caller_allowed(argv)[0] is allowed


def test_refused_caller_gets_one_error_and_the_host_exits() -> None:
    code, replies = run_host(
        frame(req("hello")) + frame(req("ping", "2")),
        ("chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/",),
    )
    assert code == 4
    assert len(replies) == 1 and error_code(replies[0]) == ErrorCode.ORIGIN_REFUSED


def test_protocol_doc_lists_every_error_code() -> None:
    documented = set(re.findall(r"`(E_[A-Z_]+)`", DOCS.read_text()))
    assert {c.value for c in ErrorCode} <= documented
