"""Model answers that stream in (docs/protocol.md, "Model answers that stream in").

A streamed `fill.plan` answers at once with the rules' and saved answers' decisions; the fields
left for the model go out marked `asking`. The model is asked on a worker thread; each outcome,
once past the answer checks and the fabrication guard (an answer, or a refusal with its reason),
is stored as a sequenced delivery of the run and sent as a `fill.answer` event. Until then the
job itself is stored, so a bridge that dies mid-way asks again on the next connection instead of
losing the answers.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bridge.forms import FieldDecision, FillPlan, FillRequest
from bridge.protocol.errors import RelayError

if TYPE_CHECKING:
    from bridge.runtime import Runtime
    from bridge.store.outbox import Delivery

log = logging.getLogger(__name__)

ASKING_REASON = "asking the model"
EVENT_KIND = "fill.answer"


class ModelJob(BaseModel):
    """What the model still has to answer for one plan (one round) of a run."""

    run_id: str
    request: FillRequest
    decisions: list[FieldDecision]  # the open fields, as the rules left them


def job_name(request_key: str) -> str:
    """A short, stable name for the job of the plan answered under `request_key`."""
    return hashlib.sha256(request_key.encode()).hexdigest()[:24]


def group_key(name: str, outcomes: list[FieldDecision]) -> str:
    """The idempotency key of one group of a job's outcomes (the fields it settles)."""
    fields = ",".join(sorted(f"{d.frame}/{d.field_id}" for d in outcomes))
    return f"model:{name}:{hashlib.sha256(fields.encode()).hexdigest()[:16]}"


def settled_keys(decisions: list[FieldDecision]) -> set[tuple[str, str]]:
    return {(d.frame, d.field_id) for d in decisions}


def mark_asking(
    decisions: list[FieldDecision], asked: list[FieldDecision]
) -> list[FieldDecision]:
    """The plan as sent at once: each field the model is asked about says so."""
    keys = {(d.frame, d.field_id) for d in asked}
    return [
        d.model_copy(update={"asking": True, "reason": ASKING_REASON})
        if (d.frame, d.field_id) in keys
        else d
        for d in decisions
    ]


def answer_event(delivery: Delivery, llm: dict[str, Any]) -> dict[str, Any]:
    """The event that carries one stored model outcome to the extension."""
    return {
        "kind": EVENT_KIND,
        "run_id": delivery.run_id,
        "seq": delivery.seq,
        "delivery": delivery.kind,
        "decision": delivery.payload,
        "llm": llm,
    }


class ModelStream:
    """The model jobs of one runtime: started after a streamed plan's reply, resumed after a
    (re)connect, each answered on its own thread."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._lock = threading.Lock()
        self._running: set[str] = set()  # jobs being answered by this process
        self._given: dict[str, dict[str, Any]] = {}  # job → the totals its groups recorded

    def start(self, name: str, job: ModelJob) -> None:
        """Ask the model about a job its plan stored (`Store.record_plan`'s `model_job`)."""
        self._run(name, job)

    def resume(self) -> int:
        """Ask again what a bridge that stopped mid-way never answered; returns how many jobs."""
        if self.runtime.emit is None:
            return 0
        try:
            jobs = self.runtime.store().model_jobs()
        except RelayError as exc:
            log.warning("cannot read unfinished model questions: %s", exc.message)
            return 0
        started = 0
        for run_id, name, body in jobs:
            try:
                job = ModelJob.model_validate_json(body)
            except ValueError:
                log.warning("unreadable model job %s of %s skipped", name, run_id)
                continue
            started += self._run(name, job)
        if started:
            log.info("asking the model again for %d unfinished plan(s)", started)
        return started

    def _run(self, name: str, job: ModelJob) -> int:
        with self._lock:
            if name in self._running:
                return 0
            self._running.add(name)
            self._given.pop(name, None)
        self.runtime.hold_warm_up()  # here, not in the thread: no step slips in between
        threading.Thread(
            target=self._answer, args=(name, job), name="relay-model-answers", daemon=True
        ).start()
        return 1

    def _answer(self, name: str, job: ModelJob) -> None:
        """Ask and check; store each group of outcomes as deliveries the moment it is settled,
        and send them. A failure leaves what is still unanswered stored: the next connection
        asks again. The bridge's warm-up waits until it is done: preparing the requests
        (reading the resume, on a fresh bridge) is on the way to the model's answers."""
        try:
            loaded, _ = self.runtime.profile()
            left = list(job.decisions)

            def deliver(group: list[FieldDecision], summary: dict[str, Any]) -> None:
                nonlocal left
                done = settled_keys(group)
                left = [d for d in left if (d.frame, d.field_id) not in done]
                self._deliver(name, job, group, summary, left)

            llm = self.runtime.escalate_for(job.request, loaded, job.decisions, job.run_id,
                                            deliver)
            # What no group settled (the model step gave up early): its reason is the outcome.
            waiting = settled_keys(left)
            rest = [d for d in llm.decisions if (d.frame, d.field_id) in waiting]
            if rest:
                from bridge.llm.escalate import usage_so_far

                deliver(rest, {**usage_so_far(llm.calls), "status": llm.status})
        except Exception:
            log.exception("model answers for %s not finished; asked again next time", job.run_id)
        finally:
            self.runtime.release_warm_up()
            with self._lock:
                self._running.discard(name)
                self._given.pop(name, None)

    def _deliver(
        self,
        name: str,
        job: ModelJob,
        group: list[FieldDecision],
        summary: dict[str, Any],
        left: list[FieldDecision],
    ) -> None:
        """One group of model outcomes: stored as the run's deliveries together with what is
        left of the job, then sent as `fill.answer` events."""
        from bridge.rules.explain import plain_reason

        store = self.runtime.store()
        outcomes = []
        for decision in group:
            outcome = decision.model_copy(update={"asking": False})
            outcome.why = plain_reason(outcome)
            outcomes.append(outcome)
        # The summary has the job's running totals (the event carries them); the group is
        # recorded with its own share, what the job's requests took since its last group.
        keys = ("calls", "tokens_in", "tokens_out", "cost_usd")
        with self._lock:
            given = self._given.get(name, dict.fromkeys(keys, 0))
            self._given[name] = {k: summary.get(k, 0) for k in keys}
        own = {k: summary.get(k, 0) - given[k] for k in keys}
        plan = FillPlan(
            run_id=job.run_id, decisions=outcomes, llm_calls=int(own["calls"]),
            llm_cost_usd=float(summary["cost_usd"]), llm_status=str(summary["status"]),
        )
        remaining = job.model_copy(update={"decisions": left}).model_dump_json() if left else None
        record = store.record_model_answers(
            group_key(name, outcomes), name, plan, remaining=remaining,
            tokens=(int(own["tokens_in"]), int(own["tokens_out"])),
            cost_e4=round(Decimal(repr(float(own["cost_usd"]))) * 1_000_000),
            actor=self.runtime.door,
        )
        emit = self.runtime.emit
        totals = {**summary, "job": name}  # the job's totals so far: the extension sums jobs
        sent = [d for d in record.deliveries if emit is not None and emit(answer_event(d, totals))]
        if sent:
            store.mark_sent(sent)
        log.info("model answers for %s: %d sent, %d still asked", job.run_id, len(sent),
                 len(left))
