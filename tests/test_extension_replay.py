"""Durable delivery, the extension's side: real Chromium, the real extension and the real
`relay-bridge` (registered in a throwaway user-data-dir through a wrapper that logs its pid).

A run's plan arrives but is not applied (`relayPlanTab`, the same bookkeeping path a Fill takes);
then the bridge is killed, or the service worker is stopped, and the replay after the restart
fills each field exactly once and leaves nothing pending at the bridge. Model answers that stream
in after the plan (a scripted model server on loopback, answering after 2 s) take the same path.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.chromium import launch
from bridge.driver.registration import bridge_executable, register_in_user_data_dir
from bridge.driver.static_server import StaticServer
from tests.bridge_process import BridgeProcess
from tests.conftest import REPO, SAMPLE_PROFILE
from tests.llm_server import LlmServer, Reply, by_label, llm_server_session

__all__ = ["llm_server_session"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(os.name == "nt", reason="a POSIX shell wrapper and signals to the bridge"),
]

EXTENSION = REPO / "extension"
SCOPE = "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"

FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Apply</title></head><body>
<form onsubmit="return false">
  <div><label for="fn">First name</label><input id="fn" name="first_name"></div>
  <div><label for="em">Email</label><input id="em" type="email" name="email"></div>
</form>
<script>
  // How many times each field was written: a replay applied twice would show 2.
  window.__inputs = { fn: 0, em: 0 };
  document.addEventListener("input", (e) => { window.__inputs[e.target.id] += 1; }, true);
</script>
</body></html>
"""

RESUME_FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Apply</title></head><body>
<form onsubmit="return false">
  <div><label for="fn">First name</label><input id="fn" name="first_name"></div>
  <div><label for="cv">Resume/CV</label><input id="cv" type="file" name="resume"></div>
</form>
</body></html>
"""
# Two fields the rules know, three only the model can answer (one of its answers is invented).
STREAM_FORM = """<!doctype html><html><head><meta charset="utf-8"><title>Apply</title></head><body>
<p>Acme Payments is hiring a backend engineer to run its event pipeline.</p>
<form onsubmit="return false">
  <div><label for="fn">First name</label><input id="fn" name="first_name"></div>
  <div><label for="em">Email</label><input id="em" type="email" name="email"></div>
  <div><label for="broker">Which message broker have you run in production?</label>
    <input id="broker" name="q_broker"></div>
  <div><label for="lang">Which language do you write most of your backend code in?</label>
    <input id="lang" name="q_lang"></div>
  <div><label for="revenue">How much revenue did your last project bring in?</label>
    <input id="revenue" name="q_revenue"></div>
</form>
<script>
  // How often each field was written, and in which order fields got their first value.
  window.__inputs = { fn: 0, em: 0, broker: 0, lang: 0, revenue: 0 };
  window.__order = [];
  document.addEventListener("input", (e) => {
    if (!window.__inputs[e.target.id]) window.__order.push(e.target.id);
    window.__inputs[e.target.id] += 1;
  }, true);
</script>
</body></html>
"""
MODEL_DELAY_S = 2.0
LLM_ENV = {
    "RELAY_LLM_API_KEY": "sk-test-not-a-real-key",
    "RELAY_MODEL_FAST": "openai/fast-model",
    "RELAY_MODEL_GENERAL": "openai/general-model",
    "RELAY_MODEL_HEAVY": "",
}

# Larger than one native-messaging frame once in base64 (1 MiB): its replay comes in chunks.
RESUME_BYTES = 1_500_000

_TABS = itertools.count(1)


@dataclass
class Relay:
    context: Any
    worker: Any
    site: str
    home: Path
    pids: Path
    warm_pid: int = 0

    def bridge_pid(self) -> int:
        return int(self.pids.read_text().split()[-1])

    def connects(self) -> int:
        count: int = self.worker.evaluate("() => relayPort.connects")
        return count

    def warm_bridge(self, page: Any) -> None:
        """Connect and let the bridge's warm-up finish before planning. Its replay pass runs once
        per connection, about a second in, and would otherwise replay a run planned meanwhile."""
        self.worker.evaluate("() => relayPort.request('ping')")
        if self.warm_pid != self.bridge_pid():
            page.wait_for_timeout(2000)
            self.warm_pid = self.bridge_pid()


@pytest.fixture(scope="module")
def relay(
    tmp_path_factory: pytest.TempPathFactory, chromium: str, llm_server_session: LlmServer
) -> Iterator[Relay]:
    from playwright import sync_api

    root = tmp_path_factory.mktemp("replay-site")
    (root / "form.html").write_text(FORM, encoding="utf-8")
    (root / "stream.html").write_text(STREAM_FORM, encoding="utf-8")
    # Another wording: the model's cached answer to the first one does not apply.
    again = STREAM_FORM.replace("have you run in production", "do you know best")
    (root / "stream-again.html").write_text(again, encoding="utf-8")
    # And a third, for the worker stopped mid-Fill: no cached answer fills a field at once.
    third = STREAM_FORM.replace("have you run in production", "did you operate last").replace(
        "write most of your backend code in", "use for most backend work")
    (root / "stream-stop.html").write_text(third, encoding="utf-8")
    (root / "other.html").write_text("<p>somewhere else</p>", encoding="utf-8")
    (root / "resume.html").write_text(RESUME_FORM, encoding="utf-8")
    scratch = tmp_path_factory.mktemp("replay-browser")
    home = tmp_path_factory.mktemp("replay-home")
    pids = scratch / "bridge-pids.txt"
    wrapper = scratch / "relay-bridge-logged"
    # `exec` keeps the pid: the logged pid is the bridge's own.
    wrapper.write_text(
        f'#!/bin/sh\necho $$ >> "{pids}"\nexec "{bridge_executable(scratch)}" "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    udd = scratch / "profile"
    udd.mkdir()
    register_in_user_data_dir(udd, wrapper)
    resume = scratch / "resume.pdf"
    resume.write_bytes(b"%PDF-1.4\n" + os.urandom(RESUME_BYTES - 9))
    profile = json.loads(SAMPLE_PROFILE.read_text(encoding="utf-8"))
    profile["application"]["documents"]["resume"] = str(resume)
    (scratch / "profile.json").write_text(json.dumps(profile), encoding="utf-8")
    env = {
        "RELAY_PROFILE": str(scratch / "profile.json"), "RELAY_HOME": str(home),
        "RELAY_LLM_API_BASE": llm_server_session.base_url, **LLM_ENV,
    }
    with StaticServer(root) as server, sync_api.sync_playwright() as playwright:
        context = launch(playwright, user_data_dir=udd, extension_dir=EXTENSION, env=env)
        try:
            worker = (
                context.service_workers[0]
                if context.service_workers
                else context.wait_for_event("serviceworker", timeout=10_000)
            )
            yield Relay(context, worker, server.url("").rstrip("/"), home, pids)
        finally:
            context.close()


def assert_fresh_bridge_sends_nothing(relay: Any) -> None:
    """A new bridge process on the same data folder sends no event after its hello."""
    fresh = BridgeProcess(
        env={"RELAY_HOME": str(relay.home), "RELAY_PROFILE": str(SAMPLE_PROFILE)}
    )
    try:
        assert fresh.request("hello", {"protocol": "1.0"}, rid="h")["ok"]
        time.sleep(1.5)  # replays come from the warm-up, off the request path
        fresh.send({"v": 1, "id": "p", "type": "ping", "payload": {}})
        assert fresh.receive()["id"] == "p"  # no event frame came before the pong
    finally:
        fresh.close()


def wait_until(
    check: Callable[[], Any], timeout: float = 20.0, what: str = "condition", page: Any = None
) -> Any:
    """Poll `check`; with a page, wait through it so Playwright keeps delivering CDP events."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        if page is not None:
            page.wait_for_timeout(100)
        else:
            time.sleep(0.1)


def open_form(relay: Relay, name: str = "form.html") -> tuple[Any, int]:
    """A new tab with the form; a fresh query string tells its tab apart from earlier ones."""
    page = relay.context.new_page()
    page.goto(f"{relay.site}/{name}?tab={next(_TABS)}", wait_until="load")
    tab_id: int = relay.worker.evaluate(
        "async (url) => (await chrome.tabs.query({})).find((t) => t.url === url).id", page.url
    )
    return page, tab_id


def plan_only(relay: Relay, tab_id: int) -> dict[str, Any]:
    """Snapshot and plan, recorded as a Fill records it, and stop before applying."""
    outcome: dict[str, Any] = relay.worker.evaluate("(id) => relayPlanTab(id)", tab_id)
    assert outcome["ok"], outcome
    seqs = [d["seq"] for d in outcome["plan"]["decisions"] if d["seq"] is not None]
    why = [(d["action"], d["status"], d["reason"]) for d in outcome["plan"]["decisions"]]
    assert seqs == [1, 2], why
    return outcome


def values(plan: dict[str, Any]) -> dict[str, str]:
    """What the plan types into each field, by element id."""
    ids = {"First name": "fn", "Email": "em"}
    return {ids[d["label"]]: d["value"] for d in plan["decisions"] if d["seq"] is not None}


def record(relay: Relay, run_id: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = relay.worker.evaluate(
        "(run) => relayDeliveries.get(run)", run_id
    )
    return found


def wait_acked(relay: Relay, run_id: str, timeout: float = 25.0) -> dict[str, Any]:
    def acked() -> dict[str, Any] | None:
        try:
            got = record(relay, run_id)
        except Exception:  # the worker is starting again: its globals are not there yet
            return None
        return got if got and got["acked"] == got["last_seq"] else None

    try:
        done: dict[str, Any] = wait_until(acked, timeout, f"{run_id} acknowledged")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; extension state: {diagnostics(relay)}") from None
    relay.worker.evaluate("() => relayReplay.settled()")
    return done


def diagnostics(relay: Relay) -> Any:
    return relay.worker.evaluate("""() => ({
        port: { state: relayPort.state, connects: relayPort.connects, error: relayPort.lastError },
        events: relayEvents.map((e) => e.kind),
        outcomes: relayReplay.outcomes,
    })""")


def outcomes(
    relay: Relay, run_id: str, since: int = 0, connection: bool = False
) -> list[tuple[Any, ...]]:
    """Replay outcomes for the run, from the `since`-th on (the bridge may replay a run while it
    answers its plan, so counts start where a test begins to inject); with `connection`, each
    says which connection of the port delivered it."""
    got: list[dict[str, Any]] = relay.worker.evaluate("() => relayReplay.outcomes")
    mine = [
        (o["seq"], o["outcome"], o.get("status", ""), *([o["connection"]] if connection else []))
        for o in got
        if o["run_id"] == run_id
    ]
    return mine[since:]


def assert_not_applied_yet(relay: Relay, page: Any, run_id: str) -> None:
    page.wait_for_timeout(400)  # longer than a replay burst takes to settle
    rec = record(relay, run_id)
    assert rec is not None and rec["done"] == [] and rec["acked"] == 0, rec
    assert outcomes(relay, run_id) == []
    assert page.evaluate("window.__inputs") == {"fn": 0, "em": 0}


def pending_at_bridge(relay: Relay, run_id: str) -> list[int]:
    from bridge.store import Store

    with Store.open(relay.home) as store:
        return [d.seq for d in store.pending(run_id)]


def inject_replay(relay: Relay, plan: dict[str, Any], seqs: list[int]) -> None:
    """Replay events as the port receives them from the wire (one burst)."""
    relay.worker.evaluate(
        """([plan, seqs]) => {
            for (const seq of seqs) {
                const decision = plan.decisions.find((d) => d.seq === seq);
                const event = {
                    kind: "fill.replay", run_id: plan.run_id, seq, delivery: "fill.decision",
                    decision,
                };
                relayPort._receive({ v: 1, type: "event", seq: relayPort._lastSeq + 1, event });
            }
        }""",
        [plan, seqs],
    )
    relay.worker.evaluate("() => relayReplay.settled()")


def test_bridge_restart_replays_each_field_once(relay: Relay) -> None:
    page, tab_id = open_form(relay)
    try:
        relay.warm_bridge(page)
        outcome = plan_only(relay, tab_id)
        run_id = outcome["run_id"]
        # The run → tab mapping is recorded when the plan arrives, before anything is applied.
        rec = record(relay, run_id)
        assert rec is not None
        assert (rec["tab_id"], rec["url"], rec["last_seq"]) == (tab_id, page.url, 2)
        assert_not_applied_yet(relay, page, run_id)
        assert pending_at_bridge(relay, run_id) == [1, 2]

        pid = relay.bridge_pid()
        connection = relay.connects()
        os.kill(pid, signal.SIGKILL)  # the port drops; the extension reconnects with backoff
        wait_acked(relay, run_id)
        assert relay.bridge_pid() != pid
        relay.warm_pid = relay.bridge_pid()  # its replay pass was the last step of its warm-up

        expected = values(outcome["plan"])
        assert {k: page.input_value(f"#{k}") for k in expected} == expected
        assert expected["fn"] == "Ada"
        page.wait_for_timeout(300)  # anything late would show up as a second write
        assert page.evaluate("window.__inputs") == {"fn": 1, "em": 1}
        # Applied from the replay on the new connection.
        assert outcomes(relay, run_id, connection=True) == [
            (1, "applied", "applied", connection + 1),
            (2, "applied", "applied", connection + 1),
        ]
        assert pending_at_bridge(relay, run_id) == []

        # A fresh bridge process replays nothing after its hello.
        assert_fresh_bridge_sends_nothing(relay)
    finally:
        page.close()


def test_a_replayed_resume_larger_than_a_frame_arrives_whole(relay: Relay) -> None:
    """A delivery over 1 MiB is sent as chunks of one event, and marked sent only once sent."""
    page = relay.context.new_page()
    page.goto(f"{relay.site}/resume.html", wait_until="load")
    tab_id: int = relay.worker.evaluate(
        "async (url) => (await chrome.tabs.query({})).find((t) => t.url === url).id", page.url
    )
    try:
        relay.warm_bridge(page)
        outcome: dict[str, Any] = relay.worker.evaluate("(id) => relayPlanTab(id)", tab_id)
        assert outcome["ok"], outcome
        run_id = outcome["run_id"]
        assert pending_at_bridge(relay, run_id) == [1, 2]
        os.kill(relay.bridge_pid(), signal.SIGKILL)
        wait_acked(relay, run_id)
        relay.warm_pid = relay.bridge_pid()
        assert page.input_value("#fn") == "Ada"
        size = page.evaluate("document.querySelector('#cv').files[0]?.size ?? 0")
        assert size == RESUME_BYTES
        assert pending_at_bridge(relay, run_id) == []
    finally:
        page.close()


def test_replay_of_applied_seq_changes_nothing(relay: Relay) -> None:
    page, tab_id = open_form(relay)
    relay.warm_bridge(page)
    try:
        # A normal Fill: fill.applied carries up_to_seq and acknowledges both deliveries.
        filled = relay.worker.evaluate("(id) => relayFill(id)", tab_id)
        assert filled["ok"], filled
        run_id = filled["run_id"]
        assert page.evaluate("window.__inputs") == {"fn": 1, "em": 1}
        assert pending_at_bridge(relay, run_id) == []
        rec = record(relay, run_id)
        assert rec is not None and rec["acked"] == 2

        # The same deliveries replayed (twice over): acknowledged, never applied again.
        before = len(outcomes(relay, run_id))
        inject_replay(relay, filled["plan"], [1, 2, 1])
        inject_replay(relay, filled["plan"], [2])
        page.wait_for_timeout(200)
        assert page.evaluate("window.__inputs") == {"fn": 1, "em": 1}
        assert [o for _, o, _ in outcomes(relay, run_id, before)] == ["already"] * 4

        # A plan not yet applied, whose replay arrives twice in one burst and again later.
        again, again_tab = open_form(relay)
        try:
            outcome = plan_only(relay, again_tab)
            inject_replay(relay, outcome["plan"], [1, 1, 2])
            inject_replay(relay, outcome["plan"], [2, 1])
            assert again.evaluate("window.__inputs") == {"fn": 1, "em": 1}
            assert again.input_value("#fn") == "Ada"
            got = outcomes(relay, outcome["run_id"])
            assert sorted((s, o) for s, o, _ in got) == [
                (1, "already"),
                (1, "already"),
                (1, "applied"),
                (2, "already"),
                (2, "applied"),
            ]
            assert pending_at_bridge(relay, outcome["run_id"]) == []
        finally:
            again.close()
    finally:
        page.close()


def test_replay_overtaking_its_plan_reply_is_left_to_the_fill(relay: Relay) -> None:
    """The bridge may replay a run from its warm-up while it answers that run's plan: those
    events reach the worker before the reply, and the Fill applies the fields, once."""
    page, tab_id = open_form(relay)
    relay.warm_bridge(page)  # only the injected replays below, not a real one from the warm-up
    relay.worker.evaluate(
        """() => {
            const request = relayPort.request.bind(relayPort);
            relayPort.__request = request;
            relayPort.request = async (type, payload, options) => {
                const reply = await request(type, payload, options);
                if (type !== "fill.plan") return reply;
                for (const decision of reply.decisions.filter((d) => d.seq)) {
                    const event = {
                        kind: "fill.replay", run_id: reply.run_id, seq: decision.seq,
                        delivery: "fill.decision", decision,
                    };
                    relayPort._receive({ v: 1, type: "event", seq: relayPort._lastSeq + 1, event });
                }
                await new Promise((r) => setTimeout(r, 400)); // past the burst's settling time
                return reply;
            };
        }"""
    )
    try:
        filled = relay.worker.evaluate("(id) => relayFill(id)", tab_id)
        assert filled["ok"], filled
        relay.worker.evaluate("() => relayReplay.settled()")
        assert [o for _, o, _ in outcomes(relay, filled["run_id"])] == ["deferred"] * 2
        assert [r["status"] for r in filled["applied"]] == ["applied", "applied"]
        assert filled["warnings"] == []
        assert page.evaluate("window.__inputs") == {"fn": 1, "em": 1}
        assert pending_at_bridge(relay, filled["run_id"]) == []
    finally:
        relay.worker.evaluate("() => { relayPort.request = relayPort.__request; }")
        page.close()


def test_replay_for_a_page_left_or_closed_is_acknowledged_unapplied(relay: Relay) -> None:
    moved, moved_tab = open_form(relay)
    closed, closed_tab = open_form(relay)
    relay.warm_bridge(moved)
    left = plan_only(relay, moved_tab)
    gone = plan_only(relay, closed_tab)
    moved.goto(f"{relay.site}/other.html", wait_until="load")
    closed.close()
    try:
        inject_replay(relay, left["plan"], [1, 2])
        inject_replay(relay, gone["plan"], [1, 2])
        for outcome in (left, gone):
            assert [o for _, o, _ in outcomes(relay, outcome["run_id"])] == ["not_applicable"] * 2
            assert pending_at_bridge(relay, outcome["run_id"]) == []
            rec = record(relay, outcome["run_id"])
            assert rec is not None and rec["acked"] == 2
        moved.go_back(wait_until="load")
        assert moved.evaluate("window.__inputs") == {"fn": 0, "em": 0}
    finally:
        moved.close()


def test_service_worker_restart_replays_after_start_up(relay: Relay) -> None:
    page, tab_id = open_form(relay)
    cdp = relay.context.new_cdp_session(page)
    status: list[str] = []
    cdp.on(
        "ServiceWorker.workerVersionUpdated",
        lambda e: status.extend(
            v["runningStatus"] for v in e["versions"] if v["scriptURL"].startswith(SCOPE)
        ),
    )
    cdp.send("ServiceWorker.enable")
    try:
        relay.warm_bridge(page)
        outcome = plan_only(relay, tab_id)
        run_id = outcome["run_id"]
        assert_not_applied_yet(relay, page, run_id)
        relay.worker.evaluate("() => { globalThis.__beforeStop = true; }")
        pid = relay.bridge_pid()

        # Stop the worker between plan and apply: its port closes and the bridge exits.
        cdp.send("ServiceWorker.stopAllWorkers")
        wait_until(lambda: status and status[-1] == "stopped", 10, "the worker to stop", page)
        wait_until(lambda: not _alive(pid), 10, "the bridge to exit with the port", page)
        assert page.evaluate("window.__inputs") == {"fn": 0, "em": 0}

        # Something wakes the worker (here CDP); at start-up it finds the open run and connects.
        cdp.send("ServiceWorker.startWorker", {"scopeURL": SCOPE})
        wait_until(lambda: status and status[-1] == "running", 10, "the worker to start", page)
        wait_acked(relay, run_id)
        assert relay.worker.evaluate("() => globalThis.__beforeStop ?? null") is None  # fresh
        assert relay.connects() == 1  # connected at start-up, with no click
        assert relay.bridge_pid() != pid

        expected = values(outcome["plan"])
        assert {k: page.input_value(f"#{k}") for k in expected} == expected
        page.wait_for_timeout(300)
        assert page.evaluate("window.__inputs") == {"fn": 1, "em": 1}
        assert outcomes(relay, run_id) == [(1, "applied", "applied"), (2, "applied", "applied")]
        assert pending_at_bridge(relay, run_id) == []
    finally:
        cdp.detach()
        page.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by Chromium) counts as gone.
    try:
        return "Z" not in Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False


def _model(hold_first_s: float = 0.0) -> Any:
    """The scripted model: the broker from the profile, a revenue figure resting on a fact that
    does not exist (the guard refuses it), each after MODEL_DELAY_S; the first call after
    `hold_first_s` instead (a bridge killed meanwhile never hears it)."""
    calls = itertools.count()

    def reply(body: dict[str, Any]) -> Reply:
        first = next(calls) == 0
        out: dict[str, Any] = {}
        for label, qid in by_label(body).items():
            if label.startswith("Which message broker"):
                out[qid] = {"answer": "Kafka", "facts": ["work[1].highlights[0]"], "quotes": [],
                            "confidence": 0.9}
            elif label.startswith("Which language"):
                out[qid] = {"answer": "Python", "facts": ["skills[0].keywords[0]"], "quotes": [],
                            "confidence": 0.9}
            elif label.startswith("How much revenue"):
                out[qid] = {"answer": "$5 million", "facts": ["work[7].highlights[0]"],
                            "quotes": [], "confidence": 0.9}
            else:
                out[qid] = {"skip": "not in the facts"}
        delay = hold_first_s if first and hold_first_s else MODEL_DELAY_S
        return Reply({"fields": out}, delay_s=delay)

    return reply


def _audited(relay: Relay, run_id: str, action: str) -> int:
    from bridge.store import Store

    with Store.open(relay.home) as store:
        return sum(1 for e in store.audit_entries(run_id) if e["action"] == action)


def _answers(relay: Relay, run_id: str) -> list[tuple[int, str, str]]:
    events: list[dict[str, Any]] = relay.worker.evaluate("() => relayEvents")
    return [
        (e["decision"]["seq"], e["decision"]["field_id"], e["decision"]["action"])
        for e in events
        if e.get("kind") == "fill.answer" and e.get("run_id") == run_id
    ]


def _state(relay: Relay, tab_id: int) -> dict[str, Any]:
    state: dict[str, Any] = relay.worker.evaluate(
        "(id) => chrome.tabs.sendMessage(id, { relay: 'state' }, { frameId: 0 })", tab_id
    )
    return state


def test_model_answers_stream_in_after_the_rules_and_survive_a_bridge_kill(
    relay: Relay, llm_server_session: LlmServer
) -> None:
    server = llm_server_session
    page, tab_id = open_form(relay, "stream.html")
    try:
        relay.warm_bridge(page)
        server.reset(_model())
        outcome = relay.worker.evaluate("(id) => relayFill(id)", tab_id)
        assert outcome["ok"], outcome
        run_id = outcome["run_id"]
        assert page.input_value("#fn") == "Ada" and page.input_value("#broker") == "Kafka"
        assert page.input_value("#lang") == "Python" and page.input_value("#revenue") == ""
        # The rules' values landed first; the model's answers came after, as their deliveries.
        assert page.evaluate("window.__order") == ["fn", "em", "broker", "lang"]
        plan_seqs = [d["seq"] for d in outcome["plan"]["decisions"] if d["key"]]
        answers = _answers(relay, run_id)
        assert sorted(f for _, f, _ in answers) == ["f3", "f4", "f5"], answers
        assert min(s for s, _, _ in answers) > max(s for s in plan_seqs if s), (plan_seqs, answers)
        revenue = next(d for d in outcome["plan"]["decisions"] if d["field_id"] == "f5")
        assert revenue["action"] == "none" and "refused" in revenue["reason"], revenue
        # Each applied, recorded and acknowledged once.
        page.wait_for_timeout(300)  # anything late would show up as a second write
        assert page.evaluate("window.__inputs") == {
            "fn": 1, "em": 1, "broker": 1, "lang": 1, "revenue": 0}
        assert pending_at_bridge(relay, run_id) == []
        assert _audited(relay, run_id, "fill.model") == 1
        assert _audited(relay, run_id, "fill.applied") == 1
        assert outcome["plan"]["llm_calls"] >= 1

        # Again on a new tab, and the bridge dies while the model is thinking.
        page.close()
        page, tab_id = open_form(relay, "stream-again.html")
        server.reset(_model(hold_first_s=120))
        relay.worker.evaluate("(id) => { globalThis.__streamed = relayFill(id); }", tab_id)
        wait_until(lambda: server.requests and page.input_value("#em"), 60,
                   "the rules' values and the model asked", page)
        # The fields waiting for the model say so, in the page and in the side panel.
        wait_until(lambda: _state(relay, tab_id)["marks"].get("asking") == 3, 20,
                   "the asking marks", page)
        # The side panel gets its rows once the rules' values and later rounds are applied.
        def asking_rows() -> list[dict[str, Any]]:
            review = relay.worker.evaluate("(id) => relayReview.read(id)", tab_id)
            return [r for r in review["rows"] if "asking the model" in r["why"]]

        waiting = wait_until(asking_rows, 20, "the side panel's rows asking the model", page)
        assert len(waiting) == 3, waiting
        assert page.input_value("#broker") == ""
        page.fill("#lang", "Go")  # the person answers one themselves meanwhile
        pid = relay.bridge_pid()
        os.kill(pid, signal.SIGKILL)  # the next bridge finds the question unanswered, asks again
        outcome = relay.worker.evaluate("() => globalThis.__streamed")
        assert outcome["ok"], outcome
        run_id = outcome["run_id"]
        assert relay.bridge_pid() != pid
        assert page.input_value("#broker") == "Kafka"
        assert page.input_value("#lang") == "Go"  # the model's answer did not overwrite theirs
        lang = next(r for r in outcome["applied"] if r["field_id"] == "f4")
        assert lang["status"] == "user_edited", lang
        page.wait_for_timeout(300)
        inputs = page.evaluate("window.__inputs")
        assert (inputs["fn"], inputs["em"], inputs["broker"], inputs["revenue"]) == (1, 1, 1, 0)
        assert page.evaluate("window.__order") == ["fn", "em", "lang", "broker"]
        assert _state(relay, tab_id)["marks"].get("asking") == 0
        assert pending_at_bridge(relay, run_id) == []
        assert _audited(relay, run_id, "fill.model") == 1
        assert _audited(relay, run_id, "fill.applied") == 1

        # A fresh bridge process has nothing left to replay or to ask.
        assert_fresh_bridge_sends_nothing(relay)
    finally:
        page.close()


def test_port_drop_during_a_plan_ends_the_fill_plainly_and_the_next_fill_works(
    relay: Relay,
) -> None:
    """The bridge dies while a Fill waits for its plan: the bridge had stored the run, the reply
    never reached the worker. The Fill ends with a plain error, the bridge's replay of that run
    changes nothing on the page, and the next Fill fills each field once."""
    page, tab_id = open_form(relay)
    try:
        relay.warm_bridge(page)
        # Hold back the plan's reply as if it were still on the wire; the bridge has answered.
        relay.worker.evaluate(
            """() => {
                const receive = relayPort._receive.bind(relayPort);
                relayPort.__receive = receive;
                globalThis.__heldPlan = null;
                relayPort._receive = (message) => {
                    const pending = relayPort._pending.get(message?.id);
                    if (pending?.type === "fill.plan" && !globalThis.__heldPlan) {
                        globalThis.__heldPlan = message;
                        return;
                    }
                    receive(message);
                };
            }"""
        )
        relay.worker.evaluate("(id) => { globalThis.__filling = relayFill(id); }", tab_id)
        held = wait_until(
            lambda: relay.worker.evaluate("() => globalThis.__heldPlan"), 20, "the plan's reply"
        )
        run_id = held["result"]["run_id"]
        assert pending_at_bridge(relay, run_id) == [1, 2]
        pid = relay.bridge_pid()
        os.kill(pid, signal.SIGKILL)
        failed = relay.worker.evaluate("() => globalThis.__filling")
        relay.worker.evaluate("() => { relayPort._receive = relayPort.__receive; }")
        assert not failed["ok"] and failed["error"]["code"] == "E_DISCONNECTED", failed
        message = failed["error"]["message"]
        assert "Relay bridge stopped" in message and "Fill again" in message, message
        assert page.evaluate("window.__inputs") == {"fn": 0, "em": 0}

        # The next connection replays the run nobody recorded: acknowledged, never applied.
        wait_until(lambda: relay.bridge_pid() != pid, 20, "the port to reconnect", page)
        wait_until(lambda: len(outcomes(relay, run_id)) == 2, 20, "the run's replay", page)
        relay.worker.evaluate("() => relayReplay.settled()")
        relay.warm_pid = relay.bridge_pid()
        assert [o for _, o, _ in outcomes(relay, run_id)] == ["not_applicable"] * 2
        assert pending_at_bridge(relay, run_id) == []
        assert page.evaluate("window.__inputs") == {"fn": 0, "em": 0}

        again = relay.worker.evaluate("(id) => relayFill(id)", tab_id)
        assert again["ok"], again
        assert again["run_id"] != run_id
        page.wait_for_timeout(300)  # a late second write would show up here
        assert page.evaluate("window.__inputs") == {"fn": 1, "em": 1}
        assert page.input_value("#fn") == "Ada"
        assert pending_at_bridge(relay, again["run_id"]) == []
    finally:
        relay.worker.evaluate(
            "() => { if (relayPort.__receive) relayPort._receive = relayPort.__receive; }"
        )
        page.close()


def test_service_worker_stopped_mid_fill_replays_the_rest_once(
    relay: Relay, llm_server_session: LlmServer
) -> None:
    """The worker is stopped while a Fill is applying (the rules' values are in, the model is
    still thinking): after it starts again, the unacknowledged deliveries replay once, the fields
    applied already are not written again, and the model's answers land once."""
    server = llm_server_session
    page, tab_id = open_form(relay, "stream-stop.html")
    cdp = relay.context.new_cdp_session(page)
    status: list[str] = []
    cdp.on(
        "ServiceWorker.workerVersionUpdated",
        lambda e: status.extend(
            v["runningStatus"] for v in e["versions"] if v["scriptURL"].startswith(SCOPE)
        ),
    )
    cdp.send("ServiceWorker.enable")
    try:
        relay.warm_bridge(page)
        server.reset(_model(hold_first_s=120))  # the first bridge never hears the model
        relay.worker.evaluate("(id) => { void relayFill(id); }", tab_id)
        wait_until(lambda: server.requests and page.input_value("#em"), 60,
                   "the rules' values and the model asked", page)
        pid = relay.bridge_pid()

        cdp.send("ServiceWorker.stopAllWorkers")
        wait_until(lambda: status and status[-1] == "stopped", 10, "the worker to stop", page)
        # Its bridge, still waiting for the model, exits with the port rather than linger.
        wait_until(lambda: not _alive(pid), 10, "the bridge to exit with the port", page)
        assert page.evaluate("window.__inputs") == {
            "fn": 1, "em": 1, "broker": 0, "lang": 0, "revenue": 0}

        cdp.send("ServiceWorker.startWorker", {"scopeURL": SCOPE})
        wait_until(lambda: status and status[-1] == "running", 10, "the worker to start", page)
        wait_until(lambda: page.input_value("#lang"), 60, "the model's answers", page)
        assert relay.bridge_pid() != pid
        run_id = wait_until(
            lambda: next(
                (r for r, in relay.worker.evaluate(
                    "() => relayEvents.filter((e) => e.run_id).map((e) => [e.run_id])")),
                None,
            ),
            10, "the run's events", page,
        )
        wait_acked(relay, run_id, 60)
        relay.worker.evaluate("() => relayStream.settled()")
        relay.warm_pid = relay.bridge_pid()
        page.wait_for_timeout(300)  # a late second write would show up here
        assert page.evaluate("window.__inputs") == {
            "fn": 1, "em": 1, "broker": 1, "lang": 1, "revenue": 0}
        assert page.input_value("#fn") == "Ada" and page.input_value("#broker") == "Kafka"
        # The rules' deliveries were handed to the page before the stop: found done, not redone.
        assert [(s, o) for s, o, _ in outcomes(relay, run_id) if s in (1, 2)] == [
            (1, "already"), (2, "already")]
        assert pending_at_bridge(relay, run_id) == []
    finally:
        cdp.detach()
        page.close()
