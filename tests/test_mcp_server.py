"""`relay mcp`, the real server over stdio, driven by the official SDK's client.

The server's model is the local test LLM server, reached through real litellm. One session runs
every tool; then the recorded model requests, the store and the audit log are checked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from bridge.actions.registry import ACTIONS
from bridge.assistant.tiers import CAPABILITIES, RUNS_ALONE, Tier
from bridge.store import Store
from tests.llm_server import (
    LlmServer,
    Reply,
    answer,
    by_label,
    llm_server,
    llm_server_session,
    question_ids,
)

__all__ = ["llm_server", "llm_server_session"]  # pytest fixtures, used by name

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"
TOOLS = {"list_applications", "get_application", "search_saved_answers", "draft_answer",
         "plan_fill", "profile_summary", "save_answer"}
# The sample profile's self-identification answers (the ones that say something).
SELF_ID = ["Female", "I am not a protected veteran"]
GOOD_QUESTION = "Why do you want to work on our payments team?"
MADE_UP_QUESTION = "Tell us about your time at Google."
POSTING = "Acme Pay builds payment systems. We want engineers who own reliability end to end."


def model(body: dict[str, Any]) -> Reply:
    """Drafts: a supported answer to the good question, a made-up one to the other."""
    labels = by_label(body)
    out: dict[str, Any] = {qid: {"skip": "not in facts"} for qid in question_ids(body)}
    if GOOD_QUESTION in labels:
        out[labels[GOOD_QUESTION]] = answer(
            "I enjoy owning reliability-critical backend systems end to end, as I do at "
            "Analytical Engines Inc.",
            facts=["work[0].name", "application.answers[0].answer"],
        )
    if MADE_UP_QUESTION in labels:
        out[labels[MADE_UP_QUESTION]] = answer(
            "I spent ten years at Google leading its payments platform.", facts=["work[0].name"]
        )
    return Reply({"fields": out})


def _env(home: Path, server: LlmServer) -> dict[str, str]:
    return {
        **os.environ,
        "RELAY_HOME": str(home),
        "RELAY_PROFILE": str(SAMPLE_PROFILE),
        "RELAY_LLM_API_BASE": server.base_url,
        "RELAY_LLM_API_KEY": "sk-test-not-a-real-key",
        "RELAY_MODEL_FAST": "openai/fast-model",
        "RELAY_MODEL_GENERAL": "openai/general-model",
        "RELAY_MODEL_HEAVY": "",
    }


def _seed_application(home: Path) -> None:
    """An application the person submitted, answering Gender otherwise than their profile."""
    from bridge.actions.registry import dispatch
    from bridge.protocol.envelopes import Request
    from bridge.runtime import Runtime

    runtime = Runtime(home, SAMPLE_PROFILE)
    try:
        dispatch(runtime, Request(v=1, id="seed", type="application.submitted", payload={
            "url": "https://jobs.example.test/apply", "company": "Acme Pay",
            "job_title": "Backend Engineer", "how": "submit_click", "fields": [
                {"field_id": "f1", "label": "Why payments?", "widget": "textarea",
                 "value": "Money that moves reliably matters.", "set_by": "person"},
                {"field_id": "f2", "label": "Gender", "widget": "select",
                 "options": ["Female", "Male", "Decline"], "value": "Male", "set_by": "person"},
            ]}))
    finally:
        runtime.close()


def _relay(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bridge.cli.main", *args], env=env, text=True,
                          capture_output=True, timeout=120, check=True)


def _approve_when_asked(env: dict[str, str]) -> None:
    """The person, at the CLI: wait for the assistant's request, then approve it."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        pending = json.loads(_relay(env, "approvals", "list", "--json").stdout)["approvals"]
        if pending:
            _relay(env, "approvals", "approve", str(pending[0]["approval_id"]))
            return
        time.sleep(0.3)
    raise AssertionError("the assistant's request never came")


async def _session(env: dict[str, str]) -> dict[str, Any]:
    """Every tool once (twice for draft_answer), as an assistant would call them."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "bridge.cli.main", "mcp"], env=env, cwd=str(REPO)
    )
    out: dict[str, Any] = {}
    async with Client(params, read_timeout_seconds=240) as client:
        listed = await client.list_tools()
        out["tools"] = {t.name: t for t in listed.tools}

        async def call(name: str, args: dict[str, Any] | None = None) -> Any:
            return await client.call_tool(name, args or {})

        out["summary"] = await call("profile_summary")
        out["draft"] = await call(
            "draft_answer",
            {"question": GOOD_QUESTION, "job_text": POSTING, "job_title": "Backend Engineer"},
        )
        out["made_up"] = await call(
            "draft_answer", {"question": MADE_UP_QUESTION, "job_text": POSTING}
        )
        out["self_id_draft"] = await call("draft_answer", {"question": "What is your gender?"})
        out["plan"] = await call(
            "plan_fill",
            {
                "url": "https://jobs.example.test/apply",
                "title": "Backend Engineer",
                "fields": [
                    {"label": "First name"},
                    {"label": "Gender", "type": "select",
                     "options": ["Female", "Male", "Decline to self-identify"]},
                    {"label": "Are you a protected veteran?", "type": "radio_group",
                     "options": ["I am a protected veteran", "I am not a protected veteran"]},
                    {"label": "Resume", "type": "file"},
                ],
            },
        )
        out["bad_plan"] = await call("plan_fill", {"fields": []})
        out["applications"] = await call("list_applications")
        out["application"] = await call("get_application", {"application_id": 1})
        out["answers"] = await call("search_saved_answers", {"query": ""})
        # Saving waits for the person; here they approve it at the CLI meanwhile.
        async with anyio.create_task_group() as group:
            group.start_soon(anyio.to_thread.run_sync, _approve_when_asked, env)
            out["saved"] = await call("save_answer", {
                "question": "What is your notice period?", "answer": "Four weeks",
                "wait_seconds": 120})
        out["unanswered"] = await call("save_answer", {
            "question": "Preferred start date?", "answer": "March", "wait_seconds": 0})
        out["self_id_save"] = await call("save_answer", {
            "question": "What is your gender?", "answer": "Female", "wait_seconds": 0})
        out["after_save"] = await call("search_saved_answers", {"query": "notice period"})
        try:
            out["unknown"] = str((await call("submit_application", {})).content)
        except Exception as exc:  # the SDK may answer an unknown tool as a protocol error
            out["unknown"] = str(exc)
    return out


@pytest.fixture(scope="module")
def session(
    tmp_path_factory: pytest.TempPathFactory, llm_server_session: LlmServer
) -> dict[str, Any]:
    llm_server_session.reset(model)
    home = tmp_path_factory.mktemp("relay-mcp-home")
    (home / "config.toml").write_text(
        '[prices."openai/general-model"]\ninput_per_mtok = 0.40\noutput_per_mtok = 1.75\n'
    )
    _seed_application(home)
    out = anyio.run(_session, _env(home, llm_server_session))
    out["home"] = home
    out["requests"] = list(llm_server_session.raw_bodies)
    return out


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    # The text the assistant reads says the same as the structured result.
    assert json.loads(result.content[0].text) == data
    return data


def _error(result: Any) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_the_tools_offered_are_the_tiers_that_run_without_the_person(
    session: dict[str, Any],
) -> None:
    assert set(session["tools"]) == TOOLS
    alone = {name for name in session["tools"] if CAPABILITIES[name] in RUNS_ALONE}
    assert set(session["tools"]) - alone == {"save_answer"}
    assert CAPABILITIES["save_answer"] is Tier.APPROVE
    assert CAPABILITIES["submit_application"] is Tier.BLOCK
    assert CAPABILITIES["fill_page"] is Tier.BLOCK
    for name in ("list_applications", "get_application", "search_saved_answers",
                 "profile_summary"):
        assert session["tools"][name].annotations.read_only_hint is True
    # Nothing offered submits, fills, clicks or types into a page, or names a tab to act on.
    for tool in session["tools"].values():
        verbs = set(tool.name.split("_"))
        assert not verbs & {"submit", "click", "apply", "type", "press"}, tool.name
        assert not tool.name.startswith("fill"), tool.name
        assert not {"tab", "tab_id", "selector", "frame"} & set(tool.input_schema["properties"])
    assert "submit_application" in session["unknown"]


def test_profile_summary_never_gives_self_identification_answers(
    session: dict[str, Any],
) -> None:
    summary = _data(session["summary"])
    paths = {f["path"]: f["value"] for f in summary["facts"]}
    assert paths["basics.name"] == "Ada Quinn Lovelace"
    assert any(p.startswith("work[0]") for p in paths)
    text = json.dumps(summary)
    for secret in [*SELF_ID, "ada.lovelace@example.com", "eeo"]:
        assert secret not in text
    assert any("self-identification" in k for k in summary["kept_private"])


def test_draft_answer_cites_its_facts_and_the_guard_refuses_what_is_made_up(
    session: dict[str, Any],
) -> None:
    draft = _data(session["draft"])
    assert draft["draft"].startswith("I enjoy owning reliability-critical"), draft
    assert draft["source"] == "llm" and draft["status"] == "flag"
    assert draft["cites"] == ["work[0].name", "application.answers[0].answer"]
    assert draft["llm_cost_usd"] > 0
    made_up = _data(session["made_up"])
    assert made_up["draft"] == "" and made_up["status"] == "leave"
    assert "refused" in made_up["reason"] and "Google" in made_up["reason"]
    private = _data(session["self_id_draft"])
    assert private["draft"] == "" and "self-identification" in private["reason"]
    assert private["llm_status"] == "not asked"


def test_no_model_request_carries_a_self_identification_answer(session: dict[str, Any]) -> None:
    requests = session["requests"]
    drafting = [r for r in requests if GOOD_QUESTION in r]
    assert drafting and any("Acme Pay builds payment systems" in r for r in drafting)
    assert not any("What is your gender?" in r for r in requests), "never sent to the model"
    for raw in requests:
        for secret in [*SELF_ID, "ada.lovelace@example.com", "sk-test-not-a-real-key"]:
            assert secret not in raw


def test_plan_fill_plans_but_withholds_private_answers_and_fills_nothing(
    session: dict[str, Any],
) -> None:
    plan = _data(session["plan"])
    by_label = {d["label"]: d for d in plan["decisions"]}
    assert by_label["First name"]["value"] == "Ada"
    for label in ("Gender", "Are you a protected veteran?", "Resume"):
        shown = by_label[label]
        assert shown["value"] == "" and shown["values"] == [], label
        assert shown["reason"].startswith("kept private")
    assert not any(s in json.dumps(plan) for s in SELF_ID)
    assert "data_b64" not in json.dumps(plan)
    assert "fields" in _error(session["bad_plan"])
    with Store.open(session["home"]) as store:
        # The plan is recorded, and none of it is waiting to be put into a page.
        assert [r["run_id"] for r in store.history() if r["run_id"] == plan["run_id"]]
        assert store.pending() == []


def test_reading_tools_give_the_learning_records_without_self_identification(
    session: dict[str, Any],
) -> None:
    assert {"applications.list", "application.get", "answers.list"} <= set(ACTIONS)
    listed = _data(session["applications"])["applications"]
    assert [(a["company"], a["status"], a["submitted"]) for a in listed] == [
        ("Acme Pay", "submitted", True)]
    application = _data(session["application"])["application"]
    fields = {f["label"]: f for f in application["fields"]}
    assert fields["Why payments?"]["value"] == "Money that moves reliably matters."
    # The person's own answer on the page, not the profile's: still never given out.
    assert fields["Gender"]["value"].startswith("kept private")
    assert "Male" not in json.dumps(application)
    answers = _data(session["answers"])["answers"]
    assert [a["value"] for a in answers if a["question"] == "Why payments?"] == [
        "Money that moves reliably matters."]
    assert all(a["self_id"] is False for a in answers)
    assert not any(a["question"] == "Gender" for a in answers)


def test_saving_an_answer_waits_for_the_persons_approval(session: dict[str, Any]) -> None:
    saved = _data(session["saved"])
    assert saved["status"] == "saved" and saved["answer_id"] >= 1, saved
    found = _data(session["after_save"])["answers"]
    assert [a["value"] for a in found if a["question"] == "What is your notice period?"] == [
        "Four weeks"]
    unanswered = _data(session["unanswered"])
    assert unanswered["status"] == "pending"
    assert f"relay approvals approve {unanswered['approval_id']}" in unanswered["note"]
    assert "self-identification" in _error(session["self_id_save"])
    env = {**os.environ, "RELAY_HOME": str(session["home"])}
    _relay(env, "approvals", "deny", str(unanswered["approval_id"]))
    with Store.open(session["home"]) as store:
        rows = {r["approval_id"]: r for r in store.approvals()}
        assert rows[saved["approval_id"]]["status"] == "approved"
        assert rows[unanswered["approval_id"]]["status"] == "denied"
        assert len(rows) == 2  # the self-identification answer was never even asked for
        assert not [a for a in store.saved_answers("start date", 10)]
        actions = [e["action"] for e in store.audit_entries()]
        assert actions.count("mcp.save_answer") == 2
        assert "cli.approve.answer.save" in actions
    again = subprocess.run([sys.executable, "-m", "bridge.cli.main", "approvals", "approve",
                            str(unanswered["approval_id"])], env=env, text=True,
                           capture_output=True, timeout=120)
    assert again.returncode == 1 and "denied already" in again.stderr


def test_every_call_is_audited_with_its_tokens_and_cost(session: dict[str, Any]) -> None:
    with Store.open(session["home"]) as store:
        entries = [e for e in store.audit_entries() if e["actor"] == "mcp"]
    actions = [e["action"] for e in entries]
    for tool in TOOLS:
        assert f"mcp.{tool}" in actions, tool
    drafted = next(e for e in entries if e["action"] == "mcp.draft_answer")
    assert drafted["tokens_in"] > 0 and drafted["tokens_out"] > 0
    assert float(drafted["cost_cents"]) > 0
    assert drafted["payload"]["tier"] == "notify"
    missing = [e for e in entries if e["status"] == "error"]
    assert all(e["payload"]["code"] for e in missing)
    assert not any(s in json.dumps(entries) for s in SELF_ID)


def test_tiers_refuse_what_needs_the_person_and_block_the_unknown(relay_home: Path) -> None:
    from bridge.assistant import tools
    from bridge.assistant.tiers import tier_of
    from bridge.runtime import Runtime

    assert tier_of("delete_everything") is Tier.BLOCK
    runtime = Runtime(relay_home, SAMPLE_PROFILE, door="mcp")
    try:
        # Saving only ever goes through an approval (tools.save_answer), never straight out.
        for name in ("save_answer", "submit_application", "delete_everything"):
            with pytest.raises(tools.ToolFailed, match="cannot run it"):
                tools._send(runtime, name, "ping", {})
        with Store.open(relay_home) as store:
            assert not [e for e in store.audit_entries() if e["actor"] == "mcp"], "never sent"
    finally:
        runtime.close()


def test_records_marked_self_identification_never_reach_the_assistant() -> None:
    from bridge.assistant.tools import WITHHELD, _without_self_id

    result = {"answers": [
        {"answer_id": 1, "question": {"label": "Why us?"}, "value": "I like it", "self_id": False},
        {"answer_id": 2, "question": {"label": "Gender"}, "value": "Female", "self_id": True},
        {"answer_id": 3, "question": {"label": "Anything else?"}, "value": "As a female engineer"},
    ]}
    kept = _without_self_id(result, {"female"})
    assert [a["answer_id"] for a in kept["answers"]] == [1, 3]
    assert kept["answers"][1]["value"] == WITHHELD
