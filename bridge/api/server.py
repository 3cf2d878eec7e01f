"""Run the API: bind a loopback socket, write where it listens, serve until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
from pathlib import Path
from typing import Any

from aiohttp import web

from bridge.api import guard, token
from bridge.api.app import make_app
from bridge.paths import private_file
from bridge.runtime import Runtime

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
INFO_FILENAME = "api.json"  # where a running API listens, for tools that look it up


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on a loopback address (ValueError for any other address)."""
    host = guard.loopback_host(host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.setblocking(False)
    return sock


def serve(host: str, port: int, home: Path, announce: Any = print) -> int:
    sock = bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    runtime = Runtime(home, door="http")
    secret = token.load_or_create(home)
    app = make_app(runtime, secret, bound_host, bound_port)
    url = f"http://{bound_host}:{bound_port}" if ":" not in bound_host else (
        f"http://[{bound_host}]:{bound_port}")
    info = home / INFO_FILENAME
    info.write_text(
        json.dumps({"url": url, "pid": os.getpid(), "token_file": str(token.token_path(home))}),
        encoding="utf-8",
    )
    private_file(info)
    announce(f"Relay API on {url} (bearer token in {token.token_path(home)}); Ctrl+C stops it")
    try:
        asyncio.run(_run(app, sock))
    except KeyboardInterrupt:
        pass
    finally:
        runtime.close()
        with contextlib.suppress(OSError):
            info.unlink()
    return 0


async def _run(app: web.Application, sock: socket.socket) -> None:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still stops it
            loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
