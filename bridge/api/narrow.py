"""What the HTTP API offers, and what it leaves out of the answers.

It offers what `bridge/actions/doors_allowed.py` allows the `http` door: not the extension's own
reports, nor the person's settings, keys, encryption, profile deletion and the approvals an
assistant waits on. A plan leaves out the
self-identification answers: a tool gets the decision, never the value.
"""

from __future__ import annotations

from typing import Any

from bridge.actions.doors_allowed import allowed
from bridge.actions.registry import ACTIONS

DOOR = "http"
OFFERED = frozenset(kind for kind in ACTIONS if allowed(kind, DOOR))
SELF_ID_LEFT = "self-identification: left for the person"


def offered(kind: str) -> bool:
    return kind in OFFERED


def plan_for_a_tool(plan: dict[str, Any]) -> dict[str, Any]:
    """The plan with every self-identification decision emptied and said to be left."""
    decisions = [
        {**d, "action": "none", "value": "", "values": [], "checked": None, "place": [],
         "cites": [], "status": "leave", "reason": SELF_ID_LEFT, "why": SELF_ID_LEFT}
        if str(d.get("key", "")).startswith("eeo.")
        else d
        for d in plan.get("decisions", [])
    ]
    return {**plan, "decisions": decisions}
