"""`relay serve`, the loopback HTTP API, run as the real program and called over real HTTP.

One server for the module (its own RELAY_HOME, the sample profile); each test sends what a
script, a web page or a rebinding attacker would.
"""

from __future__ import annotations

import http.client
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bridge.actions.doors_allowed import EXTENSION_ONLY, PERSON_ONLY
from bridge.actions.registry import ACTIONS
from bridge.api.app import MAX_BODY
from bridge.api.openapi import document
from bridge.api.server import bind
from bridge.store import Store

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"
RELAY = [sys.executable, "-m", "bridge.cli.main"]

FORM = {
    "url": "https://jobs.example.test/apply",
    "title": "Backend Engineer",
    "frames": [
        {
            "frame": "0",
            "fields": [
                {"id": "f1", "widget": "text", "label": "First name", "autocomplete": "given-name"},
                {"id": "f2", "widget": "email", "label": "Email", "type": "email"},
            ],
        }
    ],
}


@dataclass
class Api:
    home: Path
    host: str
    port: int
    token: str

    def call(
        self,
        method: str,
        path: str,
        body: bytes | dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        *,
        auth: bool = True,
    ) -> tuple[int, dict[str, Any], http.client.HTTPResponse]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
        sent = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if auth:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        return response.status, json.loads(raw), response


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    home = tmp_path_factory.mktemp("relay-http-home")
    env = {**os.environ, "RELAY_HOME": str(home), "RELAY_PROFILE": str(SAMPLE_PROFILE)}
    proc = subprocess.Popen(
        [*RELAY, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "Relay API on http://127.0.0.1:" in line, line + (proc.stderr.read() if proc.stderr
                                                           else "")
    port = int(line.split("http://127.0.0.1:", 1)[1].split()[0])
    token = (home / "api-token").read_text().strip()
    yield Api(home=home, host="127.0.0.1", port=port, token=token)
    proc.terminate()
    assert proc.wait(30) == 0
    assert not (home / "api.json").exists(), "the address file goes when the server stops"


def test_the_token_is_random_and_only_the_person_can_read_it(api: Api) -> None:
    mode = stat.S_IMODE((api.home / "api-token").stat().st_mode)
    assert mode == 0o600
    assert len(api.token) >= 40
    info = json.loads((api.home / "api.json").read_text())
    assert info["url"] == f"http://127.0.0.1:{api.port}"


def test_no_token_and_a_wrong_token_are_refused(api: Api) -> None:
    status, body, _ = api.call("POST", "/v1/ping", {}, auth=False)
    assert (status, body["error"]["code"]) == (401, "E_UNAUTHORIZED")
    for wrong in (f"Bearer {api.token[:-1]}x", f"Basic {api.token}", api.token, "Bearer "):
        status, body, _ = api.call("POST", "/v1/ping", {}, {"Authorization": wrong})
        assert (status, body["error"]["code"]) == (401, "E_UNAUTHORIZED"), wrong
    status, body, _ = api.call("POST", "/v1/ping", {})
    assert status == 200 and body["ok"] and body["result"]["pong"] is True


def test_a_web_page_origin_is_refused_and_no_cors_is_offered(api: Api) -> None:
    for origin in ("https://evil.example", "null", f"http://127.0.0.1:{api.port}"):
        status, body, response = api.call("POST", "/v1/ping", {}, {"Origin": origin})
        assert (status, body["error"]["code"]) == (403, "E_ORIGIN_REFUSED"), origin
        assert response.getheader("Access-Control-Allow-Origin") is None
    # A preflight gets no CORS answer either, so a browser never sends the request.
    status, body, response = api.call(
        "OPTIONS", "/v1/fill.plan", None,
        {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, auth=False,
    )
    assert status >= 400 and response.getheader("Access-Control-Allow-Origin") is None


def test_a_rebinding_host_is_refused(api: Api) -> None:
    for host in (f"evil.example:{api.port}", "127.0.0.1:1", "evil.example", ""):
        status, body, _ = api.call("POST", "/v1/ping", {}, {"Host": host})
        assert (status, body["error"]["code"]) == (403, "E_HOST_REFUSED"), host
    status, _, _ = api.call("POST", "/v1/ping", {}, {"Host": f"localhost:{api.port}"})
    assert status == 200


def test_an_oversize_body_is_refused(api: Api) -> None:
    big = b'{"job_text": "' + b"x" * MAX_BODY + b'"}'
    status, body, _ = api.call("POST", "/v1/fill.plan", big)
    assert (status, body["error"]["code"]) == (413, "E_BODY_TOO_LARGE")


def test_unknown_routes_and_types(api: Api) -> None:
    status, body, _ = api.call("GET", "/v2/everything")
    assert (status, body["error"]["code"]) == (404, "E_NOT_FOUND")
    status, body, _ = api.call("GET", "/v1/fill.plan")
    assert (status, body["error"]["code"]) == (404, "E_NOT_FOUND")
    status, body, _ = api.call("POST", "/v1/form.submit", {})
    assert (status, body["error"]["code"]) == (404, "E_UNKNOWN_TYPE")
    # Without the token a route's existence is not even told.
    status, body, _ = api.call("GET", "/v2/everything", auth=False)
    assert status == 401


def test_bad_bodies_get_the_native_codes(api: Api) -> None:
    status, body, _ = api.call("POST", "/v1/fill.plan", b"[1, 2]")
    assert (status, body["error"]["code"]) == (400, "E_BAD_JSON")
    status, body, _ = api.call("POST", "/v1/fill.plan", b"\xff\xfe")
    assert (status, body["error"]["code"]) == (400, "E_BAD_ENCODING")
    status, body, _ = api.call("POST", "/v1/fill.plan", {"frames": [{"fields": [{"id": ""}]}]})
    assert (status, body["error"]["code"]) == (400, "E_BAD_PAYLOAD")
    assert "frames.0.fields.0.id" in body["error"]["message"]


def test_a_retried_idempotency_key_gets_the_first_answer_and_writes_nothing(api: Api) -> None:
    headers = {"Idempotency-Key": "tracker-plan-7"}
    status, first, _ = api.call("POST", "/v1/fill.plan", FORM, headers)
    assert status == 200, first
    plan = first["result"]
    values = {d["field_id"]: d["value"] for d in plan["decisions"]}
    assert values == {"f1": "Ada", "f2": "ada.lovelace@example.com"}
    with Store.open(api.home) as store:
        runs_before = len(store.history())
        entries_before = len(store.audit_entries())
    status, again, _ = api.call("POST", "/v1/fill.plan", FORM, headers)
    assert status == 200 and again == first
    with Store.open(api.home) as store:
        assert len(store.history()) == runs_before
        entries = store.audit_entries()
        # The retry adds the front door's own entry for the call, nothing else.
        assert [e["action"] for e in entries[entries_before:]] == ["http.fill.plan"]
        assert entries[-1]["actor"] == "http" and entries[-1]["run_id"] == plan["run_id"]
        assert [e["action"] for e in entries if e["run_id"] == plan["run_id"]].count(
            "fill.plan") == 1
        # A plan a tool asked for is never replayed into a page in the browser.
        assert store.pending(plan["run_id"]) == []
    # The same key with another body is another request, as request ids are on the native port.
    other = {**FORM, "title": "Staff Engineer"}
    status, second, _ = api.call("POST", "/v1/fill.plan", other, headers)
    assert status == 200 and second["result"]["run_id"] != plan["run_id"]
    status, body, _ = api.call("POST", "/v1/ping", {}, {"Idempotency-Key": "bad key\u00e9"})
    assert (status, body["error"]["code"]) == (400, "E_BAD_ENVELOPE")


def test_profile_summary_through_the_same_dispatcher(api: Api) -> None:
    status, body, _ = api.call("POST", "/v1/profile.summary", {})
    assert status == 200
    paths = {f["path"] for f in body["result"]["facts"]}
    assert "basics.name" in paths
    assert not any(p.startswith(("application.eeo", "basics.email", "basics.phone")) for p in paths)


def test_cost_reads_the_same_ledger_as_relay_cost(api: Api) -> None:
    status, body, _ = api.call("POST", "/v1/cost.summary", {})
    assert status == 200
    with Store.open(api.home) as store:
        assert body["result"] == json.loads(json.dumps(store.cost_summary()))


def test_the_openapi_document_is_served_and_kept_in_docs(api: Api) -> None:
    status, served, _ = api.call("GET", "/openapi.json")
    assert status == 200
    assert served == document()
    kept = json.loads((REPO / "docs" / "openapi.json").read_text())
    assert kept == served, "docs/openapi.json is stale: relay serve --openapi > docs/openapi.json"
    offered = {p.removeprefix("/v1/") for p in served["paths"] if p.startswith("/v1/")}
    assert offered == set(ACTIONS) - EXTENSION_ONLY - PERSON_ONLY
    assert "fill.applied" not in offered and "key.set" not in offered
    plan_body = served["paths"]["/v1/fill.plan"]["post"]["requestBody"]
    assert plan_body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/FillRequest"
    }


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10", "::", "localhost", "example.com"])
def test_no_address_but_loopback_can_be_bound(host: str) -> None:
    with pytest.raises(ValueError, match="refusing to listen"):
        bind(host, 0)


def test_serve_refuses_a_non_loopback_address(tmp_path: Path) -> None:
    env = {**os.environ, "RELAY_HOME": str(tmp_path)}
    done = subprocess.run([*RELAY, "serve", "--host", "0.0.0.0", "--port", "0"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "refusing to listen on '0.0.0.0'" in done.stderr and "loopback" in done.stderr
    assert not (tmp_path / "api-token").exists()


def test_the_extensions_reports_are_not_offered_and_plans_leave_self_identification_out(
    api: Api,
) -> None:
    # What the page did and what the browser acknowledged only the extension can say; what an
    # assistant asked only the person approves (a tool could otherwise approve its own).
    for kind in ["fill.applied", "fill.ack", "fill.blocked", "application.submitted",
                 "approvals.list", "approval.decide"]:
        status, body, _ = api.call("POST", f"/v1/{kind}", {"run_id": "run-x", "up_to_seq": 1})
        assert (status, body["error"]["code"]) == (404, "E_UNKNOWN_TYPE"), (kind, body)
        # the extension's own reports say so; approvals send the person to the console
        assert ("console" if kind.startswith("approval") else "extension") in (
            body["error"]["message"])
    gender = {"id": "f3", "widget": "select", "label": "Gender", "options": [
        {"value": "f", "text": "Female"}, {"value": "m", "text": "Male"},
        {"value": "d", "text": "I decline to self-identify"}]}
    form = json.loads(json.dumps(FORM))
    form["frames"][0]["fields"].append(gender)
    status, body, _ = api.call("POST", "/v1/fill.plan", form)
    assert status == 200, body
    by_id = {d["field_id"]: d for d in body["result"]["decisions"]}
    assert by_id["f1"]["value"] == "Ada"
    left = by_id["f3"]
    assert left["key"].startswith("eeo.") and left["action"] == "none", left
    assert (left["value"], left["values"], left["status"]) == ("", [], "leave")
    assert left["reason"] == "self-identification: left for the person"
    assert "Female" not in json.dumps(body)


def test_settings_keys_encryption_and_deleting_a_profile_are_the_persons_alone(api: Api) -> None:
    config = api.home / "config.toml"
    before = config.read_bytes() if config.exists() else None
    stored = {"name": "kept", "text": SAMPLE_PROFILE.read_text(encoding="utf-8")}
    assert api.call("POST", "/v1/profile.import", stored)[0] == 200  # importing is offered
    attempts: dict[str, dict[str, Any]] = {
        "settings.set": {"key": "limits.cap_per_day_usd", "value": 100},
        "key.set": {"provider": "openai", "key": "sk-from-a-script"},
        "encryption.set": {"enabled": False},
        "profile.delete": {"name": "kept"},
    }
    for kind, payload in attempts.items():
        status, body, _ = api.call("POST", f"/v1/{kind}", payload)
        assert (status, body["error"]["code"]) == (404, "E_UNKNOWN_TYPE"), (kind, body)
        assert "Relay console or the relay command" in body["error"]["message"]
    assert (config.read_bytes() if config.exists() else None) == before
    status, body, _ = api.call("POST", "/v1/profiles.list", {})
    assert [p["name"] for p in body["result"]["profiles"]] == ["kept"], body  # not deleted
    with Store.open(api.home) as store:
        refused = [e for e in store.audit_entries() if e["action"] == "http.key.set"]
    assert refused and refused[-1]["status"] != "ok"
    assert "sk-from-a-script" not in json.dumps(refused)
