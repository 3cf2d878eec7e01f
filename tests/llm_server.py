"""A scriptable OpenAI-compatible chat-completions server on 127.0.0.1 for the model-layer tests.

It runs aiohttp on its own thread and event loop, records every request body, and answers from a
script the test sets: a function of the request, returning `Reply` (JSON content, raw text, an
HTTP error, or a delay). Use the `llm_server` fixture (import it into the test module).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bridge.forms import (
    FieldDecision,
    FieldOption,
    FillRequest,
    FormField,
    FrameSnapshot,
    Status,
    Widget,
)
from bridge.llm.config import LlmConfig, Price, Tier
from bridge.llm.escalate import EscalationResult, escalate
from bridge.llm.facts import profile_facts
from bridge.llm.ledger import LlmLedger, MemoryLedger
from bridge.profile import LoadedProfile, load_profile


@dataclass
class Reply:
    content: dict[str, Any] | str | None = None  # a dict is sent as JSON text
    status: int = 200
    delay_s: float = 0.0
    tokens_in: int | None = None  # default: about a token per four characters of the request
    tokens_out: int | None = None
    # Hold the reply until this many requests have arrived (at most HOLD_S): shows whether
    # requests are sent together, without timing anything.
    hold_for_requests: int = 0
    usage: bool = True  # False: no token counts in the reply, as some servers answer


HOLD_S = 10.0
Script = Callable[[dict[str, Any]], Reply]


def skip_all(body: dict[str, Any]) -> Reply:
    """A model that skips every question it is asked."""
    return Reply({"fields": {qid: {"skip": "not in facts"} for qid in question_ids(body)}})


def question_ids(body: dict[str, Any]) -> list[str]:
    schema = body["response_format"]["json_schema"]["schema"]
    return list(schema["properties"]["fields"]["properties"])


def user_payload(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON Relay sent as the user message."""
    payload: dict[str, Any] = json.loads(body["messages"][-1]["content"])
    return payload


@dataclass
class LlmServer:
    host: str = "127.0.0.1"
    port: int = 0
    requests: list[dict[str, Any]] = field(default_factory=list)
    raw_bodies: list[str] = field(default_factory=list)
    script: Script = skip_all
    in_flight: int = 0
    most_in_flight: int = 0  # the most requests waiting for their reply at one moment
    _generation: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None
    _thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def reset(self, script: Script = skip_all) -> None:
        self.requests.clear()
        self.raw_bodies.clear()
        self.script = script
        # Requests of earlier tests still being answered (a client that timed out) count no more.
        self._generation += 1
        self.in_flight = 0
        self.most_in_flight = 0

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        generation = self._generation
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await self._answer(request)
        finally:
            if generation == self._generation:
                self.in_flight -= 1

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        raw = await request.text()
        self.raw_bodies.append(raw)
        body = json.loads(raw)
        self.requests.append(body)
        reply = self.script(body)
        loop = asyncio.get_running_loop()
        held_until = loop.time() + HOLD_S
        while len(self.requests) < reply.hold_for_requests and loop.time() < held_until:
            await asyncio.sleep(0.01)
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        if reply.status != 200:
            return web.json_response(
                {"error": {"message": "scripted failure", "type": "server_error"}},
                status=reply.status,
            )
        content = reply.content
        text = json.dumps(content) if isinstance(content, dict) else (content or "")
        tokens_in = reply.tokens_in if reply.tokens_in is not None else len(raw) // 4
        tokens_out = reply.tokens_out if reply.tokens_out is not None else len(text) // 4 + 1
        completion: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": body.get("model", "scripted"),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text},
                }
            ],
        }
        if reply.usage:
            completion["usage"] = {
                "prompt_tokens": tokens_in,
                "completion_tokens": tokens_out,
                "total_tokens": tokens_in + tokens_out,
            }
        return web.json_response(completion)

    def start(self) -> None:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            app = web.Application()
            app.router.add_post("/v1/chat/completions", self._handle)
            app.router.add_post("/chat/completions", self._handle)
            self._runner = web.AppRunner(app)
            loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, self.host, 0)
            loop.run_until_complete(site.start())
            self.port = int(self._runner.addresses[0][1])
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=run, name="llm-test-server", daemon=True)
        self._thread.start()
        assert ready.wait(10), "test LLM server did not start"

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)


@pytest.fixture(scope="session")
def llm_server_session() -> Iterator[LlmServer]:
    server = LlmServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def llm_server(llm_server_session: LlmServer) -> LlmServer:
    llm_server_session.reset()
    return llm_server_session


# --- shared helpers for tests/test_llm_*.py -------------------------------------------------

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PROFILE = REPO / "demo" / "profile" / "sample.json"


def sample_profile() -> LoadedProfile:
    return load_profile(SAMPLE_PROFILE)


def make_config(server: LlmServer, **overrides: Any) -> LlmConfig:
    """Every tier at the test server, priced like the benchmark, fast retries."""
    base: dict[str, Any] = {
        "models": {
            Tier.FAST: "openai/fast-model",
            Tier.GENERAL: "openai/general-model",
            Tier.HEAVY: "openai/heavy-model",
        },
        "api_base": server.base_url,
        "api_key": "sk-test-SECRET-0123456789",
        "key_source": "env",
        "prices": {
            "openai/fast-model": Price(input_per_mtok=0.098, output_per_mtok=0.196),
            "openai/general-model": Price(input_per_mtok=0.40, output_per_mtok=1.75),
            "openai/heavy-model": Price(input_per_mtok=0.435, output_per_mtok=0.87),
        },
        "backoff_s": 0.01,
        "timeout_s": 5.0,
    }
    base.update(overrides)
    return LlmConfig(**base)


def ask_model(
    server: LlmServer,
    request: FillRequest,
    decisions: list[FieldDecision],
    *,
    run_id: str = "r",
    ledger: LlmLedger | None = None,
    **config: Any,
) -> EscalationResult:
    """`escalate` as most tests call it: the sample profile, a fresh ledger unless one is given,
    and every tier at the scripted server (`config` overrides `make_config`'s settings)."""
    return escalate(
        request,
        sample_profile(),
        decisions,
        run_id=run_id,
        ledger=MemoryLedger() if ledger is None else ledger,
        config=make_config(server, **config),
    )


def ffield(
    fid: str, label: str, widget: Widget = Widget.TEXT, options: list[str] | None = None, **kw: Any
) -> FormField:
    opts = [FieldOption(value=o.lower().replace(" ", "_"), text=o) for o in options or []]
    return FormField(id=fid, label=label, widget=widget, options=opts, **kw)


def leave(field: FormField, key: str = "", reason: str = "unknown") -> FieldDecision:
    return FieldDecision(
        field_id=field.id,
        frame=field.frame,
        label=field.label,
        key=key,
        status=Status.LEAVE,
        reason=reason,
    )


def request_of(
    fields: list[FormField], job_text: str = "", title: str = "Backend Engineer at Acme"
) -> FillRequest:
    return FillRequest(
        url="https://jobs.example.com/apply",
        title=title,
        job_text=job_text,
        frames=[FrameSnapshot(frame="0", fields=fields)],
    )


def answer(
    text: str | list[str],
    facts: list[str] | None = None,
    quotes: list[str] | None = None,
    confidence: float = 0.9,
) -> dict[str, Any]:
    return {"answer": text, "facts": facts or [], "quotes": quotes or [], "confidence": confidence}


def by_label(body: dict[str, Any]) -> dict[str, str]:
    """Question label -> qid, from a recorded request."""
    return {q["label"]: q["id"] for q in user_payload(body)["page"]["questions"]}


def scripted(answers: dict[str, dict[str, Any]]) -> Script:
    """Answer by question label; skip the rest."""

    def script(body: dict[str, Any]) -> Reply:
        labels = by_label(body)
        out: dict[str, Any] = {qid: {"skip": "not in facts"} for qid in question_ids(body)}
        for label, reply in answers.items():
            if label in labels:
                out[labels[label]] = reply
        return Reply({"fields": out})

    return script


# --- snapshots built from the ATS fixtures' labels (tests/fixtures/ats/*/expected.json) ------

FIXTURES = REPO / "tests" / "fixtures" / "ats"
WIDGETS = {
    "text": Widget.TEXT,
    "email": Widget.EMAIL,
    "tel": Widget.TEL,
    "url": Widget.URL,
    "textarea": Widget.TEXTAREA,
    "select": Widget.SELECT,
    "react-select": Widget.COMBOBOX,
    "select2": Widget.COMBOBOX,
    "listbox": Widget.LISTBOX,
    "combobox": Widget.COMBOBOX,
    "radio": Widget.RADIO_GROUP,
    "yesno-buttons": Widget.RADIO_GROUP,
    "checkbox": Widget.CHECKBOX,
    "checkbox-group": Widget.CHECKBOX_GROUP,
    "date": Widget.DATE,
    "file": Widget.FILE,
    "contenteditable": Widget.CONTENTEDITABLE,
}
CHOICE = {Widget.SELECT, Widget.COMBOBOX, Widget.LISTBOX, Widget.RADIO_GROUP, Widget.CHECKBOX_GROUP}


def _flat(expect: Any) -> list[str]:
    if isinstance(expect, list):
        return [x for e in expect for x in _flat(e)]
    return [str(expect)] if expect not in ("", None, False, True) else []


def snapshot(expected: dict[str, Any]) -> FillRequest:
    fields: list[FormField] = []
    for i, spec in enumerate(expected["fields"], start=1):
        widget = WIDGETS.get(spec.get("kind", "text"), Widget.TEXT)
        options: list[FieldOption] = []
        if widget in CHOICE:
            wanted = _flat(spec.get("expect"))[:1]
            texts = (
                ["Yes", "No"]
                if wanted in (["Yes"], ["No"])
                else [*wanted, "Other", "Prefer not to say"]
            )
            options = [FieldOption(value=t.lower(), text=t) for t in texts]
        fields.append(
            FormField(
                id=f"f{i}",
                label=spec["label"],
                widget=widget,
                options=options,
                multiple=widget == Widget.CHECKBOX_GROUP,
                max_length=1500 if widget in {Widget.TEXTAREA, Widget.CONTENTEDITABLE} else None,
            )
        )
    title = f"Senior Backend Engineer - {expected.get('name', 'Acme')}"
    job = (
        "We are hiring a Senior Backend Engineer to build payment systems in Python and Go. "
        "You will own services end to end, work with Kafka and PostgreSQL, and mentor "
        "engineers. Hybrid, San Francisco. "
    ) * 6
    return FillRequest(
        url="https://jobs.example.com/apply",
        title=title,
        job_text=job,
        frames=[FrameSnapshot(frame="0", fields=fields)],
    )


def rules_decisions(request: FillRequest, profile: LoadedProfile) -> list[FieldDecision]:
    try:
        from bridge.rules.engine import decide
    except ImportError:  # the rules engine not there yet: everything is unknown
        return [
            FieldDecision(field_id=f.id, label=f.label, status=Status.LEAVE, reason="unknown")
            for f in request.all_fields()
        ]
    return decide(request, profile)


def scripted_model(profile: LoadedProfile) -> Any:
    """A plausible model: answers a question when a fact's value appears among its options or
    shares a word with its label, drafts open questions from a highlight, skips the rest."""
    facts = profile_facts(profile)

    def reply(body: dict[str, Any]) -> Reply:
        payload = user_payload(body)
        drafting = "drafting" in body["response_format"]["json_schema"]["name"]
        out: dict[str, Any] = {}
        for q, qid in zip(payload["page"]["questions"], question_ids(body), strict=True):
            if drafting:
                out[qid] = {
                    "answer": "I led a team of 4 engineers through the migration of 30 "
                    "services from Python 2 to Python 3, and I enjoy owning reliable "
                    "backend systems end to end.",
                    "facts": ["work[0].highlights[1]"],
                    "quotes": [],
                }
                continue
            hit = None
            for f in facts:
                if q.get("options") and f.value in q["options"]:
                    hit = (f.value, f.path)
                    break
            if hit:
                out[qid] = {"answer": hit[0], "facts": [hit[1]], "quotes": [], "confidence": 0.8}
            else:
                out[qid] = {"skip": "the facts do not answer this question"}
        return Reply({"fields": out})

    return reply
