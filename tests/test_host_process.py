"""The real `relay-bridge` executable, driven over pipes."""

from __future__ import annotations

import struct
from pathlib import Path

from tests.bridge_process import BridgeProcess
from tests.conftest import SAMPLE_PROFILE


def test_hello_ping_and_clean_exit(relay_home: Path) -> None:
    bridge = BridgeProcess("chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/")
    hello = bridge.request("hello", {"protocol": "1.0", "extension_version": "0.1.0"})
    assert hello["ok"], hello
    assert hello["result"]["profile"] == {"source": "store", "error": ""}
    assert bridge.request("ping", rid="2")["result"]["pong"] is True
    code, rest, _ = bridge.close()
    assert code == 0 and rest == b""
    assert (relay_home / "logs" / "bridge.log").is_file()


def test_fill_plan_through_the_process() -> None:
    bridge = BridgeProcess(env={"RELAY_PROFILE": str(SAMPLE_PROFILE)})
    fields = [
        {"id": "f1", "widget": "email", "type": "email", "name": "email", "label": "Email"},
        {"id": "f2", "widget": "text", "name": "first_name", "label": "First name"},
    ]
    payload = {"url": "http://127.0.0.1/", "frames": [{"fields": fields}]}
    reply = bridge.request("fill.plan", payload)
    assert reply["ok"], reply
    decisions = {d["field_id"]: d for d in reply["result"]["decisions"]}
    assert decisions["f1"]["value"] == "ada.lovelace@example.com"
    assert decisions["f2"]["value"] == "Ada"
    assert bridge.close()[0] == 0


def test_the_log_holds_no_profile_value_even_when_debugging(relay_home: Path) -> None:
    """The bridge's log names fields and decisions; what the profile answers never goes in it."""
    bridge = BridgeProcess(env={"RELAY_PROFILE": str(SAMPLE_PROFILE), "RELAY_DEBUG": "1"})
    asked = [("email", "Email"), ("tel", "Phone"), ("text", "Last name"),
             ("text", "Street address"), ("text", "Postal code"), ("text", "LinkedIn profile")]
    fields = [{"id": f"f{i}", "widget": "email" if kind == "email" else "text", "type": kind,
               "label": label} for i, (kind, label) in enumerate(asked)]
    payload = {"url": "http://127.0.0.1/", "frames": [{"fields": fields}]}
    reply = bridge.request("fill.plan", payload)
    values = {d["value"] for d in reply["result"]["decisions"] if d["value"]}
    assert len(values) >= 5, reply
    assert bridge.close()[0] == 0
    log = (relay_home / "logs" / "bridge.log").read_text(encoding="utf-8")
    assert "6 fields, 6 to apply" in log  # the plan itself is logged
    assert [v for v in values if v in log] == []


def test_missing_profile_is_a_clear_error() -> None:
    bridge = BridgeProcess(env={"RELAY_PROFILE": "/nonexistent/profile.json"})
    reply = bridge.request("fill.plan", {"frames": []})
    assert reply["error"]["code"] == "E_PROFILE_MISSING"
    assert bridge.close()[0] == 0


def test_invalid_profile_names_the_path(tmp_path: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text('{"application": {"salaryExpectation": {"amount": "lots", "currency": "USD"}}}')
    bridge = BridgeProcess(env={"RELAY_PROFILE": str(bad)})
    reply = bridge.request("fill.plan", {"frames": []})
    assert reply["error"]["code"] == "E_PROFILE_INVALID"
    assert "application.salaryExpectation.amount" in reply["error"]["message"]
    bridge.close()


def test_broken_stream_exits_without_traceback_on_stdout() -> None:
    bridge = BridgeProcess()
    bridge.send_raw(struct.pack("=I", 50) + b'{"v":1')
    assert bridge.proc.stdin is not None
    bridge.proc.stdin.close()
    reply = bridge.receive()
    assert reply["error"]["code"] == "E_BAD_FRAME"
    code = bridge.proc.wait(timeout=10)
    assert code == 3
    assert bridge.proc.stdout is not None and bridge.proc.stdout.read() == b""


def test_refused_origin_exits_4() -> None:
    bridge = BridgeProcess("chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/")
    assert bridge.request("hello")["error"]["code"] == "E_ORIGIN_REFUSED"
    assert bridge.proc.wait(timeout=10) == 4


def test_blocked_submissions_are_validated_and_audited(relay_home: Path) -> None:
    bridge = BridgeProcess(env={"RELAY_PROFILE": str(SAMPLE_PROFILE)})
    fields = [{"id": "f1", "widget": "email", "type": "email", "label": "Email"}]
    plan = bridge.request("fill.plan", {"url": "http://127.0.0.1/", "frames": [{"fields": fields}]})
    run_id = plan["result"]["run_id"]
    attempt = {"kind": "request_submit", "frame": "0", "field_id": "f1", "phase": "apply",
               "detail": 'While filling "Email": a script on the page asked to send the form'}
    applied = bridge.request("fill.applied", {
        "run_id": run_id, "blocked": [attempt],
        "results": [{"field_id": "f1", "status": "applied", "value_after": "ada@example.com"}],
    }, rid="2")
    assert applied["ok"] and applied["result"]["recorded"] == 1, applied
    late = {**attempt, "kind": "navigation", "phase": "after", "field_id": "", "times": 3}
    assert bridge.request("fill.blocked", {"run_id": run_id, "blocked": [late]}, rid="3")[
        "result"] == {"recorded": 3}
    # The same request again writes nothing new.
    assert bridge.request("fill.blocked", {"run_id": run_id, "blocked": [late]}, rid="3")[
        "result"] == {"recorded": 3}
    bad = [
        {"run_id": run_id, "blocked": []},  # nothing to report
        {"run_id": run_id, "blocked": [{**late, "kind": "clicked"}]},
        {"run_id": run_id, "blocked": [{**late, "detail": "x" * 301}]},
        {"run_id": run_id, "blocked": [late] * 51},
    ]
    for n, payload in enumerate(bad):
        assert bridge.request("fill.blocked", payload, rid=f"bad-{n}")["error"]["code"] == (
            "E_BAD_PAYLOAD")
    unknown = bridge.request("fill.blocked", {"run_id": "run-nope", "blocked": [late]}, rid="4")
    assert unknown["error"]["code"] == "E_NOT_FOUND"
    assert bridge.close()[0] == 0

    from bridge.store import Store

    with Store.open(relay_home) as store:
        stopped = [e for e in store.audit_entries(run_id) if e["action"] == "page.submit_blocked"]
    assert [e["payload"]["count"] for e in stopped] == [1, 3]
    assert stopped[0]["payload"]["attempts"] == [
        {"kind": "request_submit", "frame": "0", "field_id": "f1", "phase": "apply", "times": 1}]
    assert stopped[1]["payload"]["attempts"][0]["phase"] == "after"
    assert all(e["decision"] == "blocked" and "Email" not in str(e) for e in stopped)
