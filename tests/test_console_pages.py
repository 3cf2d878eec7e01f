"""The console pages' bridge requests: activity, spending and caps, settings, the API key into the
keyring (a memory stand-in), the model test against the local test server, encryption at rest,
profile export and delete, and resumes per profile and per job."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest

from bridge.actions.registry import dispatch
from bridge.forms import Action, FieldDecision, FileRef
from bridge.llm.config import KEYRING_SERVICE, load_config
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime
from tests.keyring_standin import MemoryKeyring
from tests.llm_server import LlmServer, Reply, llm_server, llm_server_session  # noqa: F401

PROFILE = {
    "basics": {"name": "Ada Lovelace", "email": "ada@example.com"},
    "application": {},
}


@pytest.fixture
def runtime(relay_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runtime]:
    for var in ("RELAY_LLM_API_KEY", "RELAY_LLM_API_BASE", "RELAY_MODEL_FAST"):
        monkeypatch.delenv(var, raising=False)
    rt = Runtime(home=relay_home)
    yield rt
    rt.close()


def call(runtime: Runtime, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    return dispatch(runtime, Request(v=1, id=f"t-{kind}", type=kind, payload=payload or {}))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def with_profile(runtime: Runtime, name: str = "ada") -> None:
    call(runtime, "profile.import", {"name": name, "text": json.dumps(PROFILE)})


def test_caps_are_set_checked_and_spending_left_today_follows(runtime: Runtime) -> None:
    call(runtime, "settings.set", {"key": "limits.cap_per_day_usd", "value": 0.25})
    call(runtime, "settings.set", {"key": "limits.cap_per_fill_usd", "value": "0.01"})
    runtime.store().record_model_call(call_id="c1", run_id=None, model="m", tier="fast",
                                      tokens_in=10, tokens_out=5, cost_cents="5")
    spending = call(runtime, "spending.get")
    assert spending["cap_per_day_usd"] == 0.25 and spending["cap_per_fill_usd"] == 0.01
    assert spending["spent_today_usd"] == pytest.approx(0.05)
    assert spending["left_today_usd"] == pytest.approx(0.20)
    assert spending["by_day"][-1]["usd"] == pytest.approx(0.05)
    assert spending["by_month"][-1]["calls"] == 1
    with pytest.raises(RelayError) as caught:
        call(runtime, "settings.set", {"key": "limits.cap_per_day_usd", "value": -1})
    assert caught.value.code is ErrorCode.BAD_PAYLOAD and "cap_per_day_usd" in caught.value.message
    with pytest.raises(RelayError):  # keys are never settings
        call(runtime, "settings.set", {"key": "api_key", "value": "sk-1"})
    call(runtime, "settings.set", {"key": "limits.cap_per_day_usd", "value": None})
    assert call(runtime, "spending.get")["cap_per_day_usd"] == 0.5  # Relay's default again
    entries = call(runtime, "activity.list", {"query": "settings"})["entries"]
    assert [e["action"] for e in entries] == ["settings.set"] * 3


def test_the_key_goes_to_the_keyring_and_nowhere_else(
    runtime: Runtime, memory_keyring: MemoryKeyring, relay_home: Path,
) -> None:
    secret = "sk-or-console-0123456789"
    call(runtime, "settings.set", {"key": "key_provider", "value": "openrouter"})
    result = call(runtime, "key.set", {"key": secret})
    assert result == {"provider": "openrouter", "stored": True, "removed": False}
    assert memory_keyring.items[(KEYRING_SERVICE, "openrouter")] == secret
    assert load_config().key_source == "keyring"
    assert call(runtime, "spending.get")["key_source"] == "keyring"
    everything = json.dumps(call(runtime, "activity.list")) + "".join(
        p.read_text(errors="replace") for p in relay_home.rglob("*") if p.is_file()
        and p.suffix in {".toml", ".log", ".json"})
    assert secret not in everything
    assert call(runtime, "key.set", {})["removed"] is True
    assert (KEYRING_SERVICE, "openrouter") not in memory_keyring.items


def test_no_keyring_is_a_clear_error(runtime: Runtime) -> None:
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        with pytest.raises(RelayError) as caught:
            call(runtime, "key.set", {"provider": "openai", "key": "sk-1"})
    finally:
        keyring.set_keyring(previous)
    assert caught.value.code is ErrorCode.NO_KEYRING and "RELAY_LLM_API_KEY" in caught.value.message


def test_the_model_test_reaches_the_model_and_is_counted(
    runtime: Runtime, llm_server: LlmServer,  # noqa: F811
) -> None:
    assert call(runtime, "model.test")["ok"] is False  # no model yet: said, not raised
    call(runtime, "settings.set", {"key": "api_base", "value": llm_server.base_url})
    call(runtime, "settings.set", {"key": "models.fast", "value": "openai/fast-model"})
    llm_server.reset(lambda body: Reply({"fields": {"ok": "yes"}}, tokens_in=20, tokens_out=3))
    result = call(runtime, "model.test", {"tier": "fast"})
    assert result["ok"] is True and result["model"] == "openai/fast-model", result
    assert len(llm_server.requests) == 1
    assert "ada" not in json.dumps(llm_server.requests[0]).lower()  # nothing from the profile
    assert call(runtime, "spending.get")["by_day"][-1]["calls"] == 1
    llm_server.reset(lambda body: Reply(status=500))
    failed = call(runtime, "model.test", {"tier": "fast"})
    assert failed["ok"] is False and "did not answer" in failed["reason"]


def test_encryption_is_turned_on_and_off(runtime: Runtime, memory_keyring: MemoryKeyring) -> None:
    assert call(runtime, "encryption.status")["enabled"] is False
    assert call(runtime, "encryption.set", {"enabled": True})["enabled"] is True
    assert call(runtime, "encryption.set", {"enabled": True})["enabled"] is True  # idempotent
    assert call(runtime, "encryption.set", {"enabled": False})["enabled"] is False


def test_activity_is_searchable_newest_first(runtime: Runtime) -> None:
    with_profile(runtime)
    call(runtime, "profile.update", {"name": "ada", "patch": {"basics": {"label": "Engineer"}}})
    everything = call(runtime, "activity.list")
    assert [e["action"] for e in everything["entries"]][:2] == ["profile.update", "profile.import"]
    found = call(runtime, "activity.list", {"query": "PROFILE import"})
    assert [e["action"] for e in found["entries"]] == ["profile.import"]
    assert found["matched"] == 1 and found["total"] == everything["total"]


def test_profiles_export_and_delete(runtime: Runtime) -> None:
    with_profile(runtime, "ada")
    with_profile(runtime, "bea")
    call(runtime, "profile.update", {"name": "ada", "patch": {"basics": {"label": "Engineer"}}})
    exported = call(runtime, "profile.export", {"name": "ada"})
    assert exported["profile"]["basics"]["label"] == "Engineer"
    assert "label" not in json.loads(exported["original"])["basics"]  # the original as imported
    assert call(runtime, "profile.delete", {"name": "ada"})["active"] == "bea"
    assert [p["name"] for p in call(runtime, "profiles.list")["profiles"]] == ["bea"]
    with pytest.raises(RelayError) as caught:
        call(runtime, "profile.delete", {"name": "ada"})
    assert caught.value.code is ErrorCode.PROFILE_MISSING


def attach(runtime: Runtime, url: str, kind: str = "resume") -> str:
    decision = FieldDecision(frame="0", field_id="f1", key=f"application.documents.{kind}",
                             action=Action.ATTACH, file=FileRef(name=""))
    loaded, name = runtime.profile()
    runtime._attach_document(decision, loaded, name, url)
    assert decision.file is not None, decision.reason
    return decision.file.name


def test_resumes_one_default_and_one_chosen_for_a_job(runtime: Runtime) -> None:
    with_profile(runtime)
    add = {"kind": "resume", "file_name": "ada-general.pdf", "data_b64": b64(b"%PDF-1 general")}
    listing = call(runtime, "document.add", add)
    assert [(r["name"], r["default"]) for r in listing["resume"]] == [("ada-general.pdf", True)]
    listing = call(runtime, "document.add", {**add, "file_name": "ada-research.pdf"})
    research = next(r["ref"] for r in listing["resume"] if r["name"] == "ada-research.pdf")
    job = "https://boards.example.com/jobs/42?utm_source=x"
    chosen = call(runtime, "document.choose", {"kind": "resume", "ref": research, "url": job})
    assert chosen["chosen"]["resume"] == research
    assert attach(runtime, "https://boards.example.com/jobs/42") == "ada-research.pdf"
    assert attach(runtime, "https://boards.example.com/jobs/43") == "ada-general.pdf"
    call(runtime, "document.choose", {"kind": "resume", "ref": research})  # the new default
    assert attach(runtime, "https://boards.example.com/jobs/43") == "ada-research.pdf"
    with pytest.raises(RelayError) as caught:
        call(runtime, "document.choose", {"kind": "resume", "ref": "../../etc/passwd", "url": job})
    assert caught.value.code is ErrorCode.NOT_FOUND
    names = {r["name"] for r in call(runtime, "documents.list", {"url": job})["resume"]}
    assert names == {"ada-general.pdf", "ada-research.pdf"}


def test_job_choices_live_in_the_store_sealed_exported_and_deleted_with_the_profile(
    runtime: Runtime, memory_keyring: MemoryKeyring
) -> None:
    with_profile(runtime)
    add = {"kind": "resume", "file_name": "ada-general.pdf", "data_b64": b64(b"%PDF-1 general")}
    call(runtime, "document.add", add)
    listing = call(runtime, "document.add", {**add, "file_name": "ada-research.pdf"})
    research = next(r["ref"] for r in listing["resume"] if r["name"] == "ada-research.pdf")
    letter = call(runtime, "document.add", {"kind": "coverLetter", "file_name": "letter.pdf",
                                            "data_b64": b64(b"%PDF-1 letter")})
    job = "https://boards.example.com/jobs/42"
    call(runtime, "encryption.set", {"enabled": True})
    call(runtime, "document.choose", {"kind": "resume", "ref": research, "url": job})
    call(runtime, "document.choose", {"kind": "coverLetter", "ref": "", "url": job})
    call(runtime, "document.add", {"kind": "coverLetter", "file_name": "letter-research.pdf",
                                   "data_b64": b64(b"%PDF-1 research letter")})
    call(runtime, "document.choose", {"kind": "coverLetter", "url": job,
                                      "ref": letter["coverLetter"][0]["ref"]})
    call(runtime, "document.choose", {"kind": "coverLetter", "ref": next(
        r["ref"] for r in call(runtime, "documents.list")["coverLetter"]
        if r["name"] == "letter-research.pdf")})  # the new default elsewhere
    assert attach(runtime, job, "coverLetter") == "letter.pdf"
    other_job = "https://boards.example.com/jobs/7"
    assert attach(runtime, other_job, "coverLetter") == "letter-research.pdf"
    # Nothing beside the files: the choice is a sealed row of the store.
    assert not list((runtime.home / "documents").rglob("*.json"))
    conn = runtime.store().conn
    rows = conn.execute("SELECT job, kind, ref, sealed FROM document_choices").fetchall()
    assert {(j, k, s) for j, k, _, s in rows} == {(job, "resume", 1), (job, "coverLetter", 1)}
    assert all(research not in str(ref) for _, _, ref, _ in rows)
    assert attach(runtime, job + "?ref=x") == "ada-research.pdf"
    call(runtime, "encryption.set", {"enabled": False})  # opened back
    assert attach(runtime, job) == "ada-research.pdf"

    exported = call(runtime, "profile.export", {"name": "ada"})
    assert {(c["job"], c["kind"]) for c in exported["document_choices"]} == {
        (job, "resume"), (job, "coverLetter")}
    assert "document_choices" in runtime.store().export()["tables"]

    call(runtime, "document.choose", {"kind": "coverLetter", "url": job, "ref": ""})
    assert [c["kind"] for c in call(runtime, "profile.export")["document_choices"]] == ["resume"]
    with_profile(runtime, "bea")
    call(runtime, "profile.delete", {"name": "ada"})
    assert conn.execute("SELECT count(*) FROM document_choices").fetchall() == [(0,)]


def test_choices_an_older_relay_kept_in_a_file_move_into_the_store(
    relay_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Runtime(home=relay_home)
    with_profile(first)
    call(first, "document.add", {"kind": "resume", "file_name": "a.pdf", "data_b64": b64(b"%PDF")})
    listing = call(first, "document.add", {"kind": "resume", "file_name": "b.pdf",
                                           "data_b64": b64(b"%PDF-b")})
    ref = next(r["ref"] for r in listing["resume"] if r["name"] == "b.pdf")
    first.close()
    old = relay_home / "documents" / "ada" / "choices.json"
    old.write_text(json.dumps({"https://jobs.example.com/1": {"resume": ref}}), encoding="utf-8")
    again = Runtime(home=relay_home)
    try:
        assert attach(again, "https://jobs.example.com/1") == "b.pdf"
        assert not old.exists()
        assert call(again, "documents.list", {"url": "https://jobs.example.com/1"})[
            "chosen"]["resume"] == ref
    finally:
        again.close()


def test_a_profile_file_named_by_relay_profile_is_named_to_the_side_panel(
    runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_profile(runtime)
    assert call(runtime, "profiles.list")["file"] is None
    profile_file = tmp_path / "ada.json"
    profile_file.write_text(json.dumps(PROFILE), encoding="utf-8")
    monkeypatch.setenv("RELAY_PROFILE", str(profile_file))
    with_file = Runtime(home=runtime.home)
    try:
        listed = call(with_file, "profiles.list")
        assert listed["file"] == {"path": str(profile_file), "set_by": "RELAY_PROFILE"}
        assert [p["name"] for p in listed["profiles"]] == ["ada"]  # still listed, not used
    finally:
        with_file.close()


@pytest.mark.parametrize("door", ["http", "mcp"])
def test_settings_and_keys_come_only_from_the_console_or_the_cli(
    relay_home: Path, door: str, memory_keyring: MemoryKeyring
) -> None:
    tool = Runtime(home=relay_home, door=door)
    person = Runtime(home=relay_home, door="cli")
    try:
        attempts: list[tuple[str, dict[str, Any]]] = [
            ("settings.set", {"key": "limits.cap_per_day_usd", "value": 9}),
            ("key.set", {"provider": "openai", "key": "sk-x"})]
        for kind, payload in attempts:
            with pytest.raises(RelayError) as caught:
                call(tool, kind, payload)
            assert caught.value.code is ErrorCode.UNKNOWN_TYPE
        assert call(tool, "spending.get")["cap_per_day_usd"] != 9  # reading is offered
        call(person, "settings.set", {"key": "limits.cap_per_day_usd", "value": 9})
        assert call(tool, "spending.get")["cap_per_day_usd"] == 9
    finally:
        tool.close()
        person.close()
