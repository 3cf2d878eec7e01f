"""The bridge starts loading litellm after `hello` when a model is configured (once the first
plan is answered, or after a moment without one): not after the rules engine has loaded, and even
when no profile is stored yet."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import bridge.llm.client
import bridge.llm.config
import bridge.rules.engine
from bridge.runtime import Runtime
from tests.conftest import SAMPLE_PROFILE


@pytest.fixture
def model_configured(relay_home: Path, monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """A model on a local server, and litellm's import replaced by a stand-in that says when it
    was asked for (the real import takes seconds and is covered by test_llm_config)."""
    (relay_home / "config.toml").write_text('api_base = "http://127.0.0.1:9/v1"\n')
    asked = threading.Event()

    def load() -> object:
        asked.set()
        return object()

    monkeypatch.setattr(bridge.llm.client, "load", load)
    return asked


def test_model_import_starts_without_a_profile(model_configured: threading.Event) -> None:
    runtime = Runtime()  # nothing stored: every Fill would say E_PROFILE_MISSING
    runtime.warm_up()
    assert model_configured.wait(60), "litellm was never loaded ahead of the first Fill"


def test_model_import_does_not_wait_for_the_rules(
    model_configured: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_may_finish = threading.Event()
    monkeypatch.setattr(bridge.rules.engine, "warm_steps",
                        lambda: [lambda: rules_may_finish.wait(60)])
    runtime = Runtime()
    runtime.warm_up()
    try:
        assert model_configured.wait(60), "litellm's import waited for the rules to load"
    finally:
        rules_may_finish.set()


def test_no_model_no_import(relay_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    del relay_home
    monkeypatch.delenv("RELAY_LLM_API_KEY", raising=False)
    monkeypatch.delenv("RELAY_LLM_API_BASE", raising=False)
    called = threading.Event()
    monkeypatch.setattr(bridge.llm.client, "load", lambda: called.set())
    monkeypatch.setattr(bridge.llm.config, "_keyring_key", lambda provider: "")
    runtime = Runtime()
    runtime.warm_up()
    for thread in threading.enumerate():
        if thread.name.startswith("relay-"):
            thread.join(60)
    assert not called.is_set()


def test_closing_does_not_wait_for_the_warm_up(
    relay_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The port closes while the warm-up is still opening the store (seconds on a busy machine):
    closing returns without waiting for it, and the warm-up starts nothing after that. (Closing
    used to wait for the store's lock, so the bridge's exit waited for the warm-up.)"""
    from bridge.store import Store

    del relay_home
    opening, may_finish, rules_loaded = threading.Event(), threading.Event(), threading.Event()
    real_open = Store.open

    def slow_open(home: Path) -> Store:
        opening.set()
        may_finish.wait(60)
        return real_open(home)

    monkeypatch.setattr(Store, "open", staticmethod(slow_open))
    monkeypatch.setattr(bridge.rules.engine, "warm_steps", lambda: [rules_loaded.set])
    runtime = Runtime()
    runtime.emit = lambda event: True  # a port: the warm-up replays deliveries from the store
    runtime.warm_up()
    assert opening.wait(60), "the warm-up never opened the store"
    closer = threading.Thread(target=runtime.close)
    closer.start()
    closer.join(30)
    closed_at_once = not closer.is_alive()
    may_finish.set()
    for thread in threading.enumerate():
        if thread.name.startswith("relay-") or thread is closer:
            thread.join(60)
    runtime.close()  # the store the warm-up opened after all
    assert closed_at_once, "closing waited for the warm-up"
    assert not rules_loaded.is_set(), "the warm-up went on loading after the port closed"


class _NotedEvent(threading.Event):
    """An event that tells `noted` when a thread starts waiting on it while it is clear."""

    def __init__(self, noted: threading.Event) -> None:
        super().__init__()
        self.noted = noted

    def wait(self, timeout: float | None = None) -> bool:
        if not self.is_set():
            self.noted.set()
        return super().wait(timeout)


def test_warm_up_waits_while_a_plan_is_made(
    relay_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plan being made has the interpreter to itself: the warm-up's steps (the country tables
    a plan may not need, the name parser) wait until it is answered, then run. (They used to run
    beside the first plan, which then took longer than everything it needed.)"""
    from bridge.forms import FillRequest

    del relay_home
    monkeypatch.setattr(bridge.llm.client, "load", lambda: None)
    deciding, may_decide = threading.Event(), threading.Event()
    # Set when the warm-up pauses for the plan, or when it runs a step (as it used to).
    paused_or_stepped, stepped = threading.Event(), threading.Event()
    during_plan: list[bool] = []
    real_decide = bridge.rules.engine.decide

    def slow_decide(*args: object) -> object:
        deciding.set()
        may_decide.wait(60)
        return real_decide(*args)  # type: ignore[arg-type]

    def step() -> None:
        during_plan.append(not may_decide.is_set())
        paused_or_stepped.set()
        stepped.set()

    monkeypatch.setattr(bridge.rules.engine, "decide", slow_decide)
    monkeypatch.setattr(bridge.rules.engine, "warm_steps", lambda: [step])
    runtime = Runtime(profile_path=SAMPLE_PROFILE)
    no_plan = _NotedEvent(paused_or_stepped)
    no_plan.set()
    runtime._idle = no_plan
    request = FillRequest.model_validate({"url": "http://127.0.0.1/apply", "frames": [{"fields": [
        {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"}]}]})
    planner = threading.Thread(target=runtime.plan_fill, args=(request, "plan-1"))
    planner.start()
    try:
        assert deciding.wait(60), "the plan never reached the rules"
        runtime.warm_up()
        assert paused_or_stepped.wait(60), "the warm-up neither paused nor ran"
    finally:
        may_decide.set()
    planner.join(60)
    assert stepped.wait(60), "the warm-up never ran once the plan was answered"
    runtime.close()
    assert during_plan == [False], "a warm-up step ran while the plan was being made"


def test_warm_up_waits_while_a_request_is_read(
    relay_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warm-up starts no step from the moment a request is dispatched: a cold bridge's first
    plan spends most of its time loading its action and validating the form before the plan
    itself starts, and a step begun then (the model layer, the country tables) shared the
    interpreter with it."""
    import bridge.actions.fill_plan as fill_plan
    from bridge.actions.registry import dispatch
    from bridge.protocol.envelopes import Request

    del relay_home
    monkeypatch.setattr(bridge.llm.client, "load", lambda: None)
    reading, may_read = threading.Event(), threading.Event()
    paused_or_stepped, stepped = threading.Event(), threading.Event()
    during_request: list[bool] = []
    real_parse = fill_plan.parse

    def slow_parse(payload: dict[str, object]) -> object:
        reading.set()
        may_read.wait(60)
        return real_parse(payload)

    def step() -> None:
        during_request.append(not may_read.is_set())
        paused_or_stepped.set()
        stepped.set()

    monkeypatch.setattr(fill_plan, "parse", slow_parse)
    monkeypatch.setattr(bridge.rules.engine, "warm_steps", lambda: [step])
    runtime = Runtime(profile_path=SAMPLE_PROFILE)
    no_request = _NotedEvent(paused_or_stepped)
    no_request.set()
    runtime._idle = no_request
    request = Request(v=1, id="r-1", type="fill.plan", payload={
        "url": "http://127.0.0.1/apply", "frames": [{"fields": [
            {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"}]}]})
    answering = threading.Thread(target=dispatch, args=(runtime, request))
    answering.start()
    try:
        assert reading.wait(60), "the request was never read"
        runtime.warm_up()
        assert paused_or_stepped.wait(60), "the warm-up neither paused nor ran"
    finally:
        may_read.set()
    answering.join(60)
    assert stepped.wait(60), "the warm-up never ran once the request was answered"
    runtime.close()
    assert during_request == [False], "a warm-up step ran while the request was read"


def test_warm_up_waits_while_the_model_is_asked(
    relay_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A streamed plan's model questions come next on a fresh bridge's way to the model's answers
    (their preparation reads the resume): the warm-up waits until they are done, too."""
    from bridge.forms import FillRequest
    from bridge.llm.escalate import EscalationResult

    del relay_home
    monkeypatch.setenv("RELAY_LLM_API_BASE", "http://127.0.0.1:9/v1")
    monkeypatch.setattr(bridge.llm.client, "load", lambda: None)
    asking, may_answer = threading.Event(), threading.Event()
    paused_or_stepped, stepped = threading.Event(), threading.Event()
    during_model: list[bool] = []

    def slow_model(request: object, loaded: object, decisions: list[object], *rest: object
                   ) -> EscalationResult:
        asking.set()
        may_answer.wait(60)
        return EscalationResult(decisions=decisions, status="llm: stand-in")

    def step() -> None:
        during_model.append(not may_answer.is_set())
        paused_or_stepped.set()
        stepped.set()

    monkeypatch.setattr(bridge.rules.engine, "warm_steps", lambda: [step])
    runtime = Runtime(profile_path=SAMPLE_PROFILE)
    runtime.emit = lambda event: True
    monkeypatch.setattr(runtime, "escalate_for", slow_model)
    no_plan = _NotedEvent(paused_or_stepped)
    no_plan.set()
    runtime._idle = no_plan
    request = FillRequest.model_validate({"url": "http://127.0.0.1/apply", "stream": True,
                                          "frames": [{"fields": [
        {"id": "f1", "widget": "textarea", "label": "Describe a system you designed"}]}]})
    runtime.plan_fill(request, "plan-1")
    try:
        assert asking.wait(60), "the plan asked the model nothing"
        runtime.warm_up()
        assert paused_or_stepped.wait(60), "the warm-up neither paused nor ran"
    finally:
        may_answer.set()
    assert stepped.wait(60), "the warm-up never ran once the model had answered"
    runtime.close()
    assert during_model == [False], "a warm-up step ran while the model was being asked"
