"""The model step of a fill, after the rules engine: what rules and saved answers left open goes to
the model (one fast-tier request for unknown fields, one general-tier request for open questions,
sent at once), and every answer is checked before it reaches the plan.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field
from rapidfuzz import fuzz

from bridge.forms import Action, FieldDecision, FillRequest, FormField, Source, Status, Widget
from bridge.llm import client
from bridge.llm.calls import Caller, CompleteFn
from bridge.llm.candidates import (
    field_index,
    is_choice,
    model_candidates,
    open_question,
    option_label,
)
from bridge.llm.checking import Cited, Verdict, check_answer, resolve_citations
from bridge.llm.config import LlmConfig, Tier
from bridge.llm.facts import Fact, facts_by_path, profile_facts
from bridge.llm.ledger import LlmLedger, ModelCall
from bridge.llm.privacy import scrub, scrub_contact
from bridge.llm.prompts import Question, drafting_messages, mapping_messages, response_format
from bridge.llm.resume import resume_text
from bridge.profile import LoadedProfile

log = logging.getLogger(__name__)

# Told each group of outcomes as soon as it is settled (saved answers, then each model request's
# answers and refusals), with the calls, cost and status so far: streamed plans deliver them.
OnSettled = Callable[[list[FieldDecision], dict[str, Any]], None]

SAVED_ANSWER_SIMILARITY = 85.0
LONG_DRAFT_CHARS = 2000
DRAFT_CONFIDENCE = 0.5


class Refusal(BaseModel):
    field_id: str
    frame: str = "0"
    label: str = ""
    reasons: list[str] = Field(default_factory=list)
    unsupported: list[str] = Field(default_factory=list)


class EscalationResult(BaseModel):
    decisions: list[FieldDecision]
    calls: list[ModelCall] = Field(default_factory=list)
    llm_calls: int = 0  # requests that reached a model (cache hits excluded)
    cost_usd: float = 0.0
    status: str = "rules-only: no model configured"
    refusals: list[Refusal] = Field(default_factory=list)
    asked: int = 0  # fields that went to a model


@dataclass
class _Ctx:
    request: FillRequest
    config: LlmConfig
    caller: Caller
    ledger: LlmLedger
    run_id: str
    facts: list[Fact]
    by_path: dict[str, Fact]
    resume_full: str  # what the guard checks quotes against
    resume_sent: str  # what a request carries (contact lines out, capped)
    secrets: list[str]


def _home_region(profile: LoadedProfile) -> str | None:
    location = profile.profile.basics.location
    code = (location.countryCode or "") if location else ""
    return code.upper() or None


def _saved_answer(field: FormField, profile: LoadedProfile) -> str | None:
    label = field.label or field.aria_label
    if not label:
        return None
    best, best_score = None, 0.0
    for saved in profile.profile.application.answers:
        score = fuzz.token_set_ratio(label.casefold(), saved.question.casefold())
        if score > best_score:
            best, best_score = saved.answer, score
    if best is None or best_score < SAVED_ANSWER_SIMILARITY:
        return None
    if field.max_length is not None and len(best) > field.max_length:
        return None
    return best


def _apply(
    decision: FieldDecision,
    field: FormField,
    verdict: Verdict,
    answer: str,
    confidence: float,
    status: Status,
    reason: str,
) -> FieldDecision:
    update: dict[str, Any] = {
        "source": Source.LLM,
        "confidence": confidence,
        "status": status,
        "reason": reason,
    }
    if verdict.options:
        update.update(
            action=Action.CHOOSE,
            values=[o.value or o.text for o in verdict.options],
            value=", ".join(option_label(o) for o in verdict.options),
        )
    elif field.widget in {Widget.DATE, Widget.DATE_TEXT}:
        update.update(action=Action.SET_DATE, value=answer)
    else:
        update.update(action=Action.SET_TEXT, value=answer)
    return decision.model_copy(update=update)


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str | int | float)]
    return [str(value)] if isinstance(value, str | int | float) else []


def _run_questions(
    ctx: _Ctx,
    questions: list[Question],
    *,
    tier: Tier,
    purpose: str,
    build: Callable[[list[Question], dict[str, str]], list[dict[str, str]]],
    long_form: bool,
    extra_names: list[str],
) -> tuple[dict[str, tuple[Verdict, str, float, Cited]], dict[str, Refusal], dict[str, str]]:
    """Ask, check, regenerate what the guard refused (at most twice), then settle.

    Returns accepted answers, refusals and skips, each keyed by question id."""
    accepted: dict[str, tuple[Verdict, str, float, Cited]] = {}
    refused: dict[str, Refusal] = {}
    skipped: dict[str, str] = {}
    pending = list(questions)
    feedback: dict[str, str] = {}
    for round_no in range(ctx.config.max_regenerations + 1):
        if not pending:
            break
        fmt = response_format(f"relay_{purpose}", pending, long_form=long_form)
        messages = [
            {**m, "content": scrub(m["content"], ctx.secrets)} for m in build(pending, feedback)
        ]
        reply = ctx.caller.ask(tier, purpose if round_no == 0 else "regenerate", messages, fmt)
        if reply is None:
            for q in pending:
                if q.qid not in refused:  # a refusal stands; the retry just did not happen
                    skipped.setdefault(q.qid, "model unavailable")
            break
        fields = reply["fields"]
        retry: list[Question] = []
        feedback = {}
        for q in pending:
            entry = fields.get(q.qid)  # keys the model made up are never read
            if not isinstance(entry, dict) or "answer" not in entry:
                why = entry.get("skip", "") if isinstance(entry, dict) else ""
                skipped[q.qid] = f"model skipped: {str(why)[:120]}" if why else "model skipped"
                refused.pop(q.qid, None)
                continue
            answers = _as_list(entry.get("answer"))
            cited = resolve_citations(
                _as_list(entry.get("facts")),
                _as_list(entry.get("quotes")),
                ctx.by_path,
                ctx.resume_full,
            )
            value: str | list[str] = answers if is_choice(q.field) else " ".join(answers)
            verdict = check_answer(q.field, value, cited, extra_names, long_form=long_form)
            text = " ".join(answers).strip()
            too_long = q.field.max_length is not None and len(text) > q.field.max_length
            if verdict.ok:
                conf = entry.get("confidence", DRAFT_CONFIDENCE)
                confidence = (
                    min(max(float(conf), 0.0), 0.95)
                    if isinstance(conf, int | float)
                    else DRAFT_CONFIDENCE
                )
                accepted[q.qid] = (verdict, text, confidence, cited)
                refused.pop(q.qid, None)
                continue
            refused[q.qid] = Refusal(
                field_id=q.field.id,
                frame=q.field.frame,
                label=q.field.label,
                reasons=verdict.reasons,
                unsupported=verdict.unsupported,
            )
            # Regenerate only what more words can fix: unsupported claims, or a draft too long.
            fixable = verdict.unsupported or (long_form and too_long)
            if fixable and not (set(verdict.reasons) - {_too_long_reason(q.field)}):
                notes = []
                if verdict.unsupported:
                    notes.append("not supported by the facts: " + "; ".join(verdict.unsupported))
                if too_long:
                    notes.append(f"too long: keep within {q.field.max_length} characters")
                feedback[q.qid] = (
                    f"Attempt {round_no + 1} was refused. Rewrite without these, or skip. "
                    + " ".join(notes)
                )
                retry.append(q)
        pending = retry
    return accepted, refused, skipped


def _too_long_reason(field: FormField) -> str:
    return f"longer than the field's limit of {field.max_length}"


def escalate(
    request: FillRequest,
    profile: LoadedProfile,
    decisions: list[FieldDecision],
    *,
    run_id: str,
    ledger: LlmLedger,
    config: LlmConfig,
    complete: CompleteFn | None = None,
    on_settled: OnSettled | None = None,
) -> EscalationResult:
    """Fill what rules left open through the model, under the guards. Never raises: without a
    model, or on any failure in this step, the rules' decisions come back and the status says
    why. `on_settled` hears each group of outcomes as it is settled."""
    if not config.enabled:
        return EscalationResult(decisions=decisions, status=config.disabled_reason())
    index = field_index(request)
    candidates = model_candidates(request, decisions)
    if not candidates:
        return EscalationResult(decisions=decisions, status="llm: not needed (nothing left open)")
    try:
        client.load()
    except ImportError as exc:
        # Names the module: in the desktop build, one the build left out.
        log.warning("litellm could not be imported: %r", exc)
        return EscalationResult(decisions=decisions, status="rules-only: litellm not installed")
    try:
        return _escalate(
            request,
            profile,
            decisions,
            candidates,
            index,
            run_id=run_id,
            ledger=ledger,
            config=config,
            complete=complete,
            on_settled=on_settled,
        )
    except Exception:  # a bug here must not cost the person the rules' plan
        log.exception("model step failed")
        return EscalationResult(
            decisions=decisions, status="rules-only: the model step failed (details in the log)"
        )


def _escalate(
    request: FillRequest,
    profile: LoadedProfile,
    decisions: list[FieldDecision],
    candidates: list[FieldDecision],
    index: dict[tuple[str, str], FormField],
    *,
    run_id: str,
    ledger: LlmLedger,
    config: LlmConfig,
    complete: CompleteFn | None,
    on_settled: OnSettled | None = None,
) -> EscalationResult:
    caller = Caller(config=config, ledger=ledger, run_id=run_id)
    if complete is not None:
        caller.complete = complete
    facts = profile_facts(profile)
    full_resume = resume_text(profile)
    eeo = [v for v in profile.profile.application.eeo.values() if v and v != "decline"]
    secrets = [s for s in [config.api_key, *eeo] if s]
    ctx = _Ctx(
        request=request,
        config=config,
        caller=caller,
        ledger=ledger,
        run_id=run_id,
        facts=facts,
        by_path=facts_by_path(facts),
        resume_full=full_resume,
        resume_sent=scrub(scrub_contact(full_resume, _home_region(profile)), secrets)[
            : config.resume_chars
        ],
        secrets=secrets,
    )
    new: dict[tuple[str, str], FieldDecision] = {}
    refusals: list[Refusal] = []

    mapping: list[Question] = []
    open_qs: list[Question] = []
    for d in candidates:
        field = index[(d.frame, d.field_id)]
        if open_question(d, field):
            saved = _saved_answer(field, profile)
            if saved is not None:
                new[(d.frame, d.field_id)] = d.model_copy(
                    update={
                        "action": Action.SET_TEXT,
                        "value": saved,
                        "source": Source.SAVED_ANSWER,
                        "confidence": 0.7,
                        "status": Status.FLAG,
                        "reason": "saved answer to a similar question; review it",
                    }
                )
                continue
            open_qs.append(Question(f"q{len(mapping) + len(open_qs) + 1}", field))
        else:
            mapping.append(Question(f"q{len(mapping) + len(open_qs) + 1}", field))
    by_qid = {q.qid: q for q in [*mapping, *open_qs]}
    decision_of = {(d.frame, d.field_id): d for d in candidates}
    told: set[tuple[str, str]] = set()
    settling = threading.Lock()  # the two requests settle their answers one at a time

    def tell() -> None:
        fresh = [key for key in new if key not in told]
        if on_settled is None or not fresh:
            return
        told.update(fresh)
        so_far = [new.get((d.frame, d.field_id), d) for d in decisions]
        on_settled([new[key] for key in fresh], {
            **usage_so_far(caller.calls),
            "status": (
                _status(caller, so_far, refusals, len(candidates))
                if caller.calls
                else "llm: saved answers so far"
            ),
        })

    def settle(
        results: tuple[
            dict[str, tuple[Verdict, str, float, Cited]], dict[str, Refusal], dict[str, str]
        ],
        *,
        draft: bool,
        tier: Tier,
    ) -> None:
        accepted, refused, skipped = results
        for qid, (verdict, text, confidence, cited) in accepted.items():
            q = by_qid[qid]
            key = (q.field.frame, q.field.id)
            paths = [f.path for f in cited.facts]
            cites = ", ".join(paths + [f"resume: {x[:40]}" for x in cited.quotes])
            if draft:
                status = Status.FLAG
                reason = f"llm draft ({tier.value}); review it. rests on: {cites}"
            else:
                status = Status.FILL if confidence >= config.confidence_bar else Status.FLAG
                reason = f"llm ({tier.value}) from {cites}"
            new[key] = _apply(
                decision_of[key], q.field, verdict, text, confidence, status, reason[:500]
            )
            new[key].cites = paths + [f"resume: {x}" for x in cited.quotes]
        for qid, refusal in refused.items():
            q = by_qid[qid]
            key = (q.field.frame, q.field.id)
            why = "; ".join(
                refusal.reasons
                + (
                    ["unsupported: " + ", ".join(refusal.unsupported)]
                    if refusal.unsupported
                    else []
                )
            )
            new[key] = decision_of[key].model_copy(
                update={
                    "status": Status.LEAVE,
                    "source": Source.NONE,
                    "reason": f"llm answer refused: {why}"[:500],
                }
            )
            refusals.append(refusal)
            ledger.record_audit(run_id, "llm.refused", refusal.model_dump())
        for qid, why in skipped.items():
            q = by_qid[qid]
            key = (q.field.frame, q.field.id)
            original = decision_of[key].reason
            note = f"{original}; llm: {why}" if original else f"llm: {why}"
            new[key] = decision_of[key].model_copy(update={"reason": note[:500]})

    tell()  # saved answers need no model
    asks: list[Callable[[], None]] = []
    if mapping:

        def ask_mapping() -> None:
            results = _run_questions(
                ctx,
                mapping,
                tier=Tier.FAST,
                purpose="mapping",
                build=lambda qs, fb: mapping_messages(qs, ctx.facts, ctx.resume_sent, fb),
                long_form=False,
                extra_names=[],
            )
            with settling:
                settle(results, draft=False, tier=Tier.FAST)
                tell()

        asks.append(ask_mapping)
    if open_qs:
        long_draft = any(
            (q.field.max_length or 0) > LONG_DRAFT_CHARS or "cover letter" in q.field.label.lower()
            for q in open_qs
        )
        tier = Tier.HEAVY if long_draft and config.model_for(Tier.HEAVY) else Tier.GENERAL
        job_text = scrub(request.job_text, secrets)[: config.job_text_chars]
        job = {"title": request.title, "url": request.url, "text": job_text}
        # Logistics (work permits, salary, notice) have no place in a drafted answer.
        draft_facts = [
            f
            for f in ctx.facts
            if not f.path.startswith("application.") or f.path.startswith("application.answers")
        ]
        # A draft may name the employer and the job from the page title and address; names
        # from the posting's body or labels are not enough (a planted "you worked at Google").
        names = [request.title, urlsplit(request.url).hostname or ""]

        def ask_drafting() -> None:
            results = _run_questions(
                ctx,
                open_qs,
                tier=tier,
                purpose="drafting",
                build=lambda qs, fb: drafting_messages(qs, draft_facts, ctx.resume_sent, job, fb),
                long_form=True,
                extra_names=names,
            )
            with settling:
                settle(results, draft=True, tier=tier)
                tell()

        asks.append(ask_drafting)
    _run_together(asks)

    out = [new.get((d.frame, d.field_id), d) for d in decisions]
    return EscalationResult(
        decisions=out,
        calls=caller.calls,
        llm_calls=sum(1 for c in caller.calls if not c.cached),
        cost_usd=round(sum(c.cost_usd for c in caller.calls), 8),
        status=_status(caller, out, refusals, len(candidates)),
        refusals=refusals,
        asked=len(mapping) + len(open_qs),
    )


def usage_so_far(calls: list[ModelCall]) -> dict[str, Any]:
    """A model step's requests so far (answers from the cache reached no model) and what they
    took: the running totals each group of outcomes is told."""
    real = [c for c in calls if not c.cached]
    return {
        "calls": len(real),
        "tokens_in": sum(c.tokens_in for c in real),
        "tokens_out": sum(c.tokens_out for c in real),
        "cost_usd": round(sum(c.cost_usd for c in real), 8),
    }


def _run_together(asks: list[Callable[[], None]]) -> None:
    """The field answers and the draft are asked at once, so the last answer comes about one
    model latency after the first (the caller reserves each request's cost before it is sent);
    an error in either comes out here."""
    if len(asks) < 2:
        for ask in asks:
            ask()
        return
    with ThreadPoolExecutor(max_workers=len(asks), thread_name_prefix="relay-model-ask") as pool:
        for future in [pool.submit(ask) for ask in asks]:
            future.result()


def _status(
    caller: Caller, decisions: list[FieldDecision], refusals: list[Refusal], candidates: int
) -> str:
    real = [c for c in caller.calls if not c.cached]
    cached = len(caller.calls) - len(real)
    filled = sum(1 for d in decisions if d.source == Source.LLM)
    cost = sum(c.cost_usd for c in caller.calls)
    if not any(c.ok for c in caller.calls):
        why = caller.stopped or "; ".join(caller.problems) or "no answer"
        prefix = "" if why.startswith("rules-only") else "rules-only: "
        return f"{prefix}{why}; {candidates} field(s) left for you"
    failed = sum(1 for c in real if not c.ok)
    parts = [
        f"llm: {len(real)} request(s)"
        + (f" ({failed} failed)" if failed else "")
        + (f", {cached} cached" if cached else ""),
        f"${cost:.6f}",
        f"{filled} answer(s)",
    ]
    if refusals:
        parts.append(f"{len(refusals)} refused by the guard")
    if caller.downgraded:
        parts.append("near cap, downgraded " + ", ".join(dict.fromkeys(caller.downgraded)))
    if caller.problems:
        parts.append("; ".join(caller.problems))
    if caller.stopped:
        parts.append(caller.stopped)
    return "; ".join(parts)


async def escalate_async(
    request: FillRequest,
    profile: LoadedProfile,
    decisions: list[FieldDecision],
    *,
    run_id: str,
    ledger: LlmLedger,
    config: LlmConfig,
) -> EscalationResult:
    """`escalate` on a worker thread, for an asyncio host (litellm's sync call blocks)."""
    import asyncio

    return await asyncio.to_thread(
        escalate, request, profile, decisions, run_id=run_id, ledger=ledger, config=config
    )
