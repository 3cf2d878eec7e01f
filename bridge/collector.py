"""The garbage collector while a bridge starts: rare until its first plan is answered, then told
to leave what the start loaded alone.

A cold bridge creates a few hundred thousand objects on its way to the first plan (modules,
classes, pydantic's validators, the rules' data), and nearly all of them live as long as it does.
With Python's usual thresholds the collector went through the young ones about a hundred times
before the first plan went out, a tenth of that plan's CPU, and found nothing to free. While the
bridge starts, it collects only every START_THRESHOLD new objects; afterwards what was loaded is
frozen (never looked at again: `gc.freeze`) and the thresholds are Python's again.
"""

from __future__ import annotations

import gc
import threading

START_THRESHOLD = 100_000  # new objects between two collections while the bridge starts

_held: tuple[int, ...] | None = None  # the thresholds to go back to, while held off
_lock = threading.Lock()


def hold_off() -> None:
    """Collect rarely until settle(): called by the native host before it loads anything heavy."""
    global _held
    with _lock:
        if _held is None:
            _held = gc.get_threshold()
            gc.set_threshold(START_THRESHOLD, *_held[1:])


def settle() -> None:
    """The start is over (the first plan is answered, or the bridge sat idle): freeze what it
    loaded and collect as usual again. Does nothing unless hold_off() was called."""
    global _held
    with _lock:
        if _held is None:
            return
        # Not collected first: a full collection here would cost the bridge's next request tens
        # of milliseconds, to free the few cycles its start left (a few hundred kilobytes).
        gc.freeze()
        gc.set_threshold(*_held)
        _held = None

