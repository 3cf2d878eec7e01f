"""The one runtime every front door calls (native host, CLI, the loopback HTTP API, MCP).

It owns the profile and the store, runs the rules engine on a snapshot, attaches documents,
records every run, and replays deliveries the extension never acknowledged. Front doors
never reach past it into the engine or the store.
"""

from __future__ import annotations

import base64
import logging
import mimetypes
import os
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bridge.clock import now_iso
from bridge.config_file import profile_override
from bridge.paths import relay_home
from bridge.protocol.envelopes import check_reply_fits
from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from bridge.forms import AckRequest, ApplyReport, BlockedReport, FieldDecision, FillRequest
    from bridge.learn.models import AnswerSave, ApplicationSubmitted
    from bridge.llm.escalate import EscalationResult, OnSettled
    from bridge.model_stream import ModelStream
    from bridge.profile import LoadedProfile
    from bridge.store import Store

# Heavy modules (pydantic models, the engine and its data, the store) are imported inside the
# methods that need them: the host answers its first `hello` fast and warms them up afterwards.

log = logging.getLogger(__name__)

# Developers' switch: write every form snapshot the bridge plans to this folder (for reproducing a
# bug offline, and for the benchmarks). Off unless set; the files stay on this machine.
CAPTURE_ENV = "RELAY_CAPTURE_SNAPSHOTS"
NO_PROFILE = (
    "no profile: import one with `relay profile import FILE` (or name a file with "
    "`relay config set profile FILE`)"
)


ASKING_WHY = "Relay is asking the model; its answer comes in a moment."
MODEL_WARM_IDLE_S = 2.0
# How long closing waits for a warm-up step that holds the store (opening it takes milliseconds
# on a quiet machine): the process is ending, and SQLite keeps the file whole either way.
CLOSE_WAIT_S = 0.5

# The front door a runtime serves; only the native port delivers plans to the browser.
NATIVE = "bridge"


class Runtime:
    def __init__(
        self, home: Path | None = None, profile_path: Path | None = None, *, door: str = NATIVE
    ) -> None:
        self.home = home or relay_home()
        # Names the actor in the audit log ("bridge", "http", "mcp").
        self.door = door
        # RELAY_PROFILE, else the settings file's `profile`, else the store's active profile.
        self._profile_path = profile_path or profile_override(home=self.home)
        self._file_profile: LoadedProfile | None = None
        self._file_mtime: float | None = None
        self._store: Store | None = None
        self._lock = threading.RLock()
        self._warmed = False
        self._closing = threading.Event()  # set by close(): warm-up starts nothing more
        # Only deliveries from before this connection are replayed: this connection's own plans
        # are being applied by the Fill that asked for them.
        self._connected_at = now_iso()
        # Set by the host: sends one event frame (thread-safe). None where there is no port.
        self.emit: Callable[[dict[str, Any]], bool] | None = None
        self._planned = threading.Event()  # the first plan is answered: litellm may load
        # Set while no plan is being made and no model question is being asked: the warm-up
        # runs its steps only then (hold_warm_up).
        self._idle = threading.Event()
        self._idle.set()
        self._busy_count = 0
        self._busy_lock = threading.Lock()
        self._model_stream: ModelStream | None = None

    # -- store and profile --------------------------------------------------------------------

    def store(self) -> Store:
        with self._lock:
            if self._store is None:
                from bridge.documents import adopt_old_choices
                from bridge.store import Store

                self._store = Store.open(self.home)
                adopt_old_choices(self.home, self._store)
            return self._store

    def close(self) -> None:
        """Close the store, unless a warm-up step still holds it: then leave it to the exit
        (the bridge is ending, and the warm-up's work is only ahead-of-time loading)."""
        self._closing.set()
        if not self._lock.acquire(timeout=CLOSE_WAIT_S):
            log.info("closing while the warm-up holds the store: not waiting for it")
            return
        try:
            if self._store is not None:
                self._store.close()
                self._store = None
        finally:
            self._lock.release()

    @property
    def model_stream(self) -> ModelStream:
        """The model questions of streamed plans (created on first use: it loads pydantic)."""
        with self._lock:
            if self._model_stream is None:
                from bridge.model_stream import ModelStream

                self._model_stream = ModelStream(self)
            return self._model_stream

    def profile(self) -> tuple[LoadedProfile, str]:
        """The profile to fill from, and its stored name ("" for a file named by RELAY_PROFILE).

        An explicit file wins (relay fill --profile, RELAY_PROFILE); otherwise the store's active
        profile. A file is reloaded when it changes on disk.
        """
        if self._profile_path is None:
            loaded = self.store().profile()
            if loaded is None:
                raise RelayError(ErrorCode.PROFILE_MISSING, NO_PROFILE)
            return loaded, self.store().active_profile_name() or ""
        from bridge.profile import load_profile

        try:
            mtime = self._profile_path.stat().st_mtime
        except OSError as exc:
            raise RelayError(
                ErrorCode.PROFILE_MISSING, f"profile file not found: {self._profile_path}"
            ) from exc
        with self._lock:
            if self._file_profile is None or mtime != self._file_mtime:
                self._file_profile = load_profile(self._profile_path)
                self._file_mtime = mtime
            return self._file_profile, ""

    def profile_file(self) -> Path | None:
        """The profile file a Fill uses instead of the stored profiles (None: the stored one)."""
        return self._profile_path

    def profile_hint(self) -> dict[str, Any]:
        """Whether a profile is configured, without loading anything heavy (cheap for `hello`)."""
        if self._profile_path is not None:
            found = self._profile_path.is_file()
            missing = f"profile file not found: {self._profile_path}"
            return {"source": "file", "error": "" if found else missing}
        return {"source": "store", "error": ""}

    def capabilities(self) -> list[str]:
        return [
            "fill.plan", "fill.applied", "fill.ack", "fill.blocked", "chunked-replies", "replay",
            "streamed-answers",
            "answer.save", "application.submitted", "applications.list", "application.get",
            "application.update", "answers.list", "answers.update", "answers.delete",
        ]

    # -- background work ----------------------------------------------------------------------

    def warm_up(self) -> None:
        """Load, in the background, what the first Fill needs, so it does not wait.

        Called on `hello`, which the extension sends the moment the port opens. litellm (seconds
        to import) gets its own thread, whatever else fails: it starts once the first plan is
        answered, or after MODEL_WARM_IDLE_S without one — its import holds the interpreter
        and would slow the rules' values of a Fill that arrives with the port. A Fill that needs
        the model while the import runs waits only for what is left of it (its answers stream
        in), and one that does not is never held up by it. A second thread replays pending
        deliveries, then loads the rules engine, the profile, the rules' data and the model
        layer's own modules, step by step, pausing while a request (a Fill's plan above all) or
        model questions are under way."""
        if self._warmed:
            return
        self._warmed = True
        threading.Thread(
            target=_warm_model, args=(self._planned, self._closing), name="relay-model-warm-up",
            daemon=True,
        ).start()
        threading.Thread(target=self._warm, name="relay-warm-up", daemon=True).start()

    def _warm(self) -> None:
        # Between steps it waits while a Fill's plan or model questions are under way (they
        # load what they need themselves; a step they do not need would only take the
        # interpreter from them), and stops once the port has closed: a closed bridge loads
        # nothing more.
        for step in self._warm_steps():
            self._idle.wait()
            if self._closing.is_set():
                return
            try:
                step()
            except Exception as exc:  # warm-up is an optimisation; the request path reports
                log.debug("warm-up step skipped: %s", exc)

    def _warm_steps(self) -> Iterator[Callable[[], object]]:
        """What the first Fill needs, most needed first; each step is short."""
        yield self._warm_deliveries  # they need only the store, and the extension is waiting
        yield _load_engine
        yield self.profile
        try:
            from bridge.rules.engine import warm_steps
        except ImportError:
            return
        yield from warm_steps()
        # After the rules' data: a streamed plan asks the model only after its reply, and a step
        # still running when a plan arrives shares the interpreter with it.
        yield _load_model_config
        yield self._warm_saved_answers

    def _warm_deliveries(self) -> None:
        self.replay_pending()
        self.model_stream.resume()

    def _warm_saved_answers(self) -> None:
        from bridge.learn import embedding
        from bridge.learn.lookup import index_answers

        if self.store().saved_answers(limit=1):
            index_answers(self.store())
            embedding.model()  # loaded even when every answer has its vector: each Fill
            # embeds the questions it asks (the encoder takes seconds to load)

    def replay_pending(self) -> int:
        """After a (re)connect: send again every delivery the extension never acknowledged."""
        if self.emit is None:
            return 0
        try:
            store = self.store()
            pending = [d for d in store.pending() if d.created_at < self._connected_at]
        except RelayError as exc:
            log.warning("cannot read pending deliveries: %s", exc.message)
            return 0
        sent = [
            delivery
            for delivery in pending
            if self.emit(
                {
                    "kind": "fill.replay",
                    "run_id": delivery.run_id,
                    "seq": delivery.seq,
                    "delivery": delivery.kind,
                    "decision": delivery.payload,
                }
            )
        ]
        if sent:  # only what reached the extension: the rest waits for the next connection
            store.mark_sent(sent)
            log.info("replayed %d of %d unacknowledged deliveries", len(sent), len(pending))
        return len(sent)

    # -- filling ------------------------------------------------------------------------------

    def plan_fill(self, request: FillRequest, request_key: str) -> dict[str, Any]:
        """Decide every field, store the run, and return the plan (the first answer on a retry).
        The warm-up waits meanwhile."""
        self.hold_warm_up()
        try:
            return self._plan_fill(request, request_key)
        finally:
            self.release_warm_up()

    def hold_warm_up(self) -> None:
        """Until release_warm_up(): a request, a Fill's plan or its model questions are under way,
        and the warm-up waits (its steps would only take the interpreter from them)."""
        with self._busy_lock:
            self._busy_count += 1
            self._idle.clear()

    def release_warm_up(self) -> None:
        with self._busy_lock:
            self._busy_count -= 1
            if not self._busy_count:
                self._idle.set()

    def _plan_fill(self, request: FillRequest, request_key: str) -> dict[str, Any]:
        store = self.store()
        first = store.answered(request_key)
        if first is not None:
            return first
        started = time.perf_counter()
        loaded, profile_name = self.profile()
        from bridge.forms import Action, FillPlan
        from bridge.learn.lookup import StoreLookup
        from bridge.rules.engine import decide, detect_ats
        from bridge.rules.explain import plain_reason

        saved = StoreLookup(store)
        decisions = decide(request, loaded, saved)
        if saved.used:
            store.mark_answers_used(saved.used)
        if request.continues:
            # A later round: the whole snapshot gave the context, only the fields it names are
            # decided (fields revealed or changed by what the earlier rounds applied).
            wanted = {(ref.frame, ref.field_id) for ref in request.decide}
            decisions = [d for d in decisions if (d.frame, d.field_id) in wanted]
            store.require_run(request.continues)
        planned = time.perf_counter()
        run_id = request.continues or store.new_run_id()
        asked = self._streamed(request, decisions)
        if asked:
            # The model's answers come later as `fill.answer` events (bridge/model_stream.py):
            # nothing here waits for the model, nor loads the model layer or litellm.
            from bridge.model_stream import mark_asking

            decisions = mark_asking(decisions, asked)
            llm_calls, llm_cost = 0, 0.0
            llm_status = f"llm: asking the model about {len(asked)} field(s)"
        else:
            llm = self.escalate_for(request, loaded, decisions, run_id)
            decisions, llm_calls, llm_cost, llm_status = (
                llm.decisions, llm.llm_calls, llm.cost_usd, llm.status
            )
        escalated = time.perf_counter()
        seq = 0
        for decision in decisions:
            decision.why = ASKING_WHY if decision.asking else plain_reason(decision)
            if decision.action is Action.ATTACH:
                self._attach_document(decision, loaded, profile_name, request.url)
            if decision.action is not Action.NONE:
                seq += 1
                decision.seq = seq
        plan = FillPlan(
            run_id=run_id,
            decisions=decisions,
            llm_calls=llm_calls,
            llm_cost_usd=llm_cost,
            llm_status=llm_status,
            llm_day_left_usd=self._day_left(),
            timings_ms={
                "rules": round((planned - started) * 1000, 3),
                "llm": round((escalated - planned) * 1000, 3),
            },
            entries={"work": len(loaded.profile.work), "edu": len(loaded.profile.education)},
        )
        plan.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 3)
        _capture(request, plan.run_id)
        check_reply_fits(plan.model_dump(mode="json"))  # refused before anything is stored
        job = None
        if asked:
            from bridge.model_stream import ModelJob, job_name

            job = (job_name(request_key),
                   ModelJob(run_id=plan.run_id, request=request, decisions=asked))
        record = store.record_plan(
            request_key, request, plan, loaded, profile_name=profile_name,
            ats=detect_ats(request), actor=self.door,
            model_job=None if job is None else (job[0], job[1].model_dump_json()),
        )
        # The reply carries every decision: it is the first sending of each delivery.
        store.mark_sent(record.deliveries)
        if self.door != NATIVE and seq:
            # A plan asked for by a tool or an assistant is done once it is answered: it must
            # never be replayed into a page in the browser.
            store.ack(plan.run_id, seq)
        if job is not None and not record.replayed:
            self.model_stream.start(*job)
        self._planned.set()
        log.info("planned %s%s: %d fields, %d to apply", plan.run_id,
                 " (a later round)" if request.continues else "", len(decisions), seq)
        return record.result

    # -- model answers that stream in ---------------------------------------------------------

    def _streamed(
        self, request: FillRequest, decisions: list[FieldDecision]
    ) -> list[FieldDecision]:
        """The fields to ask the model about after the reply: only the native port, which can
        send events, streams; other doors get the model's answers in the plan."""
        if not request.stream or self.door != NATIVE or self.emit is None:
            return []
        from bridge.llm.candidates import model_candidates
        from bridge.llm.config import load_config

        if not load_config().enabled:
            return []
        return model_candidates(request, decisions)

    def _day_left(self) -> float | None:
        """What the daily model cap leaves for today (None without a model)."""
        from bridge.llm.config import load_config
        from bridge.llm.ledger import CachedAnswer
        from bridge.store.llm_ledger import StoreLlmLedger

        config = load_config()
        if not config.enabled:
            return None
        midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        spent = StoreLlmLedger(self.store(), CachedAnswer).spent_usd_since(midnight)
        return round(max(config.cap_per_day_usd - spent, 0.0), 4)

    def escalate_for(
        self,
        request: FillRequest,
        loaded: LoadedProfile,
        decisions: list[FieldDecision],
        run_id: str,
        on_settled: OnSettled | None = None,
    ) -> EscalationResult:
        """What the rules left open goes to the model, behind the guards; rules only without one."""
        from bridge.llm.config import load_config
        from bridge.llm.escalate import escalate
        from bridge.llm.ledger import CachedAnswer
        from bridge.store.llm_ledger import StoreLlmLedger

        ledger = StoreLlmLedger(self.store(), CachedAnswer)
        return escalate(
            request, loaded, decisions, run_id=run_id, ledger=ledger, config=load_config(),
            on_settled=on_settled,
        )

    def record_applied(self, report: ApplyReport, request_key: str) -> dict[str, Any]:
        store = self.store()
        result = store.record_applied(request_key, report)
        if report.up_to_seq:
            result = {**result, "acked": store.ack(report.run_id, report.up_to_seq)}
        return result

    def record_blocked(self, report: BlockedReport, request_key: str) -> dict[str, Any]:
        return self.store().record_blocked(request_key, report.run_id, report.blocked)

    def ack(self, ack: AckRequest) -> dict[str, Any]:
        return {"acked": self.store().ack(ack.run_id, ack.up_to_seq)}

    def cost_summary(self) -> dict[str, Any]:
        return self.store().cost_summary()

    def record_call(
        self,
        action: str,
        payload: dict[str, Any],
        *,
        run_id: str | None,
        started: str,
        error: RelayError | None = None,
    ) -> None:
        """Audit one call through this front door, with the tokens and cost it spent (a retried
        request spent nothing: only model calls made since it started count)."""
        from decimal import Decimal

        store = self.store()
        usage = store.run_usage(run_id, started) if run_id else {}
        store.audit(
            actor=self.door,
            action=f"{self.door}.{action}",
            run_id=run_id,
            payload=payload,
            tokens_in=usage.get("tokens_in", 0),
            tokens_out=usage.get("tokens_out", 0),
            cost_cents=Decimal(usage.get("cost_e4", 0)) / 10_000,
            status="ok" if error is None else "error",
            error="" if error is None else f"{error.code.value}: {error.message}",
            started_at=started,
        )

    # -- the person's applications and saved answers ------------------------------------------

    def save_answer(self, payload: AnswerSave) -> dict[str, Any]:
        """"Save this answer" on a field: stored at once, replacing an earlier answer to it."""
        from bridge.learn.learning import answer_key, is_self_id
        from bridge.rules.lang import guess_lang

        q = payload.question
        self_id = payload.self_id or is_self_id(q.label, q.section, q.widget, q.options)
        answer_id, replaced = self.store().save_answer(
            qkey=answer_key(q.label, q.section, q.options), question=q.label.strip(),
            section=q.section, options=q.options, widget=q.widget,
            lang=q.lang or guess_lang(q.label), value=payload.value, values=payload.values,
            origin="saved", self_id=self_id,
        )
        self._index()
        return {"answer_id": answer_id, "replaced": replaced}

    def application_submitted(
        self, payload: ApplicationSubmitted, request_key: str
    ) -> dict[str, Any]:
        """The person's own Submit, seen by the extension: record it and learn from it (once per
        request: a retry gets the first answer)."""
        from bridge.learn.learning import learned

        result = self.store().record_application(request_key, payload, learned(payload))
        if result["answers_saved"]:
            self._index()
        log.info("application %s recorded: %s answers saved", result["application_id"],
                 result["answers_saved"])
        return result

    def applications(self, include_unsubmitted: bool, limit: int) -> list[dict[str, Any]]:
        from bridge.learn.history import applications_listing

        return applications_listing(self.store(), include_unsubmitted, limit)

    def application(self, application_id: int) -> dict[str, Any]:
        return self.store().application(application_id)

    def update_application(
        self, application_id: int, status: str | None, notes: str | None
    ) -> dict[str, Any]:
        return self.store().update_application(application_id, status, notes)

    def saved_answers(self, text: str, limit: int) -> list[dict[str, Any]]:
        return self.store().saved_answers(text, limit)

    def update_saved_answer(self, answer_id: int, value: str) -> dict[str, Any]:
        return self.store().update_saved_answer(answer_id, value)

    def delete_saved_answer(self, answer_id: int) -> bool:
        return self.store().delete_saved_answer(answer_id)

    def _index(self) -> None:
        """Embed new saved questions now, so the next Fill does not wait for it."""
        from bridge.learn.lookup import index_answers

        try:
            index_answers(self.store())
        except Exception as exc:  # the next Fill's search embeds what is missing
            log.warning("saved answers not indexed yet: %s", exc)

    def _attach_document(
        self, decision: FieldDecision, loaded: LoadedProfile, profile_name: str, url: str
    ) -> None:
        from bridge import documents
        from bridge.forms import Action

        cover = decision.key.endswith("coverLetter")
        doc_kind: documents.Kind = "coverLetter" if cover else "resume"
        # The file the person chose for this job, else the profile's default.
        chosen = documents.chosen(self.store(), profile_name, url, doc_kind) if profile_name else ""
        path = documents.resolve(loaded.base_dir, chosen) if chosen else None
        path = path or loaded.document_path(doc_kind)
        kind = "cover letter" if cover else "resume"
        if path is None or decision.file is None:
            decision.action = Action.NONE
            decision.file = None
            decision.reason = f"{decision.reason}; {kind} file not found".lstrip("; ")
            return
        data = path.read_bytes()
        decision.file.name = path.name
        decision.file.mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        decision.file.size = len(data)
        decision.file.data_b64 = base64.b64encode(data).decode("ascii")


def _load_engine() -> None:
    import bridge.rules.engine  # noqa: F401  (the engine's modules: forms, pydantic, resolvers)


def _load_model_config() -> None:
    import bridge.llm.escalate  # noqa: F401  (the model layer's own modules, not litellm)
    from bridge.llm.config import load_config

    load_config()


def _warm_model(planned: threading.Event, closing: threading.Event) -> None:
    """Import litellm when a model is configured (never on the request path), once the first
    plan is answered or the bridge has been idle a moment, unless the port has closed by then.
    That moment also ends the bridge's start for the garbage collector (bridge/collector.py)."""
    planned.wait(MODEL_WARM_IDLE_S)
    from bridge import collector

    collector.settle()
    if closing.is_set():
        return
    try:
        from bridge.llm.client import load
        from bridge.llm.config import load_config

        if load_config().enabled:
            started = time.perf_counter()
            load()
            log.info("litellm loaded in %.1f s", time.perf_counter() - started)
    except Exception as exc:  # the Fill that needs the model reports what is wrong
        log.debug("model warm-up skipped: %s", exc)


def _capture(request: FillRequest, run_id: str) -> None:
    folder = os.environ.get(CAPTURE_ENV)
    if not folder:
        return
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{run_id}.json").write_text(request.model_dump_json(), encoding="utf-8")
    except OSError as exc:
        log.warning("snapshot not captured: %s", exc)
