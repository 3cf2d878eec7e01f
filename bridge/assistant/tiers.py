"""What an assistant may do through Relay, and how much of the person's say-so each thing needs.

The table is the one place that decides it: the server offers a tool only when its tier lets an
assistant run it on its own or ask the person for it, and checks the tier again on every call.
"""

from __future__ import annotations

from enum import StrEnum


class Tier(StrEnum):
    AUTO = "auto"  # runs at once (reading, planning): audited like every call
    NOTIFY = "notify"  # runs at once and is marked in the audit log for the person to see
    APPROVE = "approve"  # only after the person confirms it in the extension or the CLI
    BLOCK = "block"  # never, whoever asks


CAPABILITIES: dict[str, Tier] = {
    "list_applications": Tier.AUTO,
    "get_application": Tier.AUTO,
    "search_saved_answers": Tier.AUTO,
    "profile_summary": Tier.AUTO,
    "plan_fill": Tier.AUTO,
    "draft_answer": Tier.NOTIFY,  # asks the model: it spends money, within the caps
    "save_answer": Tier.APPROVE,
    "fill_page": Tier.BLOCK,  # the person fills a page with the extension, never an assistant
    "submit_application": Tier.BLOCK,  # the person clicks Submit
}

# Tiers an assistant may run without the person.
RUNS_ALONE = frozenset({Tier.AUTO, Tier.NOTIFY})
# Offered, but what they ask for waits as a pending approval until the person confirms it
# (`relay approvals approve`; the extension's side of it is still to come).
WAITS_FOR_THE_PERSON = frozenset({Tier.APPROVE})


def tier_of(name: str) -> Tier:
    """Anything not in the table is blocked."""
    return CAPABILITIES.get(name, Tier.BLOCK)


def offered() -> list[str]:
    return [
        name for name, tier in CAPABILITIES.items() if tier in RUNS_ALONE | WAITS_FOR_THE_PERSON
    ]
