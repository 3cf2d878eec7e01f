"""The one runtime every front door calls (native host, CLI, later the loopback HTTP API).

It owns the profile, runs the rules engine on a snapshot, attaches documents, and records what
happened. Front doors never reach past it into the engine or the store.
"""

from __future__ import annotations

import base64
import logging
import mimetypes
import os
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bridge.paths import relay_home
from bridge.protocol.errors import ErrorCode, RelayError

if TYPE_CHECKING:
    from bridge.forms import ApplyReport, FieldDecision, FillPlan, FillRequest
    from bridge.profile import LoadedProfile

# Heavy modules (pydantic models, the rules engine and its data) are imported inside the methods
# that need them: the host must answer its first `hello` fast, and warms these up afterwards.

log = logging.getLogger(__name__)

PROFILE_ENV = "RELAY_PROFILE"


class Runtime:
    def __init__(self, home: Path | None = None, profile_path: Path | None = None) -> None:
        self.home = home or relay_home()
        env_profile = os.environ.get(PROFILE_ENV)
        self._profile_path = profile_path or (Path(env_profile) if env_profile else None)
        self._profile: LoadedProfile | None = None
        self._profile_mtime: float | None = None
        self._lock = threading.Lock()
        self._warmed = False

    # -- profile -----------------------------------------------------------------------------

    def _configured_profile_path(self) -> Path | None:
        if self._profile_path is not None:
            return self._profile_path
        default = self.home / "profile.json"
        return default if default.is_file() else None

    def profile(self) -> LoadedProfile:
        """The active profile, reloaded when its file changed on disk."""
        from bridge.profile import load_profile

        path = self._configured_profile_path()
        if path is None:
            raise RelayError(
                ErrorCode.PROFILE_MISSING,
                f"no profile configured: set {PROFILE_ENV} or pass --profile",
            )
        try:
            mtime = path.stat().st_mtime
        except OSError as exc:
            raise RelayError(ErrorCode.PROFILE_MISSING, f"profile file not found: {path}") from exc
        with self._lock:
            if self._profile is None or mtime != self._profile_mtime:
                self._profile = load_profile(path)
                self._profile_mtime = mtime
            return self._profile

    def profile_hint(self) -> dict[str, Any]:
        """Whether a profile is configured, without loading it (cheap enough for `hello`)."""
        path = self._configured_profile_path()
        if path is None:
            return {"configured": False, "error": f"no profile configured: set {PROFILE_ENV}"}
        if not path.is_file():
            return {"configured": True, "error": f"profile file not found: {path}"}
        return {"configured": True, "error": ""}

    def profile_status(self) -> dict[str, Any]:
        try:
            loaded = self.profile()
        except RelayError as exc:
            return {"loaded": False, "name": "", "error": exc.message}
        return {"loaded": True, "name": loaded.profile.basics.name or "", "error": ""}

    def capabilities(self) -> list[str]:
        return ["fill.plan", "fill.applied", "chunked-replies"]

    def warm_up(self) -> None:
        """Load the engine and the profile in the background so the first Fill does not wait."""
        if self._warmed:
            return
        self._warmed = True
        threading.Thread(target=self._warm, name="relay-warm-up", daemon=True).start()

    def _warm(self) -> None:
        try:
            import bridge.forms
            import bridge.rules.engine  # noqa: F401

            if self._configured_profile_path() is not None:
                self.profile()
        except Exception as exc:  # warm-up is an optimisation; the request path reports errors
            log.debug("warm-up skipped: %s", exc)

    # -- filling -----------------------------------------------------------------------------

    def plan_fill(self, request: FillRequest) -> FillPlan:
        started = time.perf_counter()
        loaded = self.profile()
        from bridge.forms import Action, FillPlan
        from bridge.rules.engine import decide

        decisions = decide(request, loaded)
        planned = time.perf_counter()
        for decision in decisions:
            if decision.action is Action.ATTACH:
                self._attach_document(decision, loaded)
        plan = FillPlan(
            run_id=f"run-{uuid.uuid4().hex[:16]}",
            decisions=decisions,
            timings_ms={
                "rules": round((planned - started) * 1000, 3),
                "total": round((time.perf_counter() - started) * 1000, 3),
            },
        )
        log.info(
            "planned %s: %d fields, %d to fill",
            plan.run_id,
            len(decisions),
            sum(1 for d in decisions if d.action is not Action.NONE),
        )
        return plan

    def record_applied(self, report: ApplyReport) -> dict[str, Any]:
        log.info("applied %s: %d results", report.run_id, len(report.results))
        return {"recorded": len(report.results)}

    def _attach_document(self, decision: FieldDecision, loaded: LoadedProfile) -> None:
        from bridge.forms import Action

        cover = decision.key.endswith("coverLetter")
        path = loaded.document_path("coverLetter" if cover else "resume")
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
