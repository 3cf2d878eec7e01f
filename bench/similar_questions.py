"""Which embedding finds the same question asked in other words: recall at precision >= 0.98.

Reads the labelled pairs in bench/data/question_pairs.tsv (paraphrases, other languages,
look-alikes that mean something else), scores each pair with every candidate, picks for each
the lowest similarity bar that keeps precision at or above 0.98, and prints recall and precision
per kind of pair, then the chosen model's size on disk and its query time.

    .venv/bin/python bench/similar_questions.py
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

DATA = Path(__file__).parent / "data" / "question_pairs.tsv"
MIN_PRECISION = 0.98


@dataclass(frozen=True)
class Pair:
    same: bool
    kind: str
    a: str
    b: str


def load_pairs() -> list[Pair]:
    lines = [ln for ln in DATA.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    rows = csv.DictReader(lines, delimiter="\t")
    return [Pair(r["label"] == "1", r["kind"], r["a"], r["b"]) for r in rows]


Scorer = Callable[[list[str], list[str]], NDArray[np.float64]]


def wordllama_scores(a: list[str], b: list[str]) -> NDArray[np.float64]:
    from bridge.learn.embedding import embed

    ea, eb = (np.frombuffer(b"".join(embed(texts)), np.float32).reshape(len(texts), -1)
              for texts in (a, b))
    return np.asarray((ea * eb).sum(axis=1), dtype=np.float64)


def char_tfidf_scores(a: list[str], b: list[str]) -> NDArray[np.float64]:
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True)
    vec.fit(a + b)  # fitted on the questions themselves: the baseline's best case
    ea, eb = vec.transform(a), vec.transform(b)
    return np.asarray(ea.multiply(eb).sum(axis=1), dtype=np.float64).ravel()


def rapidfuzz_scores(a: list[str], b: list[str]) -> NDArray[np.float64]:
    from rapidfuzz import fuzz

    from bridge.rules.text import fold

    pairs = zip(a, b, strict=True)
    return np.array([fuzz.token_sort_ratio(fold(x), fold(y)) / 100 for x, y in pairs])


def with_rules(scorer: Scorer) -> Scorer:
    """The embedding, overruled where Relay's own question rules know both questions: another
    key scores 0, the same key 1 + similarity (its own bar, see `best_bars`)."""

    def scores(a: list[str], b: list[str]) -> NDArray[np.float64]:
        from bridge.learn.similar import combine, question_key

        base = scorer(a, b)
        return np.array([combine(float(s), question_key(x), question_key(y))
                         for s, x, y in zip(base, a, b, strict=True)])

    return scores


CANDIDATES: dict[str, Scorer] = {
    "wordllama-256 + question rules (chosen)": with_rules(wordllama_scores),
    "char n-gram TF-IDF + question rules": with_rules(char_tfidf_scores),
    "wordllama-256 (wheel)": wordllama_scores,
    "char n-gram TF-IDF (scikit-learn)": char_tfidf_scores,
    "rapidfuzz token_sort_ratio (today's rule)": rapidfuzz_scores,
}


def hits(scores: NDArray[np.float64], bars: tuple[float, float]) -> NDArray[np.bool_]:
    """Scores above 1 are same-key pairs (1 + similarity) with the first bar; the rest the
    second."""
    keyed = scores > 1.0
    return np.where(keyed, scores - 1.0 >= bars[0], scores >= bars[1])


def best_bars(scores: NDArray[np.float64], same: NDArray[np.bool_]) -> tuple[float, float]:
    """The pair of bars (same-key pairs, the rest) with the best recall at MIN_PRECISION."""
    inf = float("inf")
    keyed = [*sorted({float(s) - 1.0 for s in scores if s > 1.0}), inf]
    plain = [*sorted({float(s) for s in scores if s <= 1.0}), inf]
    best, best_recall = (inf, inf), -1.0
    for kb in keyed:
        for pb in plain:
            hit = hits(scores, (kb, pb))
            if hit.sum() and same[hit].mean() < MIN_PRECISION:
                continue
            recall = float((hit & same).sum() / same.sum())
            if recall > best_recall:
                best, best_recall = (kb, pb), recall
    return best


def report(name: str, pairs: list[Pair], scores: NDArray[np.float64]) -> float:
    same = np.array([p.same for p in pairs])
    bars = best_bars(scores, same)
    hit = hits(scores, bars)
    precision = same[hit].mean() if hit.sum() else 1.0
    recall = (hit & same).sum() / same.sum()
    bar_text = f"bar {bars[1]:.3f}" if bars[0] == float("inf") else (
        f"bars: same rules key {bars[0]:.3f}, otherwise {bars[1]:.3f}")
    print(f"\n{name}: {bar_text}  recall {recall:.3f}  precision {precision:.3f}")
    for kind in ("para", "lang", "alike", "other"):
        mask = np.array([p.kind == kind for p in pairs])
        if same[mask].any():
            print(f"  {kind:6} recall {(hit & mask & same).sum() / (mask & same).sum():.3f}"
                  f"  ({(mask & same).sum()} pairs)")
        else:
            print(f"  {kind:6} wrongly matched {(hit & mask).sum()} of {mask.sum()}")
    return float(recall)


def chosen_size_and_speed() -> None:
    from bridge.learn.embedding import DIM, MODEL_NAME, TOKENIZER, WEIGHTS, embed, model_dir

    weights = sum((model_dir() / name).stat().st_size for name in (WEIGHTS, TOKENIZER))
    embed(["warm up"])
    runs = 200
    started = time.perf_counter()
    for i in range(runs):
        embed([f"What is your notice period, question {i}?"])
    per_query = (time.perf_counter() - started) / runs * 1000
    print(f"\nchosen: {MODEL_NAME} ({DIM} dimensions), weights and tokenizer "
          f"{weights / 1e6:.1f} MB, one question embedded in {per_query:.2f} ms")
    _vec_query_time()


def _vec_query_time() -> None:
    """A top-5 sqlite-vec search over 1,000 stored answers, in the store's own database."""
    import tempfile

    from bridge.store.db import load_vec, open_db

    with tempfile.TemporaryDirectory() as tmp:
        conn = open_db(Path(tmp) / "relay.db")
        load_vec(conn)
        conn.execute("CREATE TEMP TABLE v(id INTEGER PRIMARY KEY, e BLOB)")
        rng = np.random.default_rng(1)
        vecs = rng.standard_normal((1000, 256)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        conn.executemany("INSERT INTO v VALUES (?, ?)", [(i, v.tobytes()) for i, v in
                                                          enumerate(vecs)])
        query = vecs[0].tobytes()
        started = time.perf_counter()
        for _ in range(100):
            conn.execute(
                "SELECT id FROM v ORDER BY vec_distance_cosine(e, ?) LIMIT 5", (query,)
            ).fetchall()
        print(f"sqlite-vec top-5 over 1,000 saved answers: "
              f"{(time.perf_counter() - started) / 100 * 1000:.2f} ms")
        conn.close()


def main() -> None:
    pairs = load_pairs()
    a, b = [p.a for p in pairs], [p.b for p in pairs]
    print(f"{len(pairs)} labelled pairs ({sum(p.same for p in pairs)} same meaning); "
          f"bar picked for precision >= {MIN_PRECISION}")
    for name, scorer in CANDIDATES.items():
        report(name, pairs, scorer(a, b))
    chosen_size_and_speed()


if __name__ == "__main__":
    main()
