"""The console's bridge requests: status, getting a profile in (JSON Resume old and new, with a
byte-order mark, or facts read from a PDF resume), edits beside the original, validation."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.actions.registry import dispatch
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime
from tests.conftest import REPO, SHARED
from tests.llm_server import LlmServer, Reply, llm_server, llm_server_session  # noqa: F401

LEGACY = REPO / "tests" / "data" / "console" / "legacy-v0.json"
RESUME_PDF = SHARED / "profiles" / "ada-lovelace-resume.pdf"


@pytest.fixture
def runtime(relay_home: Path) -> Iterator[Runtime]:
    rt = Runtime(home=relay_home)
    yield rt
    rt.close()


def call(runtime: Runtime, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    return dispatch(runtime, Request(v=1, id="t", type=kind, payload=payload or {}))


def test_status_is_not_ready_without_a_profile_and_says_what_to_do(runtime: Runtime) -> None:
    status = call(runtime, "status")
    assert status["ready"] is False
    step = next(s for s in status["steps"] if s["id"] == "profile")
    assert not step["ok"] and step["required"] and "Import" in step["fix"]
    model = next(s for s in status["steps"] if s["id"] == "model")
    assert model["required"] is False  # a Fill works from the rules alone


def test_legacy_json_resume_with_a_bom_is_upgraded_and_warned(runtime: Runtime) -> None:
    text = "\ufeff" + LEGACY.read_text(encoding="utf-8")
    result = call(runtime, "profile.import", {"name": "richard", "text": text})
    doc = result["profile"]
    assert doc["basics"]["url"] == "https://richardhendricks.example.com"
    assert "website" not in doc["basics"]
    assert doc["work"][0]["name"] == "Pied Piper"
    assert doc["work"][0]["startDate"] == "2013-09" and doc["work"][0]["endDate"] == "2014-03"
    assert doc["education"][0]["score"] == "4.0"
    warnings = " ".join(result["warnings"])
    assert "basics.website is the older name of url" in warnings
    assert "“Fall 2013” read as 2013-09" in warnings
    assert "No job questions yet" in warnings
    assert "interests is kept but not used" in warnings
    assert call(runtime, "status")["ready"] is True
    loaded, _ = runtime.profile()
    assert loaded.profile.basics.url == "https://richardhendricks.example.com"


def test_schema_refusal_names_the_path(runtime: Runtime) -> None:
    bad = json.dumps({"basics": {"name": "A"}, "work": [{"name": "X", "highlights": "not a list"}]})
    with pytest.raises(RelayError) as caught:
        call(runtime, "profile.import", {"name": "bad", "text": bad})
    assert caught.value.code is ErrorCode.PROFILE_INVALID
    assert "work.0.highlights" in caught.value.message
    assert call(runtime, "profiles.list")["profiles"] == []


def test_edits_are_kept_beside_the_original(runtime: Runtime) -> None:
    call(runtime, "profile.import", {"name": "richard", "text": LEGACY.read_text()})
    original = runtime.store().profile_original("richard")
    result = call(runtime, "profile.update", {"patch": {
        "basics": {"phone": "+1 650 555 0101"},
        "application": {"noticePeriod": "2 weeks", "eeo": {"gender": "decline"}},
    }})
    assert result["has_edits"] and result["profile"]["basics"]["phone"] == "+1 650 555 0101"
    assert runtime.store().profile_original("richard") == original
    loaded, _ = runtime.profile()
    assert loaded.profile.application.noticePeriod == "2 weeks"
    audited = [e for e in runtime.store().audit_entries() if e["action"].startswith("profile.")]
    assert [e["action"] for e in audited] == ["profile.import", "profile.update"]
    assert "650 555" not in json.dumps(audited) and "decline" not in json.dumps(audited)
    with pytest.raises(RelayError) as caught:
        call(runtime, "profile.update", {"patch": {"application": {"remotePreference": "moon"}}})
    assert caught.value.code is ErrorCode.PROFILE_INVALID


def test_several_profiles_one_active(runtime: Runtime) -> None:
    text = LEGACY.read_text()
    call(runtime, "profile.import", {"name": "first", "text": text})
    call(runtime, "profile.import", {"name": "second", "text": text})
    names = {p["name"]: p["active"] for p in call(runtime, "profiles.list")["profiles"]}
    assert names == {"first": True, "second": False}
    call(runtime, "profile.activate", {"name": "second"})
    assert call(runtime, "profile.get")["name"] == "second"
    with pytest.raises(RelayError) as caught:
        call(runtime, "profile.activate", {"name": "nobody"})
    assert caught.value.code is ErrorCode.PROFILE_MISSING


@pytest.mark.parametrize(("kind", "value", "country", "ok"), [
    ("email", "ada@example.com", "", True),
    ("email", "ada(at)example", "", False),
    ("phone", "020 7946 0958", "GB", True),
    ("phone", "020 7946 0958", "US", False),
    ("phone", "415 555 0142", "", False),
    ("date", "2027-01-11", "", True),
    ("date", "2027-02-30", "", False),
    ("partial_date", "2027-01", "", True),
])
def test_checks_as_the_person_types(
    runtime: Runtime, kind: str, value: str, country: str, ok: bool
) -> None:
    result = call(runtime, "profile.check", {"kind": kind, "value": value, "country": country})
    assert result["ok"] is ok
    assert bool(result["reason"]) is not ok


def test_pdf_resume_facts_are_confirmed_before_anything_is_stored(runtime: Runtime) -> None:
    data = base64.b64encode(RESUME_PDF.read_bytes()).decode()
    facts = call(runtime, "profile.extract", {"file_name": RESUME_PDF.name, "data_b64": data})
    found = {f["path"]: f["value"] for f in facts["facts"]}
    assert found["basics.name"] == "Ada Quinn Lovelace"
    assert found["basics.email"] == "ada.lovelace@example.com"
    assert found["basics.phone"] == "+1 415 555 0142"
    assert found["work.0.name"] == "Analytical Engines Inc"
    assert found["work.1.endDate"] == "2021"
    assert found["education.0.institution"] == "University of California, Berkeley"
    assert all(f["source"] for f in facts["facts"])
    assert call(runtime, "profiles.list")["profiles"] == []  # nothing stored yet
    confirmed = {"basics": {"name": found["basics.name"], "email": found["basics.email"]}}
    result = call(runtime, "profile.import", {
        "name": "ada", "text": json.dumps(confirmed),
        "resume": {"name": RESUME_PDF.name, "data_b64": data},
    })
    assert result["profile"]["application"]["documents"]["resume"] == RESUME_PDF.name
    loaded, _ = runtime.profile()
    assert loaded.document_path("resume") is not None
    assert json.loads(runtime.store().profile_original("ada")) == confirmed


def test_a_file_that_is_not_a_resume_is_refused_plainly(runtime: Runtime) -> None:
    data = base64.b64encode(b"not a pdf").decode()
    with pytest.raises(RelayError) as caught:
        call(runtime, "profile.extract", {"file_name": "cv.pdf", "data_b64": data})
    assert caught.value.code is ErrorCode.PROFILE_INVALID
    with pytest.raises(RelayError) as caught:
        call(runtime, "profile.extract", {"file_name": "cv.txt", "data_b64": data})
    assert "PDF and DOCX" in caught.value.message


def test_docx_resume_is_read(runtime: Runtime, tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    for line in ["Grace Hopper", "grace@example.org | +44 20 7946 0958 | London, UK",
                 "Experience", "Navy - Rear Admiral (Jan 1967 - Aug 1986)", "- Led COBOL work",
                 "Skills", "Languages: COBOL, FORTRAN"]:
        document.add_paragraph(line)
    path = tmp_path / "grace.docx"
    document.save(str(path))
    data = base64.b64encode(path.read_bytes()).decode()
    facts = call(runtime, "profile.extract", {"file_name": "grace.docx", "data_b64": data})
    found = {f["path"]: f["value"] for f in facts["facts"]}
    assert found["work.0.startDate"] == "1967-01" and found["work.0.endDate"] == "1986-08"
    assert found["skills.0.keywords.1"] == "FORTRAN"
    assert found["basics.location.city"] == "London"


def test_status_is_not_ready_with_an_invalid_email_and_names_the_model(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RELAY_LLM_API_BASE", "http://127.0.0.1:9/v1")
    text = json.dumps({"basics": {"name": "Ada", "email": "ada at example"}})
    result = call(runtime, "profile.import", {"name": "ada", "text": text})
    assert any("basics.email" in w for w in result["warnings"])
    status = call(runtime, "status")
    assert status["ready"] is False
    profile = next(s for s in status["steps"] if s["id"] == "profile")
    assert "email" in profile["message"] and profile["fix"]
    model = next(s for s in status["steps"] if s["id"] == "model")
    assert model["ok"] is True
    call(runtime, "profile.update", {"patch": {"basics": {"email": "ada@example.com"}}})
    assert call(runtime, "status")["ready"] is True


def _model_reads(server: LlmServer, facts: list[dict[str, str]] | str) -> None:
    content = facts if isinstance(facts, str) else {"fields": {"facts": facts}}
    server.reset(lambda body: Reply(content, tokens_in=900, tokens_out=300))


def test_a_configured_model_adds_checked_facts_and_invented_ones_are_refused(
    runtime: Runtime, llm_server: LlmServer, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("RELAY_LLM_API_BASE", llm_server.base_url)
    data = base64.b64encode(RESUME_PDF.read_bytes()).decode()
    payload = {"file_name": RESUME_PDF.name, "data_b64": data}
    kafka = "- Built the Kafka ingestion pipeline for 40 TB of daily event data"
    _model_reads(llm_server, [
        {"path": "skills.0.keywords.0", "value": "Kafka", "quote": kafka},
        {"path": "basics.name", "value": "Ada Quinn Lovelace", "quote": "Ada Quinn Lovelace"},
        # Invented: a skill the cited line does not carry, and an employer on no line at all.
        {"path": "skills.0.keywords.1", "value": "Rust", "quote": kafka},
        {"path": "work.2.name", "value": "Babbage Ltd", "quote": "Babbage Ltd (2015-2017)"},
        {"path": "basics.password", "value": "Ada", "quote": "Ada Quinn Lovelace"},
    ])
    result = call(runtime, "profile.extract", payload)
    # The request carried the resume text and nothing else about the person.
    (request,) = llm_server.requests
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert request["messages"][1]["content"].startswith("Ada Quinn Lovelace")
    by_path = {f["path"]: f for f in result["facts"]}
    assert by_path["skills.0.keywords.0"]["value"] == "Kafka"
    assert by_path["skills.0.keywords.0"]["found_by"] == "model"
    assert by_path["skills.0.keywords.0"]["source"] == kafka
    assert by_path["basics.name"]["found_by"] == "rules"  # the rules' fact is kept, not doubled
    assert [f["path"] for f in result["facts"]].count("basics.name") == 1
    assert "skills.0.keywords.1" not in by_path and "work.2.name" not in by_path
    shown = json.dumps(result["facts"])
    assert "Rust" not in shown and "Babbage" not in shown
    reasons = {r["path"]: r["reason"] for r in result["refused"]}
    assert reasons == {
        "skills.0.keywords.1": "the resume line it cites does not say this",
        "work.2.name": "the line it cites is not in the resume",
        "basics.password": "not a resume detail Relay reads",
    }
    assert any("left out" in w for w in result["warnings"])
    assert call(runtime, "profiles.list")["profiles"] == []  # nothing stored until confirmed
    store = runtime.store()
    (audited_call,) = [e for e in store.audit_entries() if e["action"] == "model.call"]
    assert audited_call["payload"]["purpose"] == "resume.extract"
    assert (audited_call["tokens_in"], audited_call["tokens_out"]) == (900, 300)
    assert float(audited_call["cost_cents"]) > 0
    audited = {e["action"]: e["payload"] for e in store.audit_entries()}
    assert audited["llm.refused"]["refused"][0] == {
        "key": "skills.0.keywords.1", "what": "the resume line it cites does not say this"}
    assert "Rust" not in json.dumps(audited)

    # A broken answer (another resume: the same one would be answered from the cache).
    import docx

    document = docx.Document()
    for line in ["Grace Hopper", "grace@example.org", "Experience",
                 "Navy - Rear Admiral (Jan 1967 - Aug 1986)"]:
        document.add_paragraph(line)
    path = tmp_path / "grace.docx"
    document.save(str(path))
    other = {"file_name": "grace.docx", "data_b64": base64.b64encode(path.read_bytes()).decode()}
    _model_reads(llm_server, "I read it: Grace is great. {not json")
    broken = call(runtime, "profile.extract", other)
    assert len(llm_server.requests) == 1  # one try: the person is waiting
    assert broken["facts"] and all(f["found_by"] == "rules" for f in broken["facts"])
    assert {f["path"]: f["value"] for f in broken["facts"]}["work.0.name"] == "Navy"
    assert any("only the details found by rules" in w for w in broken["warnings"])
    _model_reads(llm_server, json.dumps({"fields": {"facts": [{"path": "basics.name"}]}}))
    wrong_shape = call(runtime, "profile.extract", other)
    assert any("not in the expected form" in w for w in wrong_shape["warnings"])
    assert wrong_shape["facts"] == broken["facts"]


def test_the_models_job_numbers_are_fitted_to_the_rules_jobs(
    runtime: Runtime, llm_server: LlmServer, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    monkeypatch.setenv("RELAY_LLM_API_BASE", llm_server.base_url)
    engines = "Analytical Engines Inc - Senior Backend Engineer (2021-present)"
    led = "- Led a team of 4 engineers through a 30-service Python 3 migration"
    cut = "- Cut p99 checkout API latency from 480 ms to 95 ms"
    # The model counts the jobs in its own way: its work.1 is the rules' work.0 (Analytical
    # Engines), its work.0 the rules' work.1 (Difference Labs).
    _model_reads(llm_server, [
        {"path": "work.1.name", "value": "Analytical Engines Inc", "quote": engines},
        {"path": "work.1.highlights.0", "quote": cut,  # one the rules have: not shown twice
         "value": "Cut p99 checkout API latency from 480 ms to 95 ms"},
        {"path": "work.1.highlights.1", "value": "Led a team of 4 engineers", "quote": led},
        {"path": "work.0.name", "value": "Difference Labs",
         "quote": "Difference Labs - Software Engineer (2017-2021)"},
    ])
    data = base64.b64encode(RESUME_PDF.read_bytes()).decode()
    facts = call(runtime, "profile.extract", {"file_name": RESUME_PDF.name, "data_b64": data})[
        "facts"]
    paths = [f["path"] for f in facts]
    added = [f for f in facts if f["found_by"] == "model"]
    assert [(f["path"], f["value"]) for f in added] == [
        ("work.0.highlights.2", "Led a team of 4 engineers")]
    # Shown with the rules' first job, right after its highlights.
    assert paths.index("work.0.highlights.2") == paths.index("work.0.highlights.1") + 1
    assert [f["value"] for f in facts].count(
        "Cut p99 checkout API latency from 480 ms to 95 ms") == 1
