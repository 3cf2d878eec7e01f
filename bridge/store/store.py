"""`Store`: the one object the runtime holds. Each method is one short transaction; database
errors come out as RelayError(E_STORE_FAILED) naming the file; calls are serialised by a lock
because the host answers on several threads."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import apsw
from pydantic import BaseModel

from bridge.clock import now_iso
from bridge.forms import ApplyReport, BlockedAttempt, FillPlan, FillRequest, Source
from bridge.paths import private_dir, relay_home
from bridge.profile import LoadedProfile
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store import (
    applications,
    approvals,
    audit,
    choices,
    crypto,
    exchange,
    forget,
    idempotency,
    ledger,
    model_cache,
    outbox,
    profiles,
    runs,
    saved_answers,
    texts,
)
from bridge.store.db import DB_FILENAME, guarded, load_vec, open_db, scalar, transaction
from bridge.store.outbox import Delivery

if TYPE_CHECKING:
    from bridge.learn.learning import Learned
    from bridge.learn.models import ApplicationSubmitted
from bridge.store.util import dumps, new_run_id, request_key

P = ParamSpec("P")
T = TypeVar("T")

ENCRYPTION_SETTING = "encryption"


def _locked(method: Callable[Concatenate[Store, P], T]) -> Callable[Concatenate[Store, P], T]:
    def wrapper(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with self._lock, guarded(self.path):
            return method(self, *args, **kwargs)

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


class PlanRecord(BaseModel):
    """What `record_plan` hands back: the reply to send and the deliveries to send with it."""

    result: dict[str, Any]
    deliveries: list[Delivery]
    replayed: bool  # True: this request id was answered before; nothing new was written


class Store:
    def __init__(self, conn: apsw.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._lock = threading.RLock()
        self._cipher: crypto.Cipher | None = None
        self._vec_loaded = False

    @classmethod
    def open(cls, home: Path | None = None) -> Store:
        """Open `<RELAY_HOME>/relay.db`, creating and migrating it as needed."""
        path = private_dir(home or relay_home()) / DB_FILENAME
        return cls(open_db(path), path)

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @_locked
    def schema_version(self) -> int:
        return int(scalar(self.conn, "PRAGMA user_version"))

    @_locked
    def load_vec(self) -> str:
        """Load sqlite-vec into this connection (for saved-answer search); returns its version."""
        return load_vec(self.conn)

    # -- encryption ---------------------------------------------------------------------------

    def _encryption(self) -> dict[str, Any] | None:
        text = scalar(self.conn, "SELECT value FROM settings WHERE key = ?", (ENCRYPTION_SETTING,))
        return json.loads(text) if text else None

    def _current_cipher(self) -> crypto.Cipher | None:
        """The cipher when encryption is on. On but no usable key: an error, never plain writes."""
        setting = self._encryption()
        if setting is None:
            return None
        if self._cipher is not None and self._cipher.key_id == setting["key_id"]:
            return self._cipher
        key = crypto.load_key()
        if key is None or crypto.key_id(key) != setting["key_id"]:
            raise RelayError(
                ErrorCode.STORE_FAILED,
                f"{self.path}: encryption is on but its key is not in the keyring "
                f"(expected key {setting['key_id']})",
            )
        self._cipher = crypto.Cipher(key)
        return self._cipher

    @_locked
    def encryption_status(self) -> dict[str, Any]:
        usable, backend = crypto.keyring_status()
        setting = self._encryption()
        return {
            "enabled": setting is not None,
            "key_id": setting["key_id"] if setting else "",
            "since": setting["since"] if setting else "",
            "keyring": backend,
            "keyring_usable": usable,
        }

    @_locked
    def enable_encryption(self, secret: str | None = None) -> str:
        """Turn encryption on (a key from the secret, or random) and seal what is sealable.
        Returns the key id. Fails clearly when there is no secure keyring."""
        if self._encryption() is not None:
            raise RelayError(ErrorCode.STORE_FAILED, "encryption is already on")
        key, salt = crypto.new_key(secret)
        crypto.store_key(key)
        cipher = crypto.Cipher(key)
        with transaction(self.conn):
            _reseal(self.conn, None, cipher)
            self.conn.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?)",
                (ENCRYPTION_SETTING,
                 dumps({"key_id": cipher.key_id, "salt": salt, "since": now_iso()})),
            )
        self._cipher = cipher
        return cipher.key_id

    @_locked
    def disable_encryption(self) -> None:
        """Open every sealed value back to plain text, then drop the key from the keyring."""
        cipher = self._current_cipher()
        if cipher is None:
            return
        with transaction(self.conn):
            _reseal(self.conn, cipher, None)
            self.conn.execute("DELETE FROM settings WHERE key = ?", (ENCRYPTION_SETTING,))
        self._cipher = None
        crypto.delete_key()

    # -- profiles -----------------------------------------------------------------------------

    @_locked
    def import_profile(self, path: Path, name: str | None = None) -> tuple[str, bool]:
        return profiles.import_profile(self.conn, path, name)

    @_locked
    def import_profile_text(
        self, text: str, name: str, *, source_path: str, base_dir: Path
    ) -> tuple[str, bool]:
        return profiles.import_text(
            self.conn, text, name, source_path=source_path, base_dir=base_dir
        )

    @_locked
    def profile_document(self, name: str) -> dict[str, Any]:
        return profiles.effective_raw(self.conn, name)

    @_locked
    def list_profiles(self) -> list[profiles.ProfileInfo]:
        return profiles.list_profiles(self.conn)

    @_locked
    def use_profile(self, name: str) -> None:
        profiles.use_profile(self.conn, name)

    @_locked
    def active_profile_name(self) -> str | None:
        return profiles.active_name(self.conn)

    @_locked
    def profile(self, name: str | None = None) -> LoadedProfile | None:
        """The named profile, or the active one, with the person's edits applied."""
        return profiles.load(self.conn, name)

    @_locked
    def edit_profile(self, name: str, patch: dict[str, Any]) -> LoadedProfile:
        return profiles.set_edits(self.conn, name, patch)

    @_locked
    def profile_original(self, name: str) -> str:
        return profiles.original_text(self.conn, name)

    @_locked
    def remove_profile(self, name: str) -> None:
        profiles.remove_profile(self.conn, name)  # its document choices go with it (cascade)

    @_locked
    def choose_document(self, profile: str, job: str, kind: str, ref: str) -> None:
        choices.choose(self.conn, profile, job, kind, ref, self._current_cipher())

    @_locked
    def chosen_document(self, profile: str, job: str, kind: str) -> str:
        return choices.chosen(self.conn, profile, job, kind, self._current_cipher())

    @_locked
    def document_choices(self, profile: str) -> list[dict[str, Any]]:
        return choices.listed(self.conn, profile, self._current_cipher())

    @_locked
    def adopt_document_choices(self, profile: str, entries: dict[str, dict[str, str]]) -> int:
        return choices.adopt(self.conn, profile, entries, self._current_cipher())

    # -- requests and runs --------------------------------------------------------------------

    @staticmethod
    def new_run_id() -> str:
        return new_run_id()

    @staticmethod
    def request_key(kind: str, request_id: str, payload: Any) -> str:
        """The idempotency key to pass as `request_id` (id + type + payload fingerprint)."""
        return request_key(kind, request_id, payload)

    @_locked
    def answered(self, request_id: str) -> dict[str, Any] | None:
        """The stored first answer to this request id, or None when it is new."""
        return idempotency.answered(self.conn, request_id, self._current_cipher())

    @_locked
    def require_run(self, run_id: str) -> None:
        """E_NOT_FOUND unless the run exists."""
        runs.require(self.conn, run_id)

    @_locked
    def record_plan(
        self,
        request_id: str,
        request: FillRequest,
        plan: FillPlan,
        profile: LoadedProfile,
        *,
        profile_name: str = "",  # e.g. store.active_profile_name() when it came from the store
        ats: str = "",
        started_at: str | None = None,
        deliveries: list[tuple[str, dict[str, Any]]] | None = None,
        actor: str = "bridge",
        model_job: tuple[str, str] | None = None,
    ) -> PlanRecord:
        """Store a planned run, its decisions, its deliveries, the page text, the model's
        question of a streamed plan (`model_job`: name and body), an audit entry and the answer
        to `request_id`, in one transaction: a plan is never stored without the question its
        model answers wait on. A request id answered before returns the first answer and
        writes nothing."""
        cipher = self._current_cipher()
        with transaction(self.conn):
            first = idempotency.answered(self.conn, request_id, cipher)
            if first is not None:
                return PlanRecord(result=first, deliveries=[], replayed=True)
            started = started_at or now_iso()
            if request.continues:
                # A later round of the same Fill: the run gets its decisions, and their deliveries
                # are numbered after the ones it has.
                runs.add_round(self.conn, plan, cipher)
                outbox.number_after(self.conn, plan)
            else:
                runs.insert_run(
                    self.conn,
                    request=request,
                    plan=plan,
                    profile_fp=profiles.profile_fingerprint(profile),
                    profile_name=profile_name,
                    ats=ats,
                    started_at=started,
                    cipher=cipher,
                )
            if request.job_text and not request.continues:
                texts.put(self.conn, plan.run_id, texts.PAGE, "", request.job_text, cipher)
            for decision in plan.decisions:
                if decision.source is Source.LLM and decision.value:
                    texts.put(self.conn, plan.run_id, texts.DRAFT,
                              f"{decision.frame}:{decision.field_id}", decision.value, cipher)
            if model_job is not None:
                texts.put(self.conn, plan.run_id, texts.MODEL_JOB, *model_job, cipher)
            items = outbox.plan_deliveries(plan) if deliveries is None else deliveries
            queued = outbox.enqueue(self.conn, plan.run_id, items, cipher)
            tokens_in, tokens_out = ledger.run_tokens(self.conn, plan.run_id)
            audit.append(
                self.conn,
                actor=actor,
                action="fill.plan",
                run_id=plan.run_id,
                payload={
                    "request_id": request_id, "ats": ats, **audit.plan_payload(plan),
                    **({"later_round": True} if request.continues else {}),
                },
                tokens_in=tokens_in,
                tokens_out=tokens_out,
                cost_cents=_cents(ledger.run_cost_e4(self.conn, plan.run_id)),
                started_at=started,
                secrets=audit.profile_secrets(profile.raw),
            )
            result = plan.model_dump(mode="json")
            idempotency.remember(self.conn, request_id, "fill.plan", plan.run_id, result, cipher)
        return PlanRecord(result=result, deliveries=queued, replayed=False)

    @_locked
    def record_model_answers(
        self,
        request_id: str,
        job: str,
        plan: FillPlan,
        *,
        remaining: str | None = None,
        tokens: tuple[int, int] = (0, 0),
        cost_e4: int = 0,
        actor: str = "bridge",
    ) -> PlanRecord:
        """A group of a streamed plan's model outcomes (answers and refusals alike): added to the
        run as its decisions, each one a delivery numbered after the run's, audited with the
        tokens and cost they took, and the model job `job` left with `remaining` (None: done) —
        in one transaction. Idempotent by `request_id`, like `record_plan`."""
        cipher = self._current_cipher()
        with transaction(self.conn):
            first = idempotency.answered(self.conn, request_id, cipher)
            if first is None:
                started = now_iso()
                last = int(scalar(
                    self.conn, "SELECT coalesce(max(seq), 0) FROM deliveries WHERE run_id = ?",
                    (plan.run_id,),
                ))
                for offset, decision in enumerate(plan.decisions, start=1):
                    decision.seq = last + offset  # a refusal is delivered too, with its reason
                runs.add_round(self.conn, plan, cipher)
                for decision in plan.decisions:
                    if decision.source is Source.LLM and decision.value:
                        texts.put(self.conn, plan.run_id, texts.DRAFT,
                                  f"{decision.frame}:{decision.field_id}", decision.value, cipher)
                items = [(outbox.DECISION_KIND, d.model_dump(mode="json")) for d in plan.decisions]
                queued = outbox.enqueue(self.conn, plan.run_id, items, cipher)
                audit.append(
                    self.conn, actor=actor, action="fill.model", run_id=plan.run_id,
                    payload={"request_id": request_id, **audit.plan_payload(plan)},
                    tokens_in=tokens[0], tokens_out=tokens[1], cost_cents=_cents(cost_e4),
                    started_at=started,
                )
                result = plan.model_dump(mode="json")
                idempotency.remember(self.conn, request_id, "fill.model", plan.run_id, result,
                                     cipher)
            else:
                result, queued = first, []
            if remaining is None:
                texts.drop(self.conn, plan.run_id, texts.MODEL_JOB, job)
            else:
                texts.put(self.conn, plan.run_id, texts.MODEL_JOB, job, remaining, cipher)
        return PlanRecord(result=result, deliveries=queued, replayed=first is not None)

    # -- requests waiting for the person (the APPROVE tier) -----------------------------------

    @_locked
    def ask_approval(self, kind: str, tool: str, payload: dict[str, Any]) -> int:
        with transaction(self.conn):
            return approvals.ask(self.conn, kind, tool, payload, self._current_cipher())

    @_locked
    def approvals(self, status: str | None = None) -> list[dict[str, Any]]:
        return approvals.listed(self.conn, self._current_cipher(), status)

    @_locked
    def approval(self, approval_id: int) -> dict[str, Any]:
        return approvals.get(self.conn, approval_id, self._current_cipher())

    @_locked
    def decide_approval(self, approval_id: int, status: str, result: dict[str, Any]) -> None:
        with transaction(self.conn):
            approvals.decide(self.conn, approval_id, status, result)

    @_locked
    def model_jobs(self) -> list[tuple[str, str, str]]:
        """Model jobs of open runs not finished yet: (run id, job name, body)."""
        return texts.open_jobs(self.conn, self._current_cipher())

    @_locked
    def record_applied(
        self, request_id: str, report: ApplyReport, *, actor: str = "extension"
    ) -> dict[str, Any]:
        """Record what the page did (once per request id); returns `{"recorded": n}`."""
        cipher = self._current_cipher()
        with transaction(self.conn):
            first = idempotency.answered(self.conn, request_id, cipher)
            if first is not None:
                return first
            started = now_iso()
            matched = runs.record_outcomes(self.conn, report)
            audit.append(
                self.conn,
                actor=actor,
                action="fill.applied",
                run_id=report.run_id,
                payload={"request_id": request_id, **audit.applied_payload(report, matched)},
                started_at=started,
            )
            if report.blocked:
                _audit_blocked(self.conn, request_id, report.run_id, report.blocked, actor)
            result = {"recorded": matched}
            idempotency.remember(
                self.conn, request_id, "fill.applied", report.run_id, result, cipher
            )
        return result

    @_locked
    def record_blocked(
        self, request_id: str, run_id: str, blocked: list[BlockedAttempt], *,
        actor: str = "extension",
    ) -> dict[str, Any]:
        """Log submissions the page attempted after `fill.applied` (once per request id);
        returns `{"recorded": n}`, the number of attempts."""
        cipher = self._current_cipher()
        with transaction(self.conn):
            first = idempotency.answered(self.conn, request_id, cipher)
            if first is not None:
                return first
            runs.require(self.conn, run_id)
            _audit_blocked(self.conn, request_id, run_id, blocked, actor)
            result = {"recorded": sum(b.times for b in blocked)}
            idempotency.remember(self.conn, request_id, "fill.blocked", run_id, result, cipher)
        return result

    @_locked
    def set_status(
        self,
        run_id: str,
        status: str,
        *,
        actor: str = "panel",
        decision: str = "",
        error: str = "",
        secrets: list[str] | None = None,
    ) -> None:
        """Move a run to a status (reviewed, submitted, abandoned, failed …) and log it."""
        with transaction(self.conn):
            runs.set_status(self.conn, run_id, status, audit._scrub(error, secrets or []))
            audit.append(
                self.conn,
                actor=actor,
                action=f"run.{status}",
                run_id=run_id,
                decision=decision,
                status="error" if status == "failed" else "ok",
                error=error,
                secrets=secrets or [],
            )

    @_locked
    def history(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Runs with their decisions (the `relay history --json` shape); values sealed without a
        key at hand come out as null with `"encrypted": true`."""
        try:
            cipher = self._current_cipher()
        except RelayError:
            cipher = None
        if run_id is not None:
            runs.require(self.conn, run_id)
        return runs.history(self.conn, cipher, run_id)

    # -- the person's applications and saved answers ---------------------------------------

    @_locked
    def record_application(
        self, request_id: str, sub: ApplicationSubmitted, learned: list[Learned], *,
        actor: str = "extension",
    ) -> dict[str, Any]:
        """The person's own Submit: the application, its fields, the answers it teaches, the
        run marked submitted and an audit entry, in one transaction, once per request id.
        Returns `{"application_id", "answers_saved"}`."""
        cipher = self._current_cipher()
        with transaction(self.conn):
            first = idempotency.answered(self.conn, request_id, cipher)
            if first is not None:
                return first
            ats = sub.ats
            known_run = bool(sub.run_id) and runs.exists(self.conn, sub.run_id)
            if known_run and not ats:
                ats = str(scalar(self.conn, "SELECT ats FROM runs WHERE id = ?", (sub.run_id,)))
            app_id = applications.insert(self.conn, sub, ats, cipher)
            saved = [
                saved_answers.put(
                    self.conn, qkey=item.qkey, question=item.question, section=item.section,
                    options=item.options, widget=item.widget, lang=item.lang, value=item.value,
                    values=[], origin=item.origin, self_id=item.self_id, application_id=app_id,
                    cipher=cipher,
                )[0]
                for item in learned
            ]
            if known_run:
                runs.set_status(self.conn, sub.run_id, "submitted", "")
            audit.append(
                self.conn, actor=actor, action="application.submitted",
                run_id=sub.run_id or None,
                payload={"application_id": app_id, "how": sub.how.value, "ats": ats,
                         "fields": len(sub.fields), "answers_saved": len(saved)},
            )
            result = {"application_id": app_id, "answers_saved": len(saved)}
            idempotency.remember(self.conn, request_id, "application.submitted",
                                 sub.run_id if known_run else None, result, cipher)
        return result

    @_locked
    def applications(self, limit: int = 100) -> list[dict[str, Any]]:
        return applications.listing(self.conn, limit)

    @_locked
    def application(self, application_id: int) -> dict[str, Any]:
        return applications.get(self.conn, application_id, self._current_cipher())

    @_locked
    def update_application(
        self, application_id: int, status: str | None, notes: str | None
    ) -> dict[str, Any]:
        with transaction(self.conn):
            return applications.update(self.conn, application_id, status, notes,
                                       self._current_cipher())

    @_locked
    def submitted_runs(self) -> set[str]:
        return applications.submitted_runs(self.conn)

    @_locked
    def save_answer(self, /, **fields: Any) -> tuple[int, bool]:
        """Insert or replace the saved answer to a question (see saved_answers.put)."""
        cipher = self._current_cipher()
        with transaction(self.conn):
            return saved_answers.put(self.conn, **fields, cipher=cipher)

    @_locked
    def saved_answers(self, text: str = "", limit: int = 100) -> list[dict[str, Any]]:
        return saved_answers.listing(self.conn, text, limit, self._current_cipher())

    @_locked
    def saved_answer(self, answer_id: int) -> dict[str, Any]:
        return saved_answers.get(self.conn, answer_id, self._current_cipher())

    @_locked
    def update_saved_answer(self, answer_id: int, value: str) -> dict[str, Any]:
        cipher = self._current_cipher()
        with transaction(self.conn):
            return saved_answers.update_value(self.conn, answer_id, value, cipher)

    @_locked
    def delete_saved_answer(self, answer_id: int) -> bool:
        with transaction(self.conn):
            return saved_answers.delete(self.conn, answer_id)

    @_locked
    def mark_answers_used(self, answer_ids: list[int]) -> None:
        with transaction(self.conn):
            saved_answers.mark_used(self.conn, answer_ids)

    @_locked
    def answers_without_vector(self, model: str) -> list[tuple[int, str]]:
        return saved_answers.without_vector(self.conn, model)

    @_locked
    def put_answer_vectors(self, model: str, vectors: list[tuple[int, bytes]]) -> None:
        with transaction(self.conn):
            for answer_id, embedding in vectors:
                saved_answers.put_vector(self.conn, answer_id, model, embedding)

    @_locked
    def nearest_answers(
        self, embedding: bytes, model: str, limit: int = 5
    ) -> list[tuple[dict[str, Any], float]]:
        if not self._vec_loaded:
            load_vec(self.conn)
            self._vec_loaded = True
        return saved_answers.nearest(self.conn, embedding, model, limit, self._current_cipher())

    # -- delivery outbox ----------------------------------------------------------------------

    @_locked
    def pending(self, run_id: str | None = None) -> list[Delivery]:
        """Unacknowledged deliveries (one run, or all open runs): replay these after a restart."""
        return outbox.pending(self.conn, self._current_cipher(), run_id)

    @_locked
    def mark_sent(self, deliveries: list[Delivery]) -> None:
        with transaction(self.conn):
            outbox.mark_sent(self.conn, deliveries)

    @_locked
    def ack(self, run_id: str, up_to_seq: int) -> int:
        """The extension applied everything up to `up_to_seq`; returns how many were new."""
        with transaction(self.conn):
            return outbox.ack(self.conn, run_id, up_to_seq)

    # -- audit, ledger, cached text -----------------------------------------------------------

    @_locked
    def audit(self, /, *, actor: str, action: str, **fields: Any) -> int:
        """Append one audit entry (see audit.append for the fields); returns its id."""
        with transaction(self.conn):
            return audit.append(self.conn, actor=actor, action=action, **fields)

    @_locked
    def audit_entries(self, run_id: str | None = None) -> list[dict[str, Any]]:
        return audit.entries(self.conn, run_id)

    @_locked
    def record_model_call(
        self,
        *,
        call_id: str,
        run_id: str | None,
        model: str,
        tier: str,
        tokens_in: int,
        tokens_out: int,
        cost_cents: Any,
        at: str | None = None,
        purpose: str = "",
        details: dict[str, Any] | None = None,
        actor: str = "llm",
        status: str = "ok",
        error: str = "",
        in_ledger: bool = True,
    ) -> bool:
        """One model call into the ledger and the audit log; a call id seen before is ignored
        (returns False), so a retry never counts twice. `in_ledger` False: the audit log only
        (an answer from the cache)."""
        with transaction(self.conn):
            added = not in_ledger or ledger.record_call(
                self.conn, call_id=call_id, run_id=run_id, model=model, tier=tier,
                tokens_in=tokens_in, tokens_out=tokens_out, cost_cents=cost_cents, at=at,
            )
            if added:
                audit.append(
                    self.conn, actor=actor, action="model.call", run_id=run_id,
                    payload={"model": model, "tier": tier, "purpose": purpose,
                             "request_id": call_id, **(details or {})},
                    tokens_in=tokens_in, tokens_out=tokens_out, cost_cents=cost_cents,
                    status=status, error=error, started_at=at, ended_at=at,
                )
        return added

    @_locked
    def spent_e4_since(self, since: str) -> int:
        """Model spend (ten-thousandths of a cent) recorded at or after a UTC timestamp."""
        return ledger.spent_e4_since(self.conn, since)

    @_locked
    def cache_get(self, fingerprint: str) -> dict[str, Any] | None:
        return model_cache.get(self.conn, fingerprint, self._current_cipher())

    @_locked
    def cache_put(self, fingerprint: str, model: str, body: dict[str, Any]) -> None:
        with transaction(self.conn):
            model_cache.put(self.conn, fingerprint, model, body, self._current_cipher())

    @_locked
    def run_usage(self, run_id: str, since: str) -> dict[str, int]:
        """Tokens in and out and cost (ten-thousandths of a cent) of a run's calls since then."""
        return ledger.run_usage(self.conn, run_id, since)

    @_locked
    def cost_summary(self) -> dict[str, Any]:
        return ledger.summary(self.conn)

    @_locked
    def put_text(self, run_id: str, kind: str, name: str, body: str) -> None:
        with transaction(self.conn):
            texts.put(self.conn, run_id, kind, name, body, self._current_cipher())

    @_locked
    def get_text(self, run_id: str, kind: str, name: str = "") -> str | None:
        return texts.get(self.conn, run_id, kind, name, self._current_cipher())

    # -- export, import, forget ---------------------------------------------------------------

    @_locked
    def export(self) -> dict[str, Any]:
        return exchange.export_doc(self.conn)

    @_locked
    def import_(self, raw: Any, origin: str = "import") -> dict[str, int]:
        doc = exchange.parse_doc(raw, origin)
        counts = exchange.import_doc(self.conn, self.path, doc, origin)
        self._cipher = None
        return counts

    @_locked
    def forget_run(self, run_id: str, *, actor: str = "cli") -> dict[str, int]:
        counts = forget.forget_run(self.conn, run_id)
        with transaction(self.conn):
            # A trace that something was forgotten, without what it was.
            audit.append(self.conn, actor=actor, action="forget",
                         payload={"scope": "run", "deleted": counts})
        return counts

    @_locked
    def forget_all(self, *, actor: str = "cli") -> dict[str, int]:
        counts = forget.forget_all(self.conn)
        with transaction(self.conn):
            audit.append(self.conn, actor=actor, action="forget",
                         payload={"scope": "all", "deleted": counts})
        return counts


def _audit_blocked(
    conn: apsw.Connection, request_id: str, run_id: str, blocked: list[BlockedAttempt], actor: str
) -> None:
    # Logged as the page's action, stopped: the decision says so in one word.
    audit.append(
        conn,
        actor=actor,
        action="page.submit_blocked",
        run_id=run_id,
        payload={"request_id": request_id, **audit.blocked_payload(blocked)},
        decision="blocked",
    )


def _cents(e4: int) -> Decimal:
    return Decimal(e4).scaleb(-4)


# Sealable columns: (table, key columns, value columns, which rows). One `sealed` flag per row
# covers its value columns; the first column's context is the table and keys, another's adds
# the column's name (as each module writes them).
_SEALABLE: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str], ...] = (
    ("decisions", ("run_id", "seq"), ("value",), "source = 'llm'"),
    ("deliveries", ("run_id", "seq"), ("payload",), "acked_at IS NULL"),
    ("requests", ("id",), ("result",), "1"),
    ("texts", ("run_id", "kind", "name"), ("body",), "1"),
    ("answer_cache", ("fingerprint",), ("body",), "1"),
    ("saved_answers", ("qkey",), saved_answers.SEALED, "1"),
    ("application_fields", ("application_id", "seq"), applications.SEALED, "1"),
    ("approvals", ("id",), ("payload",), "1"),
    ("document_choices", ("profile_id", "job", "kind"), ("ref",), "1"),
)


def _reseal(conn: apsw.Connection, old: crypto.Cipher | None, new: crypto.Cipher | None) -> None:
    """Re-store every sealable value under `new` (None: plain). Same contexts as on write."""
    for table, keys, columns, which in _SEALABLE:
        rows = conn.execute(
            f"SELECT {', '.join(keys)}, sealed, {', '.join(columns)} FROM {table} WHERE {which}"
        ).fetchall()
        for row in rows:
            key_values = row[: len(keys)]
            sealed = int(row[len(keys)] or 0)
            base = ":".join([table, *(str(v) for v in key_values)])
            bodies: list[str] = []
            flag = 0
            for i, column in enumerate(columns):
                context = base if i == 0 else f"{base}:{column}"
                plain = crypto.unpack(old, str(row[len(keys) + 1 + i]), sealed, context)
                if plain is None:
                    raise RelayError(ErrorCode.STORE_FAILED, f"a sealed {table} value has no key")
                body, flag = crypto.pack(new, plain, context)
                bodies.append(body)
            where = " AND ".join(f"{k} = ?" for k in keys)
            sets = ", ".join(f"{c} = ?" for c in columns)
            conn.execute(
                f"UPDATE {table} SET {sets}, sealed = ? WHERE {where}",
                (*bodies, flag, *key_values),
            )

