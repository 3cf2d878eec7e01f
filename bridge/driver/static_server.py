"""Serve a local folder on a loopback port: an unpacked extension cannot read file:// pages."""

from __future__ import annotations

import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any


class _QuietHandler(SimpleHTTPRequestHandler):
    def guess_type(self, path: str | os.PathLike[str]) -> str:
        # Without a charset a browser decodes a page that declares none as windows-1252, and
        # labels in other languages come out garbled; every text file served here is UTF-8.
        kind = super().guess_type(path)
        return f"{kind}; charset=utf-8" if kind.startswith("text/") else kind

    def log_message(self, format: str, *args: Any) -> None:
        return  # stdout is not ours to write to


class StaticServer:
    """A threaded HTTP server for one folder, on 127.0.0.1 and an ephemeral port."""

    def __init__(self, root: Path) -> None:
        handler = functools.partial(_QuietHandler, directory=str(root))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def url(self, relative: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/{relative.lstrip('/')}"

    def __enter__(self) -> StaticServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
