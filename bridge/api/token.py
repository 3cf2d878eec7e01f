"""The API's bearer token: random, in a file only the person can read (`RELAY_HOME/api-token`).

Made once and kept, so a tool set up with it keeps working; deleting the file makes a new one at
the next start.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from bridge.paths import private_file

TOKEN_FILENAME = "api-token"
TOKEN_BYTES = 32


def token_path(home: Path) -> Path:
    return home / TOKEN_FILENAME


def load_or_create(home: Path) -> str:
    path = token_path(home)
    try:
        token = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        token = ""
    if len(token) < TOKEN_BYTES:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        # Created 0600 from the start: never readable by others, not even for a moment.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(token + "\n")
    private_file(path)
    return token
