"""Stand-in for Hugging Face's tokenizers in the desktop build, which leaves the library out (8 MB).

litellm.utils imports `Tokenizer` at its top level but uses it only to count tokens itself for
Cohere, Llama and pre-3 Claude models, mostly with tokenizers it downloads from the Hugging Face
Hub. Relay turns that off (`litellm.disable_hf_tokenizer_download`, bridge/llm/client.py), so
litellm counts with tiktoken and never builds one: this class only has to exist.
"""

from __future__ import annotations

from typing import NoReturn


class Tokenizer:
    @classmethod
    def _missing(cls, *_args: object, **_kwargs: object) -> NoReturn:
        raise ImportError("Hugging Face's tokenizers is not part of Relay's desktop build")

    from_str = from_file = from_buffer = from_pretrained = _missing
