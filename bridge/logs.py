"""Logging for the bridge: stderr and a rotating file under RELAY_HOME/logs. Never stdout."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys

from bridge.paths import log_dir


def setup_host_logging() -> None:
    level = logging.DEBUG if os.environ.get("RELAY_DEBUG") else logging.INFO
    root = logging.getLogger()
    root.setLevel(level)
    fmt = logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(logging.WARNING)
    to_stderr.setFormatter(fmt)
    root.addHandler(to_stderr)
    try:
        to_file = logging.handlers.RotatingFileHandler(
            log_dir() / "bridge.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8"
        )
    except OSError as exc:  # an unwritable home must not stop the host
        root.warning("file logging disabled: %s", exc)
        return
    to_file.setFormatter(fmt)
    root.addHandler(to_file)
