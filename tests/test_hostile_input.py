"""Hostile but well-formed input: a clear error code for each, nothing stored in its name, and a
bridge that keeps answering. Driven through the real `relay-bridge` process."""

from __future__ import annotations

import importlib
import json
import os
import struct
import tracemalloc
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from bridge.actions.registry import ACTIONS
from bridge.rules.memo import DEFAULT_BUDGET
from bridge.store import Store
from tests.bridge_process import BridgeProcess
from tests.conftest import SAMPLE_PROFILE

FIELD = {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"}


def _runs(home: Path) -> int:
    with Store.open(home) as store:
        return len(store.history())


@pytest.fixture
def bridge(relay_home: Path) -> Any:
    process = BridgeProcess(env={"RELAY_PROFILE": str(SAMPLE_PROFILE)})
    yield process
    assert process.request("ping", rid="still-there")["result"]["pong"] is True
    assert process.close()[0] == 0


def _raw(bridge: BridgeProcess, body: bytes) -> dict[str, Any]:
    bridge.send_raw(struct.pack("=I", len(body)) + body)
    return bridge.receive()


def test_numbers_and_nesting_that_break_the_parser_are_bad_json(bridge: BridgeProcess) -> None:
    deep = b'{"v":1,"id":"a","type":"ping","payload":' + b"[" * 1000 + b"]" * 1000 + b"}"
    digits = b'{"v":1,"id":"b","type":"fill.ack","payload":{"run_id":"r","up_to_seq":'
    for body in (deep, digits + b"9" * 5000 + b"}}"):
        reply = _raw(bridge, body)
        assert reply["error"]["code"] == "E_BAD_JSON", reply


def test_nan_and_infinity_are_bad_json(bridge: BridgeProcess) -> None:
    """Python's parser reads them; the answer would have echoed them, and the browser cannot
    parse a frame holding one (a cost cap of Infinity came back as `"value":Infinity`)."""
    for n, constant in enumerate((b"NaN", b"Infinity", b"-Infinity")):
        body = (b'{"v":1,"id":"c%d","type":"settings.set","payload":'
                b'{"key":"limits.cap_per_fill_usd","value":%s}}' % (n, constant))
        reply = _raw(bridge, body)
        assert reply["error"]["code"] == "E_BAD_JSON", reply
        assert constant.lstrip(b"-").decode() in reply["error"]["message"]


def test_integers_past_what_the_store_holds_are_bad_payloads(
    bridge: BridgeProcess, relay_home: Path
) -> None:
    plan = bridge.request("fill.plan", {"frames": [{"fields": [FIELD]}]})
    run_id = plan["result"]["run_id"]
    for n, seq in enumerate((2**63, 2**64 + 1, -1)):
        reply = bridge.request("fill.ack", {"run_id": run_id, "up_to_seq": seq}, rid=f"ack-{n}")
        assert reply["error"]["code"] == "E_BAD_PAYLOAD", reply
        assert "up_to_seq" in reply["error"]["message"]
    report = {"run_id": run_id, "results": [], "up_to_seq": 2**63}
    assert bridge.request("fill.applied", report, rid="applied")["error"]["code"] == "E_BAD_PAYLOAD"
    assert _runs(relay_home) == 1


def test_row_numbers_past_what_the_store_holds_are_bad_payloads(bridge: BridgeProcess) -> None:
    """The console's application and saved-answer numbers reach SQLite, which holds 64 bits."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("application.get", {"application_id": 2**63}),
        ("application.update", {"application_id": 2**64, "notes": "x"}),
        ("answers.update", {"answer_id": 2**63, "value": "x"}),
        ("answers.delete", {"answer_id": 10**30}),
    ]
    for n, (kind, payload) in enumerate(cases):
        reply = bridge.request(kind, payload, rid=f"row-{n}")
        assert reply["error"]["code"] == "E_BAD_PAYLOAD", reply
        assert next(iter(payload)) in reply["error"]["message"]
    found = bridge.request("application.get", {"application_id": 2**63 - 1}, rid="largest")
    assert found["error"]["code"] == "E_NOT_FOUND", found


def test_every_integer_and_string_of_every_request_has_a_bound() -> None:
    """No integer past 64 bits and no string of 16 MiB gets through any request model (a 14 MB
    document in base64 is the longest a request may carry): each is refused or cut."""
    too_long = "x" * (2**24 + 1)
    open_ended = []
    for kind, path, leaf in request_leaves():
        base = typing.get_args(leaf)[0] if typing.get_origin(leaf) is Annotated else leaf
        if (kind, path) in CHECKED_ELSEWHERE:
            continue
        try:
            got = TypeAdapter(leaf).validate_python(2**63 if base is int else too_long)
        except ValidationError:
            continue
        if base is str and len(got) < len(too_long):
            continue  # cut, as page text is
        open_ended.append(f"{kind}: {path}")
    assert open_ended == []


# profile.update's patch is any JSON (a merge patch); the profile it makes is validated whole.
CHECKED_ELSEWHERE = {("profile.update", "UpdateRequest.patch[]")}


def request_leaves() -> Iterator[tuple[str, str, Any]]:
    """(request type, field path, the int or str type with its constraints) for every request."""
    for kind, module_name in ACTIONS.items():
        model = getattr(importlib.import_module(module_name), "PAYLOAD_MODEL", None)
        if model is not None:
            for path, leaf in _leaves(model, [], kind, set()):
                yield kind, path, leaf


def _leaves(ann: Any, meta: list[Any], path: str, seen: set[type]) -> Iterator[tuple[str, Any]]:
    origin = typing.get_origin(ann)
    if origin is Annotated:
        base, *extra = typing.get_args(ann)
        yield from _leaves(base, [*meta, *extra], path, seen)
    elif isinstance(ann, type) and issubclass(ann, BaseModel):
        if ann not in seen:
            seen.add(ann)
            for name, info in ann.model_fields.items():
                yield from _leaves(info.annotation, list(info.metadata), f"{ann.__name__}.{name}",
                                   seen)
    elif origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(ann):  # a field's bound applies to each of its kinds
            yield from _leaves(arg, meta, path, seen)
    elif origin is not None:
        for arg in typing.get_args(ann):  # a list's or dict's own bound is not its items'
            yield from _leaves(arg, [], path + "[]", seen)
    elif ann in (int, str):
        yield path, Annotated[ann, *meta] if meta else ann


def test_long_identifiers_are_refused_and_never_echoed_whole(bridge: BridgeProcess) -> None:
    huge = "x" * 2_000_000
    cases: list[tuple[str, dict[str, Any]]] = [
        ("fill.ack", {"run_id": huge, "up_to_seq": 1}),
        ("fill.applied", {"run_id": huge, "results": []}),
        ("fill.plan", {"frames": [{"fields": [{**FIELD, "id": huge}]}]}),
    ]
    for n, (kind, payload) in enumerate(cases):
        reply = bridge.request(kind, payload, rid=f"long-{n}")
        assert reply["error"]["code"] == "E_BAD_PAYLOAD", reply["error"]["code"]
        assert len(reply["error"]["message"]) < 300
    unknown = bridge.request("fill.ack", {"run_id": "r" * 64, "up_to_seq": 1}, rid="unknown")
    assert unknown["error"]["code"] == "E_NOT_FOUND"
    assert len(unknown["error"]["message"]) < 150


def test_page_text_is_cut_not_refused(bridge: BridgeProcess) -> None:
    """A page may hold a megabyte label; the rest of its form is still planned."""
    giant = {**FIELD, "id": "f2", "name": "q", "label": "Tell us about yourself " * 50_000,
             "options": [{"value": str(i), "text": "o" * 10_000} for i in range(3)]}
    reply = bridge.request("fill.plan", {"frames": [{"fields": [FIELD, giant]}]})
    assert reply["ok"], reply
    decisions = {d["field_id"]: d for d in reply["result"]["decisions"]}
    assert decisions["f1"]["value"] == "Ada"
    assert len(decisions["f2"]["label"]) <= 2000


def test_too_many_fields_is_refused_before_anything_is_stored(
    bridge: BridgeProcess, relay_home: Path
) -> None:
    fields = [{**FIELD, "id": f"f{i}", "name": f"q{i}"} for i in range(4000)]
    frames = [{"frame": "0", "fields": fields}, {"frame": "1", "fields": fields}]
    reply = bridge.request("fill.plan", {"frames": frames}, rid="many")
    assert reply["error"]["code"] == "E_BAD_PAYLOAD"
    assert "8000 fields" in reply["error"]["message"]
    assert _runs(relay_home) == 0


def test_a_plan_too_large_to_send_is_not_stored(relay_home: Path, tmp_path: Path) -> None:
    """Every file field carries the whole file: six 2 MB resumes cannot be sent in one answer."""
    resume = tmp_path / "resume.pdf"
    resume.write_bytes(b"%PDF-1.4\n" + os.urandom(2_000_000))
    profile = json.loads(SAMPLE_PROFILE.read_text())
    profile["application"]["documents"]["resume"] = str(resume)
    (tmp_path / "profile.json").write_text(json.dumps(profile))
    bridge = BridgeProcess(env={"RELAY_PROFILE": str(tmp_path / "profile.json")})
    files = [
        {"id": f"f{i}", "widget": "file", "type": "file", "name": f"resume{i}", "label": "Resume"}
        for i in range(6)
    ]
    reply = bridge.request("fill.plan", {"frames": [{"fields": files}]})
    assert reply["error"]["code"] == "E_RESULT_TOO_LARGE", reply
    assert "too large to send" in reply["error"]["message"]
    assert _runs(relay_home) == 0
    fits = bridge.request("fill.plan", {"frames": [{"fields": files[:1]}]}, rid="2")
    assert fits["ok"] and fits["result"]["decisions"][0]["file"]["size"] > 2_000_000
    assert bridge.close()[0] == 0


def test_text_caches_hold_a_bounded_number_of_characters() -> None:
    """The long-lived host must not keep every unique page string it ever saw."""
    from bridge.rules.text import fold

    fold.cache_clear()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(3000):
            fold(f"question {n} " + "lorem ipsum " * 100)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert fold.held <= DEFAULT_BUDGET
    # Unbounded, 3,000 keys and values of 1.2 kB each would keep over 7 MB.
    assert kept < 3 * DEFAULT_BUDGET
    assert fold("Prénom") == "prenom"  # still a cache, still right
