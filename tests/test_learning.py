"""The person's own applications and the answers Relay learns from them, through the bridge's
dispatcher (as the extension and the HTTP API call it), against a real SQLite store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bridge.actions.registry import dispatch
from bridge.cli.main import main as relay_main
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.runtime import Runtime
from tests.conftest import SAMPLE_PROFILE

_ids = iter(range(1, 10_000))


@pytest.fixture
def runtime(tmp_path: Path) -> Any:
    raw = json.loads(SAMPLE_PROFILE.read_text(encoding="utf-8"))
    # Questions the rules cannot answer from this profile, so saved answers must.
    for key in ("howDidYouHear", "noticePeriod", "earliestStartDate"):
        raw["application"].pop(key, None)
    raw["application"]["eeo"].pop("gender", None)
    raw["application"]["answers"].append(
        {"question": "What is your favourite programming language?", "answer": "Rust"})
    (tmp_path / "profile.json").write_text(json.dumps(raw), encoding="utf-8")
    for doc in ("ada-lovelace-resume.pdf",):
        src = SAMPLE_PROFILE.parent / doc
        if src.exists():
            (tmp_path / doc).write_bytes(src.read_bytes())
    rt = Runtime(profile_path=tmp_path / "profile.json")
    yield rt
    rt.close()


def call(rt: Runtime, kind: str, payload: dict[str, Any], rid: str = "") -> dict[str, Any]:
    return dispatch(rt, Request(v=1, id=rid or f"r-{next(_ids)}", type=kind, payload=payload))


def text_field(fid: str, label: str, widget: str = "text", **extra: Any) -> dict[str, Any]:
    return {"id": fid, "tag": "input", "type": "text", "widget": widget, "label": label,
            "label_source": "label-for", **extra}


def plan(rt: Runtime, *fields: dict[str, Any]) -> dict[str, Any]:
    reply = call(rt, "fill.plan", {"url": "https://jobs.example.test/apply", "title": "Apply",
                                   "frames": [{"frame": "0", "fields": list(fields)}]})
    return {d["field_id"]: d for d in reply["decisions"]}


FIRST = [
    text_field("f1", "How did you hear about this job?"),
    text_field("f2", "What is your favourite programming language?"),
    text_field("f3", "Why are you interested in this role?", "textarea"),
    text_field("f4", "What is your notice period?"),
    text_field("f5", "Password", "password"),
]


def submit(rt: Runtime, run_id: str, relay: dict[str, dict[str, Any]]) -> dict[str, Any]:
    def fld(fid: str, label: str, value: str, set_by: str, widget: str = "text",
            options: list[str] | None = None) -> dict[str, Any]:
        return {"field_id": fid, "label": label, "widget": widget, "value": value,
                "set_by": set_by, "relay_value": relay.get(fid, {}).get("value", ""),
                "options": options or []}

    return call(rt, "application.submitted", payload={
        "run_id": run_id, "url": "https://jobs.example.test/apply", "page_title": "Apply",
        "company": "Acme", "job_title": "Backend Engineer", "how": "submit_click",
        "files": ["ada-lovelace-resume.pdf"],
        "fields": [
            fld("f1", "How did you hear about this job?", "A friend told me", "person"),
            fld("f2", "What is your favourite programming language?", "Python", "person"),
            fld("f3", "Why are you interested in this role?", "I like calm, careful systems.",
                "person", "textarea"),
            fld("f4", "What is your notice period?", "Three months", "person"),
            fld("f5", "Password", "hunter2", "person", "password"),
            fld("f6", "Gender", "Decline", "person", "select", ["Female", "Male", "Decline"]),
            fld("f7", "Veteran status", "I decline", "default", "select"),
        ],
    }, rid=f"submit-{run_id}")


def test_submit_records_the_application_and_the_next_form_answers_from_it(
        runtime: Runtime) -> None:
    first = plan(runtime, *FIRST)
    assert first["f1"]["status"] == "leave" and first["f2"]["value"] == "Rust"
    run_id = call(runtime, "applications.list", {"include_unsubmitted": True, "limit": 10})[
        "applications"][0]["run_id"]
    reply = submit(runtime, run_id, first)
    assert submit(runtime, run_id, first) == reply  # a retry records nothing twice
    # f1 filled by the person, f2 / f3 changed from Relay's, f4 filled, the self-identification
    # answer the person chose; never the password, never a default.
    assert reply["answers_saved"] == 5

    app = call(runtime, "application.get", {"application_id": reply["application_id"]})[
        "application"]
    assert (app["company"], app["job_title"], app["status"]) == ("Acme", "Backend Engineer",
                                                                  "submitted")
    by_id = {f["field_id"]: f for f in app["fields"]}
    assert by_id["f2"]["set_by"] == "person" and by_id["f2"]["relay_value"] == "Rust"
    assert app["files"] == ["ada-lovelace-resume.pdf"]
    listed = call(runtime, "applications.list", {"limit": 10})["applications"]
    assert [a["application_id"] for a in listed] == [reply["application_id"]]

    answers = {a["question"]: a for a in call(runtime, "answers.list", {})["answers"]}
    assert "Password" not in answers and "Veteran status" not in answers
    assert answers["Gender"]["self_id"] is True
    assert answers["What is your favourite programming language?"]["origin"] == "edited"

    second = plan(
        runtime,
        text_field("g1", "Where did you find this job?"),
        text_field("g2", "Which is your favourite programming language?"),
        text_field("g3", "Warum interessieren Sie sich für diese Stelle?", "textarea"),
        text_field("g4", "When can you start?"),
    )
    assert second["g1"]["value"] == "A friend told me"
    assert second["g2"]["value"] == "Python"
    assert second["g3"]["value"] == "I like calm, careful systems."
    for fid, asked in (("g1", "How did you hear about this job?"),
                       ("g3", "Why are you interested in this role?")):
        assert second[fid]["source"] == "saved_answer"
        assert second[fid]["status"] == "flag"  # a saved answer is always for review
        assert f"Your saved answer to “{asked}”" in second[fid]["reason"]
    # "When can you start?" looks like "What is your notice period?" and is another question.
    assert second["g4"]["value"] != "Three months" and second["g4"]["status"] == "leave"
    used = {a["question"]: a["used_count"] for a in call(runtime, "answers.list", {})["answers"]}
    assert used["How did you hear about this job?"] == 1

    # The self-identification answer the person chose is theirs next time, on another form's
    # wording and options, from this computer alone (the profile says "Female" too: the person's
    # latest word is "Decline", chosen on the form).
    third = plan(runtime, {"id": "h1", "widget": "select", "name": "h1", "label": "Gender",
                           "options": [{"value": "w", "text": "Woman"},
                                       {"value": "m", "text": "Man"},
                                       {"value": "d", "text": "I decline to self-identify"}]},
                 {"id": "h2", "widget": "radio_group", "name": "h2",
                  "label": "What is your gender identity?",
                  "options": [{"value": "F", "text": "Female"}, {"value": "M", "text": "Male"},
                              {"value": "N", "text": "Prefer not to say"}]})
    for fid, value in (("h1", "I decline to self-identify"), ("h2", "Prefer not to say")):
        assert third[fid]["value"] == value and third[fid]["source"] == "saved_answer", third[fid]
        assert "Your saved answer to “Gender”" in third[fid]["reason"]


def test_the_persons_own_answer_to_the_same_question_wins_over_the_profile(
        runtime: Runtime) -> None:
    asked = text_field("p1", "What are your pronouns?")
    assert plan(runtime, asked)["p1"]["value"] == "she/her"  # the profile's
    call(runtime, "answer.save", {"question": {"label": "What are your pronouns?",
                                               "widget": "text"}, "value": "they/them"})
    decision = plan(runtime, asked)["p1"]
    assert (decision["value"], decision["source"], decision["status"]) == (
        "they/them", "saved_answer", "flag")
    assert "Your saved answer to “What are your pronouns?”" in decision["reason"]
    assert call(runtime, "answers.list", {})["answers"][0]["used_count"] == 1


def test_answer_save_update_delete_and_errors(runtime: Runtime) -> None:
    q = {"label": "Do you have a driver's license?", "options": [], "widget": "text"}
    first = call(runtime, "answer.save", {"question": q, "value": "Yes"})
    again = call(runtime, "answer.save", {"question": q, "value": "Yes, category B"})
    assert again == {"answer_id": first["answer_id"], "replaced": True}
    answer = call(runtime, "answers.update", {"answer_id": first["answer_id"], "value": "No"})
    assert answer["answer"]["value"] == "No"
    assert call(runtime, "answers.list", {"query": "driver"})["answers"][0]["value"] == "No"
    assert call(runtime, "answers.delete", {"answer_id": first["answer_id"]}) == {"deleted": True}
    assert call(runtime, "answers.list", {})["answers"] == []
    with pytest.raises(RelayError) as bad:
        call(runtime, "application.submitted", {"url": "https://x.test", "how": "clicked_it"})
    assert bad.value.code is ErrorCode.BAD_PAYLOAD and "how" in bad.value.message
    with pytest.raises(RelayError) as missing:
        call(runtime, "application.update", {"application_id": 99, "status": "offer"})
    assert missing.value.code is ErrorCode.NOT_FOUND


def test_status_notes_and_the_cli(runtime: Runtime, capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path) -> None:
    first = plan(runtime, *FIRST)
    runs = call(runtime, "applications.list", {"include_unsubmitted": True, "limit": 10})
    assert runs["applications"][0]["submitted"] is False
    plan(runtime, text_field("x1", "What is your notice period?"))  # a fill never submitted
    app_id = submit(runtime, runs["applications"][0]["run_id"], first)["application_id"]
    updated = call(runtime, "application.update",
                   {"application_id": app_id, "status": "interviewing", "notes": "Call on Friday"})
    assert updated["application"]["status"] == "interviewing"
    runtime.close()

    assert relay_main(["history"]) == 0
    out = capsys.readouterr().out
    apps, _, unsubmitted = out.partition("Fills never submitted:")
    assert "interviewing" in apps and "Acme — Backend Engineer" in apps
    assert unsubmitted.count("run-") == 1 and "Relay applied values to" in unsubmitted
    assert relay_main(["history", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["applications"][0]["company"] == "Acme"
    assert sorted(r["submitted"] for r in doc["runs"]) == [False, True]
    assert relay_main(["history", "--application", str(app_id)]) == 0
    assert "A friend told me" in capsys.readouterr().out

    assert relay_main(["answers", "list"]) == 0
    listing = capsys.readouterr().out
    assert "“What is your notice period?”" in listing and "you changed Relay's answer" in listing
    target = tmp_path / "answers.json"
    assert relay_main(["answers", "export", str(target)]) == 0
    assert "1 self-identification answers left out" in capsys.readouterr().out
    exported = json.loads(target.read_text(encoding="utf-8"))["answers"]
    assert all(not a["self_id"] for a in exported) and len(exported) == 4
    answer_id = exported[0]["answer_id"]
    assert relay_main(["answers", "edit", str(answer_id), "Changed"]) == 0
    assert relay_main(["answers", "delete", str(answer_id)]) == 0
    capsys.readouterr()
    assert relay_main(["answers", "delete", str(answer_id)]) == 1
    assert f"no saved answer {answer_id}" in capsys.readouterr().err

    # Forgetting the run forgets the application it led to; the answers it taught stay.
    assert relay_main(["forget", "--run", runs["applications"][0]["run_id"]]) == 0
    capsys.readouterr()
    assert relay_main(["history", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["applications"] == []
    assert relay_main(["answers", "list", "--json"]) == 0
    left = json.loads(capsys.readouterr().out)["answers"]
    assert len(left) == 4 and all(a["application_id"] is None for a in left)


def test_an_eeo_default_says_it_is_a_default(runtime: Runtime) -> None:
    decisions = plan(runtime, {
        "id": "e1", "tag": "select", "widget": "select", "label": "Gender",
        "label_source": "label-for", "section": "Voluntary Self-Identification",
        "options": [{"value": "", "text": "Select"}, {"value": "f", "text": "Female"},
                    {"value": "m", "text": "Male"},
                    {"value": "d", "text": "I decline to self-identify"}],
    })
    assert "default: decline — set your answer in Relay" in decisions["e1"]["reason"]
