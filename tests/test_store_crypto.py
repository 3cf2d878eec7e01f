"""Encryption at rest: AES-256-GCM for page text and drafted answers, key in the OS keyring.

The OS keychain cannot run here, so an in-memory keyring backend stands in for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail

from bridge.forms import (
    Action,
    FieldDecision,
    FillPlan,
    FillRequest,
    FormField,
    FrameSnapshot,
    Source,
    Status,
)
from bridge.profile import parse_profile
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store import Store, crypto
from bridge.store.db import DB_FILENAME
from tests.keyring_standin import MemoryKeyring

DRAFT = "Because the Analytical Engine weaves algebraic patterns"
PAGE = "Confidential: the hiring team is building a difference engine"


@pytest.fixture
def no_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(previous)


def _record(store: Store, request_id: str) -> str:
    profile = parse_profile({"basics": {"name": "Ada", "email": "ada@example.com"}}, Path("."))
    plan = FillPlan(run_id=store.new_run_id(), decisions=[
        FieldDecision(field_id="f1", key="basics.email", action=Action.SET_TEXT,
                      value="ada@example.com", source=Source.PROFILE, status=Status.FILL),
        FieldDecision(field_id="f2", key="question.why", action=Action.SET_TEXT, value=DRAFT,
                      source=Source.LLM, status=Status.FLAG),
    ])
    request = FillRequest(url="https://jobs.example/1", title="Job", job_text=PAGE,
                          frames=[FrameSnapshot(fields=[FormField(id="f1"), FormField(id="f2")])])
    store.record_plan(request_id, request, plan, profile)
    return plan.run_id


def _file_bytes(home: Path) -> bytes:
    return b"".join(p.read_bytes() for p in home.glob(DB_FILENAME + "*"))


def test_cipher_round_trip_and_tamper_detection() -> None:
    key, salt = crypto.new_key("correct horse battery staple")
    assert len(key) == 32 and salt
    cipher = crypto.Cipher(key)
    token = cipher.seal("héllo wörld", "texts:run-1:page:")
    assert "héllo" not in token
    assert cipher.open(token, "texts:run-1:page:") == "héllo wörld"
    # Same secret and salt give the same key; another context or key does not open it.
    import base64
    assert crypto.derive_key("correct horse battery staple", base64.b64decode(salt)) == key
    with pytest.raises(RelayError):
        cipher.open(token, "texts:run-2:page:")
    with pytest.raises(RelayError):
        crypto.Cipher(crypto.new_key(None)[0]).open(token, "texts:run-1:page:")


def test_with_encryption_on_drafts_and_page_text_are_sealed_on_disk(
        relay_home: Path, memory_keyring: MemoryKeyring) -> None:
    with Store.open() as store:
        before_run = _record(store, "before")  # written in clear, sealed when encryption starts
        key_id = store.enable_encryption("my secret")
        assert memory_keyring.items[(crypto.KEYRING_SERVICE, crypto.KEYRING_USER)]
        after_run = _record(store, "after")
        status = store.encryption_status()
        assert status["enabled"] and status["key_id"] == key_id and status["keyring_usable"]
        for run_id in (before_run, after_run):
            assert store.get_text(run_id, "page") == PAGE
            assert store.get_text(run_id, "draft", "0:f2") == DRAFT
            [run] = store.history(run_id)
            assert run["decisions"][1]["value"] == DRAFT and run["decisions"][1]["encrypted"]
            assert not run["decisions"][0]["encrypted"]  # the person's own profile value
        assert [d.payload["value"] for d in store.pending(after_run)] == ["ada@example.com", DRAFT]
        assert store.answered("after") is not None
        store.cache_put("fp-1", "big", {"text": DRAFT + " (cached)", "tokens_in": 1})
        assert store.cache_get("fp-1") == {"model": "big", "text": DRAFT + " (cached)",
                                           "tokens_in": 1}
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    on_disk = _file_bytes(relay_home)
    assert DRAFT.encode() not in on_disk
    assert PAGE.encode() not in on_disk

    # A new process finds the key in the keyring.
    with Store.open() as store:
        assert store.get_text(after_run, "page") == PAGE

    # Without the key: no plain writes, and history says the value is encrypted.
    saved = dict(memory_keyring.items)
    memory_keyring.items.clear()
    with Store.open() as store:
        with pytest.raises(RelayError) as caught:
            _record(store, "keyless")
        assert "not in the keyring" in caught.value.message
        [run, _] = store.history()
        assert run["decisions"][1]["value"] is None and run["decisions"][1]["encrypted"]
    memory_keyring.items.update(saved)

    # Turning it off opens everything back up and removes the key.
    with Store.open() as store:
        store.disable_encryption()
        assert not store.encryption_status()["enabled"]
        assert memory_keyring.items == {}
        assert store.get_text(before_run, "page") == PAGE
        [_, run] = store.history()
        assert run["decisions"][1]["value"] == DRAFT and not run["decisions"][1]["encrypted"]


def test_without_a_secure_keyring_encryption_says_so_clearly(no_keyring: Any) -> None:
    with Store.open() as store:
        with pytest.raises(RelayError) as caught:
            store.enable_encryption("secret")
        assert caught.value.code is ErrorCode.STORE_FAILED
        assert "no secure keyring" in caught.value.message
        status = store.encryption_status()
        assert not status["enabled"] and not status["keyring_usable"]
        assert "no secure keyring" in status["keyring"]


SECRET_ANSWER = "Since the Difference Engine first ran"


def _submit(store: Store, request_id: str, value: str) -> int:
    from bridge.learn.learning import learned
    from bridge.learn.models import ApplicationSubmitted

    sub = ApplicationSubmitted.model_validate({
        "url": "https://jobs.example/1", "company": "Acme", "how": "submit_click",
        "fields": [{"field_id": "f1", "label": "Why do you want to work here?", "widget": "text",
                    "value": value, "set_by": "person", "relay_value": "Relay's draft"}]})
    return int(store.record_application(request_id, sub, learned(sub))["application_id"])


def test_saved_answers_and_applications_are_sealed_with_encryption_on(
        relay_home: Path, memory_keyring: MemoryKeyring) -> None:
    with Store.open() as store:
        before = _submit(store, "before", SECRET_ANSWER + " (before)")  # sealed when it starts
        store.enable_encryption(None)
        after = _submit(store, "after", SECRET_ANSWER)
        store.save_answer(qkey="pronouns||", question="Pronouns", section="", options=[],
                          widget="text", lang="en", value="she/her", values=["she", "her"],
                          origin="saved", self_id=False)
        store.update_saved_answer(store.saved_answers("Pronouns")[0]["answer_id"], "she/they")
        [field] = store.application(after)["fields"]
        assert (field["value"], field["relay_value"], field["encrypted"]) == (
            SECRET_ANSWER, "Relay's draft", True)
        assert store.application(before)["fields"][0]["encrypted"]
        answers = {a["question"]: a for a in store.saved_answers()}
        assert answers["Why do you want to work here?"]["value"] == SECRET_ANSWER
        assert answers["Pronouns"]["value"] == "she/they" and answers["Pronouns"]["encrypted"]
        assert store.saved_answers("difference engine")  # the search reads the opened values
    raw = _file_bytes(relay_home)
    for secret in (b"Difference Engine", b"Relay's draft", b"she/they"):
        assert secret not in raw, secret
    with Store.open() as store:
        store.disable_encryption()
        [field] = store.application(before)["fields"]
        assert field["value"] == SECRET_ANSWER + " (before)" and not field["encrypted"]
        assert not store.saved_answers("Pronouns")[0]["encrypted"]
