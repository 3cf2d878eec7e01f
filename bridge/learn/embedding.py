"""Question embeddings from wordllama's 256-dimension static model, read from its own wheel.

The model is a table of one vector per token: a question's embedding is the mean of its tokens'
rows, made unit length. That is computed here in plain Python from the wheel's two files (the
weights as safetensors, the tokenizer as `tokenizer.json`), so the desktop build carries neither
numpy nor the tokenizer library; the vectors equal wordllama's own (`tests/test_embedding.py`).
Nothing is downloaded: a missing file is an error (see bench/similar_questions.py for why this
model was chosen).
"""

from __future__ import annotations

import importlib.util
import json
import math
import struct
import sys
import threading
from pathlib import Path

from bridge.learn.bpe import BpeTokenizer

MODEL_NAME = "wordllama-l2_supercat-256"
DIM = 256
WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
TENSOR = "embedding.weight"

_model: StaticModel | None = None
_lock = threading.Lock()


class StaticModel:
    """A token-vector table (float16 rows, as the safetensors file stores them) and its
    tokenizer."""

    def __init__(self, weights: bytes, tokenizer: BpeTokenizer) -> None:
        (header_len,) = struct.unpack_from("<Q", weights)
        tensor = json.loads(weights[8:8 + header_len])[TENSOR]
        rows, dim = tensor["shape"]
        if tensor["dtype"] != "F16" or dim != DIM:
            raise ValueError(f"unexpected embedding table: {tensor['dtype']} {tensor['shape']}")
        begin, end = tensor["data_offsets"]
        self._table = memoryview(weights)[8 + header_len + begin:8 + header_len + end]
        self._rows = rows
        self._row = struct.Struct(f"<{DIM}e")
        self._out = struct.Struct(f"<{DIM}f")
        self.tokenizer = tokenizer

    def vector(self, text: str) -> bytes:
        """The unit-length mean of the text's token rows, as a float32 blob (all zeros for a
        text with no tokens: similar to nothing)."""
        rows = [self._row.unpack_from(self._table, min(token, self._rows - 1) * self._row.size)
                for token in self.tokenizer.encode(text)]
        sums = list(map(math.fsum, zip(*rows, strict=True))) if rows else [0.0] * DIM
        norm = math.sqrt(sum(s * s for s in sums))
        return self._out.pack(*(s / norm for s in sums)) if norm else self._out.pack(*sums)


def model_dir() -> Path:
    """The folder holding wordllama's model files: in the desktop build, the copy of its data
    folder inside the build; otherwise the installed package's, found without importing it (its
    import pulls in numpy and the tokenizer library)."""
    bundled = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundled:
        return Path(bundled) / "wordllama"
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the saved-answer search's model (wordllama) is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def load_model() -> StaticModel:
    folder = model_dir()
    config = json.loads((folder / TOKENIZER).read_text(encoding="utf-8"))
    return StaticModel((folder / WEIGHTS).read_bytes(), BpeTokenizer(config))


def model() -> StaticModel:
    global _model
    with _lock:
        if _model is None:
            _model = load_model()
        return _model


def embed(texts: list[str]) -> list[bytes]:
    """One unit-length float32 vector per text, as sqlite-vec's blob."""
    loaded = model()
    return [loaded.vector(text) for text in texts]


def embed_one(text: str) -> bytes:
    return model().vector(text)
