"""Lone UTF-16 surrogates (what a cut in the middle of an emoji leaves) at every boundary of the
bridge: they never stop a Fill and never end the host.

JSON can carry them as `\\udXXX` escapes; Python decodes those to code points that cannot be
encoded as UTF-8, which is where the hashing, the store, the logs and the framing used to fail.
"""

from __future__ import annotations

import json
import logging
import struct
from pathlib import Path

import pytest

from bridge.protocol.errors import ErrorCode
from bridge.protocol.framing import decode_body, encode_frame
from bridge.protocol.text import well_formed
from tests.bridge_process import BridgeProcess
from tests.conftest import SAMPLE_PROFILE

HIGH = "\ud83d"  # the first half of 😀, alone
LOW = "\ude00"  # the second half, alone


def raw_frame(text: str) -> bytes:
    """A frame whose JSON text carries lone surrogates as escapes (as a browser would send)."""
    body = text.encode("ascii")
    return struct.pack("=I", len(body)) + body


def escaped(obj: object) -> str:
    # json.dumps with ensure_ascii escapes every non-ASCII character, lone surrogates included.
    return json.dumps(obj, ensure_ascii=True)


def test_well_formed_replaces_only_lone_surrogates() -> None:
    assert well_formed(f"a{HIGH}b{LOW}c") == "a\ufffdb\ufffdc"
    assert well_formed("emoji 😀 stays") == "emoji 😀 stays"
    assert well_formed("plain") == "plain"


def test_payload_strings_are_made_well_formed_at_decode() -> None:
    text = escaped(
        {"v": 1, "id": "r1", "type": "ping", "payload": {f"k{HIGH}": [f"label {LOW}", {"x": HIGH}]}}
    )
    message = decode_body(text.encode("ascii"))
    payload = message["payload"]
    assert payload == {"k\ufffd": ["label \ufffd", {"x": "\ufffd"}]}
    json.dumps(message, ensure_ascii=False).encode("utf-8")  # encodable now


def test_encode_frame_never_raises_on_lone_surrogates() -> None:
    frame = encode_frame({"v": 1, "id": "x", "ok": True, "result": {"label": f"cut {HIGH}"}})
    body = json.loads(frame[4:].decode("utf-8"))
    assert body["result"]["label"] == "cut \ufffd"


def test_log_file_survives_lone_surrogates(tmp_path: Path) -> None:
    from bridge.logs import surrogate_safe_handler

    handler = surrogate_safe_handler(logging.FileHandler(tmp_path / "x.log", encoding="utf-8"))
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "id %s", (f"r{HIGH}",), None)
    handler.handle(record)
    handler.close()
    assert "r\ufffd" in (tmp_path / "x.log").read_text(encoding="utf-8")


@pytest.fixture
def bridge() -> BridgeProcess:
    return BridgeProcess(env={"RELAY_PROFILE": str(SAMPLE_PROFILE)})


def test_host_answers_frames_with_lone_surrogates_and_stays_up(bridge: BridgeProcess) -> None:
    cases = [
        # (JSON text, expected code or None for a normal answer)
        (escaped({"v": 1, "id": f"r{HIGH}", "type": "ping", "payload": {}}), "E_BAD_ENVELOPE"),
        (escaped({"v": 1, "id": f"r{LOW}2", "type": "ping", "payload": {}}), "E_BAD_ENVELOPE"),
        (escaped({"v": 1, "id": "r3", "type": f"ping{HIGH}", "payload": {}}), "E_BAD_ENVELOPE"),
        (escaped({"v": 1, "id": "r4", "type": "ping", "payload": {}, f"x{HIGH}": 1}),
         "E_BAD_ENVELOPE"),
        (escaped({"v": 1, "id": "r5", "type": "ping", "payload": {f"k{HIGH}": f"v{LOW}"}}), None),
    ]
    for text, expected in cases:
        bridge.send_raw(raw_frame(text))
        reply = bridge.receive()
        if expected is None:
            assert reply["ok"] is True, reply
        else:
            assert reply["ok"] is False and reply["error"]["code"] == expected, reply
            assert ErrorCode(expected)  # a stable, documented code
            assert "surrogate" in reply["error"]["message"]
    assert bridge.request("ping", rid="after")["ok"] is True
    exit_code, rest, stderr = bridge.close()
    assert exit_code == 0 and rest == b"", stderr
    assert b"Traceback" not in stderr


def test_fill_plan_with_lone_surrogates_in_labels_options_and_text(bridge: BridgeProcess) -> None:
    label = "E" * 299 + HIGH  # a label cut at 300 in the middle of an emoji
    fields = [
        {"id": "f1", "widget": "email", "type": "email", "name": "email", "label": "Email " + LOW},
        {"id": "f2", "widget": "text", "name": "first_name", "label": f"First name {HIGH}"},
        {"id": "f3", "widget": "text", "name": "x", "label": label},
        {
            "id": "f4",
            "widget": "select",
            "name": "country",
            "label": "Country",
            "options": [{"value": "", "text": f"Select {HIGH}"}, {"value": "GB", "text": "United "
                        f"Kingdom {LOW}"}],
        },
    ]
    payload = {
        "url": "http://127.0.0.1/",
        "title": f"Apply {LOW}",
        "job_text": "x" * 19_999 + HIGH,
        "frames": [{"fields": fields}],
    }
    bridge.send_raw(raw_frame(escaped({"v": 1, "id": "p1", "type": "fill.plan",
                                       "payload": payload})))
    reply = bridge.receive()
    assert reply["ok"], reply
    decisions = {d["field_id"]: d for d in reply["result"]["decisions"]}
    assert decisions["f1"]["value"] == "ada.lovelace@example.com"
    assert decisions["f2"]["value"] == "Ada"
    assert decisions["f3"]["label"].endswith("\ufffd")
    assert bridge.close()[0] == 0
