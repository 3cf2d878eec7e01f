"""The model layer: litellm (loaded lazily), field mapping, open answers, guards and cost.

Entry point: `escalate(request, profile, decisions, run_id=…, ledger=…, config=…)`, called by the
runtime after the rules engine.
"""

from bridge.llm.client import warm_up
from bridge.llm.config import LlmConfig, Tier, load_config
from bridge.llm.escalate import EscalationResult, Refusal, escalate, escalate_async
from bridge.llm.ledger import CachedAnswer, LlmLedger, MemoryLedger, ModelCall

__all__ = [
    "CachedAnswer",
    "EscalationResult",
    "LlmConfig",
    "LlmLedger",
    "MemoryLedger",
    "ModelCall",
    "Refusal",
    "Tier",
    "escalate",
    "escalate_async",
    "load_config",
    "warm_up",
]
