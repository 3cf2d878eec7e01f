"""What the HTTP API offers, and what it leaves out of the answers.

The extension's own reports (what the page did, acknowledgements, what the submit guard stopped,
the person pressing Submit) are not offered: only the browser's port knows them to be true. Nor
are the approvals an assistant waits on: only the person decides them, in the console or with
`relay approvals`. A plan leaves out the self-identification answers: a tool gets the decision,
never the value.
"""

from __future__ import annotations

from typing import Any

from bridge.actions.registry import ACTIONS

EXTENSION_ONLY = frozenset({
    "fill.applied", "fill.ack", "fill.blocked", "application.submitted",
    "approvals.list", "approval.decide",
})
OFFERED = frozenset(ACTIONS) - EXTENSION_ONLY
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
