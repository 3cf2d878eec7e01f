"""How each source of a field's value is named for a person (`relay fill`'s report, `relay
history`); the side panel uses the same words (sidepanel/panel.js). Outside `bridge.driver`, which
the desktop build leaves out."""

from __future__ import annotations

SOURCE_WORDS = {"profile": "rules", "saved_answer": "saved answers", "llm": "model", "none": "none"}


def sources_line(counts: dict[str, int]) -> str:
    """"12 rules, 2 saved answers, 1 model" from `source:*` counts."""
    parts = []
    for key, words in SOURCE_WORDS.items():
        n = counts.get(f"source:{key}", 0)
        if key == "saved_answer" and n == 1:
            words = "saved answer"
        if key != "none":
            parts.append(f"{n} {words}")
    return ", ".join(parts)
