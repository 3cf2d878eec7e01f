"""Property-based fuzzing of the framing and of every request type (a fast slice for CI;
`bench/fuzz.py` runs 100,000 cases through the real process).

Whatever the frame holds, the bridge answers with well-formed frames that fit the port, never
with E_INTERNAL, and the store stays sound.
"""

from __future__ import annotations

import io
import json
import random
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge.host import HostSession
from bridge.protocol.framing import MAX_OUTBOUND, write_frame
from tests.conftest import SAMPLE_PROFILE
from tests.fuzz_inputs import frame_body, strict_json


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostSession]:
    home = tmp_path_factory.mktemp("fuzz-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RELAY_HOME", str(home))
        patch.setenv("RELAY_PROFILE", str(SAMPLE_PROFILE))
        host = HostSession(io.BytesIO(), io.BytesIO(), [])
        yield host
        if host.runtime is not None:
            runtime = host.runtime
            store = runtime.store()
            assert store.conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            runtime.close()


def _check(host: HostSession, body: bytes) -> None:
    for frame in host._answer(body):
        out = io.BytesIO()
        write_frame(out, frame)  # raises if it were not a frame the port can carry
        data = out.getvalue()
        (length,) = struct.unpack("=I", data[:4])
        assert length == len(data) - 4 <= MAX_OUTBOUND
        decoded = strict_json(data[4:])  # what the browser could not parse fails here
        if decoded.get("ok") is False:
            assert decoded["error"]["code"] != "E_INTERNAL", (body[:300], decoded)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_any_request_gets_a_frame_and_never_an_internal_error(
    session: HostSession, rng: random.Random
) -> None:
    _check(session, frame_body(rng))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=512))
def test_any_bytes_get_a_frame_and_never_an_internal_error(
    session: HostSession, body: bytes
) -> None:
    _check(session, body)


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=30,
    ),
    st.sampled_from(["fill.plan", "fill.applied", "fill.ack", "fill.blocked", "hello"]),
)
def test_any_json_payload_gets_a_frame_and_never_an_internal_error(
    session: HostSession, payload: object, kind: str
) -> None:
    body = json.dumps({"v": 1, "id": "h", "type": kind, "payload": payload}).encode()
    _check(session, body)


def test_the_fuzzed_store_is_sound(session: HostSession, tmp_path: Path) -> None:
    """Runs last in the module: the fixture's teardown checks integrity after every case."""
    del tmp_path
    _check(session, b'{"v":1,"id":"last","type":"ping","payload":{}}')
