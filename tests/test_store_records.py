"""Profiles, runs and decisions, idempotent requests, the delivery outbox, audit and ledger."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import apsw
import pytest

from bridge.forms import (
    Action,
    ApplyReport,
    ApplyResult,
    ApplyStatus,
    FieldDecision,
    FileRef,
    FillPlan,
    FillRequest,
    FormField,
    FrameSnapshot,
    Source,
    Status,
)
from bridge.profile import LoadedProfile
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store import Store
from bridge.store.db import scalar
from bridge.store.schema import TABLES

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "profiles" / "sample.json"


@pytest.fixture
def profile_file(tmp_path: Path) -> Path:
    # Odd spacing and CRLF line ends: the stored original must keep every byte.
    raw = json.loads(SAMPLE.read_text(encoding="utf-8"))
    text = json.dumps(raw, indent=3).replace("\n", "\r\n") + "\r\n"
    path = tmp_path / "ada.json"
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def store() -> Any:
    with Store.open() as opened:
        yield opened


def make_request(n_fields: int = 4, job_text: str = "We build engines.") -> FillRequest:
    fields = [FormField(id=f"f{i}", label=f"Question {i}") for i in range(1, n_fields + 1)]
    return FillRequest(url="https://jobs.example/apply/1", title="Analyst", job_text=job_text,
                       frames=[FrameSnapshot(frame="0", fields=fields)])


def make_plan(store: Store, profile: LoadedProfile) -> FillPlan:
    basics = profile.profile.basics
    return FillPlan(
        run_id=store.new_run_id(),
        decisions=[
            FieldDecision(field_id="f1", locator="input#email", label="Email", key="basics.email",
                          action=Action.SET_TEXT, value=basics.email or "", source=Source.PROFILE,
                          confidence=0.97, status=Status.FILL, reason="label matched email"),
            FieldDecision(field_id="f2", label="Phone", key="basics.phone", action=Action.SET_TEXT,
                          value=basics.phone or "", source=Source.PROFILE, confidence=0.9,
                          status=Status.FILL),
            FieldDecision(field_id="f3", label="Why us?", key="question.why",
                          action=Action.SET_TEXT, value="I admire your analytical engines.",
                          source=Source.LLM, confidence=0.6, status=Status.FLAG),
            FieldDecision(field_id="f4", label="Resume", key="documents.resume",
                          action=Action.ATTACH, source=Source.PROFILE, confidence=1.0,
                          status=Status.FILL,
                          file=FileRef(name="cv.pdf", mime="application/pdf", size=3,
                                       data_b64="YWJj")),
            FieldDecision(field_id="f5", label="Password", status=Status.NEVER),
        ],
        timings_ms={"rules": 1.5},
    )


def row_counts(store: Store) -> dict[str, int]:
    return {t: int(scalar(store.conn, f"SELECT count(*) FROM {t}")) for t in TABLES}


# -- profiles ----------------------------------------------------------------------------------

def test_profile_import_keeps_the_original_file_byte_for_byte(store: Store,
                                                              profile_file: Path) -> None:
    name, replaced = store.import_profile(profile_file)
    assert (name, replaced) == ("ada", False)
    assert store.active_profile_name() == "ada"
    assert store.profile_original("ada").encode("utf-8") == profile_file.read_bytes()
    loaded = store.profile()
    assert loaded is not None and loaded.profile.basics.name == "Ada Quinn Lovelace"

    edited = store.edit_profile("ada", {"basics": {"phone": "+44 20 0000 0000"},
                                        "application": {"pronouns": None}})
    assert edited.profile.basics.phone == "+44 20 0000 0000"
    assert edited.profile.application.pronouns is None
    # The edit lives beside the original, which is untouched.
    assert store.profile_original("ada").encode("utf-8") == profile_file.read_bytes()
    again = store.profile("ada")
    assert again is not None and again.profile.basics.phone == "+44 20 0000 0000"
    # A second edit composes with the first; the removal survives.
    store.edit_profile("ada", {"basics": {"label": "Analyst"}})
    third = store.profile("ada")
    assert third is not None and third.profile.basics.phone == "+44 20 0000 0000"
    assert third.profile.application.pronouns is None
    assert [p.has_edits for p in store.list_profiles()] == [True]


def test_invalid_profiles_are_refused_before_anything_is_stored(store: Store,
                                                                tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"application": {"salaryExpectation": {"amount": "lots"}}}', encoding="utf-8")
    with pytest.raises(RelayError) as caught:
        store.import_profile(bad)
    assert caught.value.code is ErrorCode.PROFILE_INVALID
    assert "salaryExpectation" in caught.value.message
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(RelayError):
        store.import_profile(broken)
    with pytest.raises(RelayError) as missing:
        store.import_profile(tmp_path / "nope.json")
    assert missing.value.code is ErrorCode.PROFILE_MISSING
    assert store.list_profiles() == []


def test_several_profiles_one_active(store: Store, profile_file: Path, tmp_path: Path) -> None:
    store.import_profile(profile_file)
    other = tmp_path / "other.json"
    shutil.copy(profile_file, other)
    store.import_profile(other, name="work")
    assert store.active_profile_name() == "ada"  # the first one stays active
    store.use_profile("work")
    assert [(p.name, p.active) for p in store.list_profiles()] == [("ada", False), ("work", True)]
    with pytest.raises(RelayError):
        store.use_profile("nobody")
    assert store.active_profile_name() == "work"
    # Re-importing replaces the original under the same name.
    assert store.import_profile(other, name="work") == ("work", True)
    with pytest.raises(RelayError) as caught:
        store.edit_profile("work", {"application": {"remotePreference": "sometimes"}})
    assert "remotePreference" in caught.value.message


# -- runs, idempotency, outbox -----------------------------------------------------------------

def test_a_fill_is_stored_as_a_run_with_one_row_per_decision(store: Store,
                                                             profile_file: Path) -> None:
    store.import_profile(profile_file)
    profile = store.profile()
    assert profile is not None
    plan = make_plan(store, profile)
    record = store.record_plan("req-1", make_request(), plan, profile, ats="greenhouse",
                               profile_name="ada")
    assert not record.replayed
    assert record.result["run_id"] == plan.run_id
    # Decisions that do something become deliveries, numbered from 1.
    assert [(d.seq, d.payload["field_id"]) for d in record.deliveries] == [
        (1, "f1"), (2, "f2"), (3, "f3"), (4, "f4")]

    [run] = store.history()
    assert run["run_id"] == plan.run_id
    assert run["status"] == "planned"
    assert run["ats"] == "greenhouse"
    assert run["profile_name"] == "ada"
    assert len(run["snapshot_fingerprint"]) == 64 and len(run["profile_fingerprint"]) == 64
    assert run["timings_ms"] == {"rules": 1.5}
    assert run["counts"]["decisions"] == 5
    assert run["counts"]["fill"] == 3 and run["counts"]["never"] == 1
    first = run["decisions"][0]
    assert (first["field_id"], first["key"], first["value"], first["source"]) == (
        "f1", "basics.email", profile.profile.basics.email, "profile")
    assert first["confidence"] == 0.97 and first["reason"] == "label matched email"
    assert run["decisions"][3]["file_name"] == "cv.pdf"
    assert store.get_text(plan.run_id, "page") == "We build engines."

    applied = store.record_applied("req-2", ApplyReport(run_id=plan.run_id, results=[
        ApplyResult(field_id="f1", status=ApplyStatus.APPLIED),
        ApplyResult(field_id="f2", frame="17", status=ApplyStatus.REFUSED, detail="pattern"),
        ApplyResult(field_id="f9", status=ApplyStatus.NOT_FOUND),
    ]))
    assert applied == {"recorded": 2}  # f2 by its unique field id; f9 is no decision
    [run] = store.history(plan.run_id)
    assert run["status"] == "applied" and run["applied_at"]
    assert [d["outcome"] for d in run["decisions"]] == ["applied", "refused", None, None, None]

    for status in ("reviewed", "submitted"):
        store.set_status(plan.run_id, status, decision="accepted")
    [run] = store.history()
    assert run["status"] == "submitted" and run["reviewed_at"] and run["submitted_at"]
    with pytest.raises(RelayError) as caught:
        store.set_status("run-nope", "failed")
    assert caught.value.code is ErrorCode.NOT_FOUND


def test_a_later_round_of_a_fill_continues_its_run(store: Store, profile_file: Path) -> None:
    # Fields revealed by what was applied are planned in the same run (issue 9.1): their
    # decisions follow the run's, their deliveries are numbered after the first round's.
    store.import_profile(profile_file)
    profile = store.profile()
    assert profile is not None
    plan = make_plan(store, profile)
    store.record_plan("req-1", make_request(), plan, profile, ats="greenhouse")
    more = FillPlan(run_id=plan.run_id, llm_calls=1, decisions=[
        FieldDecision(field_id="f7", label="State", key="address.region", action=Action.CHOOSE,
                      value="California", source=Source.PROFILE, confidence=0.9,
                      status=Status.FILL),
        FieldDecision(field_id="f8", label="Please specify", status=Status.LEAVE),
    ])
    request = make_request(job_text="").model_copy(update={"continues": plan.run_id})
    record = store.record_plan("req-2", request, more, profile)
    assert [(d.seq, d.payload["field_id"]) for d in record.deliveries] == [(5, "f7")]
    assert record.result["decisions"][0]["seq"] == 5
    [run] = store.history()
    assert run["run_id"] == plan.run_id and run["ats"] == "greenhouse"
    assert [d["field_id"] for d in run["decisions"]] == ["f1", "f2", "f3", "f4", "f5", "f7", "f8"]
    plans = [e for e in store.audit_entries(plan.run_id) if e["action"] == "fill.plan"]
    assert [e["payload"].get("later_round", False) for e in plans] == [False, True]
    lost = FillPlan(run_id="run-nope", decisions=[])
    with pytest.raises(RelayError) as caught:
        store.record_plan("req-3", request.model_copy(update={"continues": "run-nope"}), lost,
                          profile)
    assert caught.value.code is ErrorCode.NOT_FOUND


def test_a_retried_request_id_returns_the_first_result_and_writes_nothing(
        store: Store, profile_file: Path) -> None:
    store.import_profile(profile_file)
    profile = store.profile()
    assert profile is not None
    plan = make_plan(store, profile)
    first = store.record_plan("req-same", make_request(), plan, profile)
    store.record_model_call(call_id="call-1", run_id=plan.run_id, model="gpt", tier="small",
                            tokens_in=100, tokens_out=20, cost_cents="0.0150")
    before = row_counts(store)
    assert store.answered("req-same") == first.result
    # The same id with a different plan (a retry that planned again): the first answer wins.
    retry_plan = make_plan(store, profile)
    again = store.record_plan("req-same", make_request(), retry_plan, profile)
    assert again.replayed and again.result == first.result and again.deliveries == []
    # The same model call recorded again (a replay): not counted twice.
    assert not store.record_model_call(call_id="call-1", run_id=plan.run_id, model="gpt",
                                       tier="small", tokens_in=100, tokens_out=20,
                                       cost_cents="0.0150")
    report = ApplyReport(run_id=plan.run_id,
                         results=[ApplyResult(field_id="f1", status=ApplyStatus.APPLIED)])
    assert store.record_applied("req-applied", report) == {"recorded": 1}
    after_first_apply = row_counts(store)
    assert store.record_applied("req-applied", report) == {"recorded": 1}
    assert row_counts(store) == after_first_apply
    assert after_first_apply["runs"] == before["runs"] == 1
    assert after_first_apply["ledger"] == before["ledger"] == 1
    assert store.cost_summary()["total"]["cost_cents"] == "0.0150"
    assert store.answered("never-seen") is None


def test_unacknowledged_deliveries_are_replayed_after_a_restart_and_never_twice(
        relay_home: Path, profile_file: Path) -> None:
    with Store.open() as store:
        store.import_profile(profile_file)
        profile = store.profile()
        assert profile is not None
        plan = make_plan(store, profile)
        record = store.record_plan("req-1", make_request(), plan, profile)
        store.mark_sent(record.deliveries)
        assert store.ack(plan.run_id, 2) == 2

    # The bridge restarts: what was not acknowledged is still there, in order, whole.
    with Store.open() as store:
        pending = store.pending()
        assert [(d.run_id, d.seq) for d in pending] == [(plan.run_id, 3), (plan.run_id, 4)]
        assert pending[0].payload["value"] == "I admire your analytical engines."
        assert pending[1].payload["file"]["data_b64"] == "YWJj"
        assert pending[0].sent_count == 1
        assert store.pending(plan.run_id) == pending
        # A replayed ack and a stale ack change nothing; a later one finishes the run.
        assert store.ack(plan.run_id, 2) == 0
        assert store.ack(plan.run_id, 1) == 0
        assert store.ack(plan.run_id, 10) == 2
        assert store.pending() == []
        assert store.ack(plan.run_id, 10) == 0
        # Acknowledged payloads are not kept: replay no longer needs them.
        payloads = store.conn.execute("SELECT payload FROM deliveries").fetchall()
        assert {row[0] for row in payloads} == {""}
        with pytest.raises(RelayError) as caught:
            store.ack("run-unknown", 1)
        assert caught.value.code is ErrorCode.NOT_FOUND


def test_an_abandoned_run_is_not_replayed(store: Store, profile_file: Path) -> None:
    store.import_profile(profile_file)
    profile = store.profile()
    assert profile is not None
    kept = make_plan(store, profile)
    dropped = make_plan(store, profile)
    store.record_plan("a", make_request(), kept, profile)
    store.record_plan("b", make_request(), dropped, profile)
    store.set_status(dropped.run_id, "abandoned", decision="closed the tab")
    assert {d.run_id for d in store.pending()} == {kept.run_id}


# -- audit -------------------------------------------------------------------------------------

def test_the_audit_log_names_fields_but_never_holds_values_or_page_text(
        store: Store, profile_file: Path) -> None:
    store.import_profile(profile_file)
    profile = store.profile()
    assert profile is not None
    plan = make_plan(store, profile)
    page_text = "Secret internal job description about engines"
    store.record_plan("req-1", make_request(job_text=page_text), plan, profile)
    email = profile.profile.basics.email or ""
    store.set_status(plan.run_id, "failed", actor="bridge",
                     error=f"could not type {email} into the field",
                     secrets=[email])
    store.audit(actor="panel", action="field.edit", run_id=plan.run_id,
                payload={"field_id": "f3", "key": "question.why", "value": "my own words here",
                         "label": "Why us?"},
                decision="edited", secrets=[email])

    entries = store.audit_entries(plan.run_id)
    assert [e["action"] for e in entries] == ["fill.plan", "run.failed", "field.edit"]
    plan_entry = entries[0]
    assert plan_entry["actor"] == "bridge" and plan_entry["status"] == "ok"
    fields = plan_entry["payload"]["fields"]
    assert [f["key"] for f in fields][:2] == ["basics.email", "basics.phone"]
    assert fields[0]["locator"] == "input#email" and fields[0]["value_chars"] == len(email)
    assert entries[1]["error"] == "could not type <redacted> into the field"
    assert entries[2]["payload"]["value"] == "<redacted: 17 chars>"
    assert entries[2]["payload"]["field_id"] == "f3"

    whole_log = json.dumps(store.audit_entries()) + json.dumps(
        store.conn.execute("SELECT * FROM audit").fetchall())
    secrets = [email, profile.profile.basics.phone or "", "analytical engines", page_text,
               "my own words", "Why us?", profile.profile.basics.name or ""]
    for secret in secrets:
        assert secret and secret not in whole_log, secret


def test_the_audit_log_is_append_only(store: Store) -> None:
    entry = store.audit(actor="test", action="noop")
    with pytest.raises(apsw.ConstraintError):
        store.conn.execute("UPDATE audit SET action = 'changed' WHERE id = ?", (entry,))
    with pytest.raises(apsw.ConstraintError):
        store.conn.execute("DELETE FROM audit")
    assert [e["action"] for e in store.audit_entries()] == ["noop"]


# -- ledger ------------------------------------------------------------------------------------

def test_the_cost_ledger_sums_per_run_day_and_month_to_four_decimals(store: Store) -> None:
    from bridge.store import ledger
    from bridge.store.db import transaction

    calls = [
        ("c1", "run-a", "2026-10-31T23:59:59.999Z", "0.0001"),
        ("c2", "run-a", "2026-11-01T00:00:00.000Z", "1.23456"),   # rounds to 1.2346
        ("c3", "run-b", "2026-11-01T12:00:00.000Z", Decimal("0.3333")),
        ("c4", "run-b", "2026-11-02T08:00:00.000Z", 0.1),
        ("c5", None, "2026-11-02T09:00:00.000Z", 2),
    ]
    with transaction(store.conn):
        for call_id, run_id, at, cost in calls:
            assert ledger.record_call(store.conn, call_id=call_id, run_id=run_id, model="m",
                                      tier="small", tokens_in=10, tokens_out=1, cost_cents=cost,
                                      at=at)
    summary = store.cost_summary()
    assert summary["total"] == {"calls": 5, "tokens_in": 50, "tokens_out": 5,
                                "cost_cents": "3.6680"}
    assert {r["run_id"]: r["cost_cents"] for r in summary["by_run"]} == {
        "": "2.0000", "run-a": "1.2347", "run-b": "0.4333"}
    assert [(r["day"], r["cost_cents"]) for r in summary["by_day"]] == [
        ("2026-10-31", "0.0001"), ("2026-11-01", "1.5679"), ("2026-11-02", "2.1000")]
    assert [(r["month"], r["cost_cents"], r["calls"]) for r in summary["by_month"]] == [
        ("2026-10", "0.0001", 1), ("2026-11", "3.6679", 4)]
    with pytest.raises(apsw.ConstraintError):
        with transaction(store.conn):
            ledger.record_call(store.conn, call_id="neg", run_id=None, model="m", tier="t",
                               tokens_in=1, tokens_out=1, cost_cents="-1")


def test_attached_documents_are_kept_once_and_dropped_with_their_last_run(
        store: Store, profile_file: Path) -> None:
    from bridge.store import forget

    store.import_profile(profile_file)
    profile = store.profile()
    assert profile is not None
    first, second = make_plan(store, profile), make_plan(store, profile)
    store.record_plan("one", make_request(), first, profile)
    store.record_plan("two", make_request(), second, profile)
    # Two runs, each with a stored answer and a delivery carrying the file: one copy of the bytes.
    assert scalar(store.conn, "SELECT count(*) FROM blobs") == 1
    assert "YWJj" not in str(store.conn.execute("SELECT result FROM requests").fetchall())
    answer = store.answered("two")
    assert answer is not None and answer["decisions"][3]["file"]["data_b64"] == "YWJj"
    assert "data_sha256" not in answer["decisions"][3]["file"]
    assert forget.forget_run(store.conn, first.run_id)["blobs"] == 0  # still used by `second`
    assert forget.forget_run(store.conn, second.run_id)["blobs"] == 1
    assert scalar(store.conn, "SELECT count(*) FROM blobs") == 0


def test_redaction_keeps_identifiers_and_drops_free_text() -> None:
    from bridge.store.audit import redact

    payload = {
        "key": "application.yearsOfExperience",
        "field_id": "f7",
        "locator": "input#ada@example.com",
        "note": "typed something",
        "nested": [{"status": "fill", "value": "x@y.z", "count": 3, "ok": True}],
    }
    assert redact(payload, ["year", "ada@example.com"]) == {
        "key": "application.yearsOfExperience",
        "field_id": "f7",
        "locator": "input#<redacted>",
        "note": "<redacted: 15 chars>",
        "nested": [{"status": "fill", "value": "<redacted: 5 chars>", "count": 3, "ok": True}],
    }


def test_request_keys_tell_a_retry_from_a_reused_id() -> None:
    payload = make_request().model_dump(mode="json")
    key = Store.request_key("fill.plan", "r-1", payload)
    assert Store.request_key("fill.plan", "r-1", dict(payload)) == key  # a true retry
    other = dict(payload, url="https://jobs.example/another")
    assert Store.request_key("fill.plan", "r-1", other) != key  # r-1 again after a restart
    assert Store.request_key("fill.applied", "r-1", payload) != key
