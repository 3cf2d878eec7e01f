"""The saved-answer embedding computed without wordllama's runtime (bridge/learn/embedding.py,
bridge/learn/bpe.py) gives the token ids of the `tokenizers` library and the vectors of wordllama
itself, which are installed here as the model's own package."""

from __future__ import annotations

import csv
import random
import struct

import numpy as np
import pytest
from tokenizers import Tokenizer

from bridge.learn import embedding
from bridge.learn.bpe import BpeTokenizer
from tests.conftest import REPO

PAIRS = REPO / "bench" / "data" / "question_pairs.tsv"


def questions() -> list[str]:
    lines = [ln for ln in PAIRS.read_text(encoding="utf-8").splitlines()
             if not ln.startswith("#")]
    found = [text for row in csv.DictReader(lines, delimiter="\t") for text in (row["a"], row["b"])]
    # What pages hold too: stray spaces, accents as combining marks, emoji, scripts the
    # vocabulary lacks (byte fallback), the tokenizer's own special tokens typed as text.
    odd = "abcdé üß日本語😀<s></s><unk> \t\n-_.,?!'\"Ωж中\u0301\u200b\u2581"
    rnd = random.Random(12)
    found += ["".join(rnd.choice(odd) for _ in range(rnd.randint(1, 30))) for _ in range(400)]
    return [*found, "a<s>b", "<s>", "  Two leading spaces", "trailing  ", " ", "aaaa",
            "<unk><unk>", "ÅÄÖ", "Ваш номер телефона", "お名前をご記入ください"]


def test_token_ids_are_the_libraries() -> None:
    reference = Tokenizer.from_file(str(embedding.model_dir() / embedding.TOKENIZER))
    ours = embedding.model().tokenizer
    wrong = [(text, reference.encode(text, add_special_tokens=False).ids, ours.encode(text))
             for text in questions()
             if tuple(reference.encode(text, add_special_tokens=False).ids) != ours.encode(text)]
    assert wrong == []


def test_vectors_are_wordllamas() -> None:
    from wordllama import WordLlama

    texts = questions()
    reference = WordLlama.load(config="l2_supercat", dim=embedding.DIM,
                               cache_dir=embedding.model_dir(), disable_download=True)
    want = reference.embed(texts, norm=True)
    got = np.frombuffer(b"".join(embedding.embed(texts)), np.float32).reshape(len(texts), -1)
    assert np.abs(want - got).max() < 1e-6
    assert embedding.embed_one(texts[0]) == embedding.embed([texts[0]])[0]


def test_no_tokens_is_the_zero_vector() -> None:
    assert embedding.embed_one("") == struct.pack(f"<{embedding.DIM}f", *[0.0] * embedding.DIM)


def test_another_kind_of_tokenizer_is_refused() -> None:
    import json

    config = json.loads((embedding.model_dir() / embedding.TOKENIZER).read_text("utf-8"))
    config["pre_tokenizer"] = {"type": "Whitespace"}
    with pytest.raises(ValueError, match="Llama-style BPE"):
        BpeTokenizer(config)
