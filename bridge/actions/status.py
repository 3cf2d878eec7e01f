"""`status`: what a Fill needs, step by step, each with the fix in words. `ready` is true only
when a Fill would work: the bridge answers (this reply), and a valid profile is stored."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bridge.actions.validate import validate_payload
from bridge.protocol.envelopes import Request
from bridge.protocol.errors import RelayError
from bridge.runtime import Runtime


class StatusRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Step(BaseModel):
    id: str
    ok: bool
    required: bool  # a Fill cannot work while a required step is not ok
    message: str
    fix: str = ""


PAYLOAD_MODEL = StatusRequest


def parse(payload: dict[str, Any]) -> StatusRequest:
    return validate_payload(StatusRequest, payload)


def handle(runtime: Runtime, payload: StatusRequest, request: Request) -> dict[str, Any]:
    steps = [Step(id="bridge", ok=True, required=True, message="Relay's bridge is running.")]
    steps.append(_profile_step(runtime))
    model, spending = _model_steps(runtime)
    steps += [model, spending]
    return {
        "ready": all(step.ok for step in steps if step.required),
        "steps": [step.model_dump() for step in steps],
    }


def _profile_step(runtime: Runtime) -> Step:
    from bridge.field_checks import check_email

    fix = "Import your resume or a JSON Resume file, or type it in, in Relay's console."
    try:
        loaded, name = runtime.profile()
    except RelayError as exc:
        missing = exc.code.value == "E_PROFILE_MISSING"
        message = (
            "No profile is stored yet." if missing else f"Your profile has a problem: {exc.message}"
        )
        return Step(id="profile", ok=False, required=True, message=message, fix=fix)
    basics = loaded.profile.basics
    label = f"“{name}”" if name else "from the file you named"
    if not basics.name or not basics.email:
        return Step(
            id="profile", ok=False, required=True,
            message=f"Your profile {label} has no name or email address.",
            fix="Add your name and email address in the profile editor.",
        )
    if check_email(basics.email):
        return Step(
            id="profile", ok=False, required=True,
            message=f"The email address in your profile {label} is not valid.",
            fix="Correct your email address in the profile editor.",
        )
    return Step(id="profile", ok=True, required=True, message=f"Profile {label} is ready.")


def _model_steps(runtime: Runtime) -> tuple[Step, Step]:
    from bridge.llm.config import Tier, load_config
    from bridge.llm.ledger import CachedAnswer
    from bridge.store.llm_ledger import StoreLlmLedger

    config = load_config()
    fast = config.model_for(Tier.FAST)
    if config.enabled:
        where = {"env": "from RELAY_LLM_API_KEY", "keyring": "in the system keyring"}.get(
            config.key_source, "not needed (local server)"
        )
        model = Step(
            id="model", ok=True, required=False, message=f"Model {fast} is set up; key {where}."
        )
    else:
        model = Step(
            id="model", ok=False, required=False,
            message=(
                f"No API key for {config.key_provider} in the system keyring: Relay fills from "
                "its rules only and leaves open questions to you."
            ),
            fix=("To let a model draft open answers, add its API key under Spending & models "
                 f"(or run `relay key set {config.key_provider}`)."),
        )
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    spent = StoreLlmLedger(runtime.store(), CachedAnswer).spent_usd_since(midnight)
    left = max(config.cap_per_day_usd - spent, 0.0)
    spending = Step(
        id="spending", ok=left > 0, required=False,
        message=(
            f"Spent ${spent:.2f} of ${config.cap_per_day_usd:.2f} today; ${left:.2f} left. "
            f"At most ${config.cap_per_fill_usd:.2f} per fill."
        ),
        fix="" if left > 0 else ("The daily cap is reached: model calls resume tomorrow, or "
                                 "raise the cap under Spending & models."),
    )
    return model, spending
