"""Question embeddings from wordllama's 256-dimension static model, loaded from its own wheel.

Nothing is downloaded at run time: the weights and the tokenizer come from the installed package,
and a missing file is an error rather than a fetch (see bench/similar_questions.py for why this
model was chosen).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from wordllama.inference import WordLlamaInference

MODEL_NAME = "wordllama-l2_supercat-256"
DIM = 256

_model: WordLlamaInference | None = None
_lock = threading.Lock()
log = logging.getLogger(__name__)


def package_dir() -> Path:
    """The installed wordllama package: its `weights/` and `tokenizers/` hold the model."""
    import wordllama

    return Path(wordllama.__file__).parent


def model() -> WordLlamaInference:
    global _model
    with _lock:
        if _model is None:
            from wordllama import WordLlama

            # The package folder as the cache: wordllama then finds the files it ships (it looks
            # for the tokenizer in the package under another folder name and would download it).
            _model = WordLlama.load(
                config="l2_supercat", dim=DIM, cache_dir=package_dir(), disable_download=True
            )
        return _model


def embed(texts: list[str]) -> NDArray[np.float32]:
    """One unit-length float32 row per text."""
    import numpy as np

    vectors = model().embed(texts, norm=True)
    return np.asarray(vectors, dtype=np.float32).reshape(len(texts), DIM)


def embed_one(text: str) -> bytes:
    """The vector as sqlite-vec's float32 blob."""
    vector: bytes = embed([text])[0].tobytes()
    return vector
