"""Is a saved question the same as the one a form asks? The embedding's similarity, overruled
where Relay's own question rules recognise both questions.

The rules know, in every language they cover, that "current salary" and "expected salary" are two
questions however alike their words; the embedding covers what the rules do not know. Measured on
bench/data/question_pairs.tsv by bench/similar_questions.py; the bar keeps precision >= 0.98.
"""

from __future__ import annotations

from functools import lru_cache

from bridge.forms import FormField, Widget
from bridge.rules.classify import classify
from bridge.rules.features import field_text
from bridge.rules.model import Page

# Bars picked by bench/similar_questions.py (best recall at precision >= 0.98): cosine similarity
# for two questions the rules know under the same key, and for questions they do not know.
SAME_KEY_BAR = 0.647
SAME_BAR = 0.898
KEY_BAR = 0.8  # the rules' confidence needed for their verdict to overrule the embedding


@lru_cache(maxsize=4096)
def question_key(question: str) -> str:
    """What Relay's rules take the question to ask ("" when they do not know, or are unsure)."""
    field = FormField(id="q", tag="input", type="text", widget=Widget.TEXT, label=question)
    found = classify(field, field_text(field), (), Page(url="", title="", job_text=""))
    return found.key if found is not None and found.confidence >= KEY_BAR else ""


def combine(similarity: float, key_a: str, key_b: str) -> float:
    """Both known to the rules: another key is another question (0); the same key ranks above
    any pair the rules do not know (1 + similarity), so the bar can still part loosely related
    questions under one key. Otherwise the embedding alone."""
    if key_a and key_b:
        return 1.0 + similarity if key_a == key_b else 0.0
    return similarity


def same_question(similarity: float, key_a: str, key_b: str) -> bool:
    score = combine(similarity, key_a, key_b)
    return score - 1.0 >= SAME_KEY_BAR if score > 1.0 else score >= SAME_BAR
