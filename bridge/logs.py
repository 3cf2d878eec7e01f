"""Logging for the bridge: stderr and a rotating file under RELAY_HOME/logs. Never stdout."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import Any

from bridge.paths import PRIVATE_FILE, log_dir, private_file
from bridge.protocol.text import well_formed


class _WellFormed(logging.Filter):
    """Page text in a log line may hold lone surrogates; a handler must never fail on them."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = well_formed(message)
        if clean is not message:
            record.msg, record.args = clean, None
        return True


def surrogate_safe_handler(handler: logging.Handler) -> logging.Handler:
    handler.addFilter(_WellFormed())
    return handler


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose files are created 0600: page text and field names end up in it."""

    def _open(self) -> Any:
        private_file(Path(self.baseFilename))
        return open(
            self.baseFilename,
            self.mode,
            encoding=self.encoding,
            errors=self.errors,
            opener=lambda name, flags: os.open(name, flags, PRIVATE_FILE),
        )


def setup_host_logging() -> None:
    level = logging.DEBUG if os.environ.get("RELAY_DEBUG") else logging.INFO
    root = logging.getLogger()
    root.setLevel(level)
    fmt = logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    to_stderr = surrogate_safe_handler(logging.StreamHandler(sys.stderr))
    to_stderr.setLevel(logging.WARNING)
    to_stderr.setFormatter(fmt)
    root.addHandler(to_stderr)
    try:
        to_file = PrivateRotatingFileHandler(
            log_dir() / "bridge.log",
            maxBytes=2_000_000,
            backupCount=3,
            encoding="utf-8",
            errors="backslashreplace",
        )
    except OSError as exc:  # an unwritable home must not stop the host
        root.warning("file logging disabled: %s", exc)
        return
    to_file.setFormatter(fmt)
    root.addHandler(surrogate_safe_handler(to_file))
