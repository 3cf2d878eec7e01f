"""Token ids for the saved-answer embedding, read from its Hugging Face `tokenizer.json`.

In plain Python: the embedding (wordllama's static model) needs nothing from its tokenizer but
the ids of a question, and the `tokenizers` library's compiled core would add 8 MB to the
desktop build for that. This reads the same file and gives the same ids for the one kind of
tokenizer that model has: Llama's BPE over the whole text, spaces as "▁", unknown characters as
their UTF-8 bytes, no pre-tokenizer (`tests/test_embedding.py` checks it against the library).
Any other kind is refused rather than tokenized differently.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

SPACE = "\u2581"  # "▁", SentencePiece's word start
# The normalizer the model's tokenizer has, in Hugging Face's terms: this code does exactly that.
NORMALIZER = {
    "type": "Sequence",
    "normalizers": [
        {"type": "Prepend", "prepend": SPACE},
        {"type": "Replace", "pattern": {"String": " "}, "content": SPACE},
    ],
}


class BpeTokenizer:
    def __init__(self, config: dict[str, Any]) -> None:
        model = config["model"]
        if (model.get("type") != "BPE" or not model.get("byte_fallback")
                or model.get("dropout") or model.get("continuing_subword_prefix")
                or model.get("end_of_word_suffix") or model.get("ignore_merges")
                or config.get("pre_tokenizer") is not None
                or config.get("normalizer") != NORMALIZER):
            raise ValueError("not the Llama-style BPE tokenizer this reader knows")
        self.vocab: dict[str, int] = model["vocab"]
        # A merge is "a b" in older files, ["a", "b"] in newer ones.
        pairs = (m.split(" ", 1) if isinstance(m, str) else m for m in model["merges"])
        self.ranks: dict[tuple[str, str], int] = {
            (pair[0], pair[1]): rank for rank, pair in enumerate(pairs)
        }
        self.unknown: str = model["unk_token"]
        self.fuse_unknown = bool(model.get("fuse_unk"))
        # Special tokens are matched in the raw text before anything else, longest first.
        self.special: dict[str, int] = {
            t["content"]: t["id"] for t in config.get("added_tokens", []) if t.get("special")
        }
        names = sorted(self.special, key=len, reverse=True)
        self._special_re = re.compile("|".join(map(re.escape, names))) if names else None
        # A form asks the same questions each round: keep recent answers.
        self.encode: Callable[[str], tuple[int, ...]] = lru_cache(maxsize=4096)(self._encode)

    def _encode(self, text: str) -> tuple[int, ...]:
        ids: list[int] = []
        start = 0
        for match in self._special_re.finditer(text) if self._special_re else ():
            ids += self._piece(text[start:match.start()])
            ids.append(self.special[match.group()])
            start = match.end()
        ids += self._piece(text[start:])
        return tuple(ids)

    def _piece(self, text: str) -> list[int]:
        if not text:
            return []
        symbols = self._symbols(SPACE + text.replace(" ", SPACE))
        ranks = self.ranks
        while len(symbols) > 1:
            # The lowest-ranked adjacent pair, leftmost among equals, as the library merges.
            best: tuple[int, int] | None = None
            for i in range(len(symbols) - 1):
                rank = ranks.get((symbols[i], symbols[i + 1]))
                if rank is not None and (best is None or rank < best[0]):
                    best = (rank, i)
            if best is None:
                break
            i = best[1]
            symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
        return [self.vocab[s] for s in symbols]

    def _symbols(self, text: str) -> list[str]:
        symbols: list[str] = []
        for char in text:
            if char in self.vocab:
                symbols.append(char)
                continue
            pieces = [f"<0x{byte:02X}>" for byte in char.encode("utf-8")]
            if all(p in self.vocab for p in pieces):
                symbols += pieces
            elif not (self.fuse_unknown and symbols and symbols[-1] == self.unknown):
                symbols.append(self.unknown)
        return symbols
