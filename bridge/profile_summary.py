"""What the profile can answer, for a front door outside the browser (an assistant, a tool).

Only facts that may leave the machine: never self-identification answers, credentials, ID numbers,
a date of birth, contact details or documents. Those stay in Relay and are filled in the page only.
"""

from __future__ import annotations

from typing import Any

from bridge.llm.facts import profile_facts
from bridge.llm.privacy import path_is_private, scrub
from bridge.profile import LoadedProfile

KEPT_PRIVATE = [
    "self-identification answers (gender, ethnicity, veteran and disability status)",
    "contact details (email, phone, street address)",
    "credentials, ID numbers and date of birth",
    "documents (resume and cover letter files)",
]


def self_id_answers(loaded: LoadedProfile) -> list[str]:
    """The person's own self-identification answers ("decline" tells nothing)."""
    return [v for v in loaded.profile.application.eeo.values() if v and v != "decline"]


def summarize(loaded: LoadedProfile, name: str = "") -> dict[str, Any]:
    private = self_id_answers(loaded)
    facts = []
    for fact in profile_facts(loaded):
        if path_is_private(fact.path):
            continue
        # A self-identification answer copied anywhere else in the profile stays private too.
        value = scrub(fact.value, private).strip() if private else fact.value
        if value:
            facts.append({"path": fact.path, "value": value})
    return {
        "profile": name,
        "facts": facts,
        "saved_answers": len(loaded.profile.application.answers),
        "kept_private": KEPT_PRIVATE,
    }
