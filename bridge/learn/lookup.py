"""The engine's view of the person's stored answers: an embedding search in the store
(sqlite-vec), each hit checked by `similar.same_question` before it may answer a field."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bridge.learn.similar import question_key, same_question
from bridge.rules.model import StoredAnswer

if TYPE_CHECKING:
    from bridge.store import Store

CANDIDATES = 5


class StoreLookup:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._all: list[StoredAnswer] | None = None
        self._indexed = False
        self.used: list[int] = []  # answers that answered a field of this plan

    def everything(self) -> list[StoredAnswer]:
        if self._all is None:
            self._all = [
                StoredAnswer(a["answer_id"], a["question"], a["value"], a["self_id"])
                for a in self._store.saved_answers(limit=1000)
            ]
        return self._all

    def note_use(self, answer: StoredAnswer) -> None:
        self.used.append(answer.answer_id)

    def same_question(self, question: str) -> StoredAnswer | None:
        if not self.everything():
            return None  # no stored answers: the model is never loaded
        from bridge.learn import embedding

        if not self._indexed:
            index_answers(self._store)
            self._indexed = True
        asked = question_key(question)
        hits = self._store.nearest_answers(embedding.embed_one(question), embedding.MODEL_NAME,
                                           CANDIDATES)
        for answer, similarity in hits:
            if answer["self_id"]:
                continue  # self-identification answers never travel to another question
            if same_question(similarity, asked, question_key(answer["question"])):
                self.used.append(answer["answer_id"])
                return StoredAnswer(answer["answer_id"], answer["question"], answer["value"])
        return None


def index_answers(store: Store) -> int:
    """Embed every stored question that has no vector from the current model; returns how many."""
    from bridge.learn import embedding

    missing = store.answers_without_vector(embedding.MODEL_NAME)
    if not missing:
        return 0
    vectors = embedding.embed([question for _id, question in missing])
    store.put_answer_vectors(
        embedding.MODEL_NAME, [(answer_id, vectors[i]) for i, (answer_id, _q) in enumerate(missing)]
    )
    return len(missing)
