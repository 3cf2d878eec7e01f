"""A cache for pure functions of page text, bounded by the characters it holds.

The host lives as long as the browser, and pages choose their texts: an entry-count bound
(`lru_cache(maxsize=8192)`) lets 8,192 unique 1 MB labels stay in memory. This cache counts the
characters of every key and value it keeps and drops the oldest entries past its budget; an entry
larger than the whole budget is computed and not kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

DEFAULT_BUDGET = 1 << 20  # characters per cache: a few MB at most


def _chars(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, tuple | list | frozenset):
        return 8 + sum(_chars(item) for item in value)
    return 8


class TextCache(Generic[P, R]):
    def __init__(self, fn: Callable[P, R], budget: int) -> None:
        self._fn = fn
        self._budget = budget
        self._entries: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        hit = self._entries.get(key)  # a dict read needs no lock; only changes take it
        if hit is not None:
            return hit[0]
        value = self._fn(*args, **kwargs)
        # Most calls are one string in, one string out: counted without the recursive walk.
        if isinstance(value, str) and len(args) == 1 and isinstance(args[0], str) and not kwargs:
            size = 8 + len(args[0]) + len(value)
        else:
            size = _chars(args) + _chars(value)
        if size > self._budget:
            return value
        with self._lock:
            if key not in self._entries:
                self._entries[key] = (value, size)
                self._held += size
                while self._held > self._budget:  # the oldest entries go first
                    _, (_, dropped) = self._entries.popitem(last=False)
                    self._held -= dropped
        return value

    @property
    def held(self) -> int:
        """Characters held now (keys and values), for tests and benchmarks."""
        return self._held

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0


def text_cache(budget: int = DEFAULT_BUDGET) -> Callable[[Callable[P, R]], TextCache[P, R]]:
    def wrap(fn: Callable[P, R]) -> TextCache[P, R]:
        return TextCache(fn, budget)

    return wrap
