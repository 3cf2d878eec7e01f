"""Drive the real `relay-bridge` executable over pipes, as a browser does."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

VENV_BIN = Path(sys.executable).parent


def bridge_command() -> list[str]:
    exe = VENV_BIN / ("relay-bridge.exe" if os.name == "nt" else "relay-bridge")
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "bridge.host"]


class BridgeProcess:
    def __init__(self, *args: str, env: dict[str, str] | None = None,
                 program: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [*(program or bridge_command()), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )

    @classmethod
    def command(cls, argv: list[str], env: dict[str, str] | None = None) -> BridgeProcess:
        """Another program than the venv's relay-bridge (the `relay` CLI, the desktop build)."""
        return cls(env=env, program=argv)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        self.send_raw(struct.pack("=I", len(body)) + body)

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        head = self.proc.stdout.read(4)
        if len(head) < 4:
            raise EOFError("bridge closed its stdout")
        (length,) = struct.unpack("=I", head)
        reply: dict[str, Any] = json.loads(self.proc.stdout.read(length))
        return reply

    def request(self, kind: str, payload: dict[str, Any] | None = None, rid: str = "1") -> Any:
        self.send({"v": 1, "id": rid, "type": kind, "payload": payload or {}})
        reply = self.receive()
        if "chunk" not in reply:
            return reply
        pieces = [reply]
        while len(pieces) < reply["chunk"]["count"]:
            pieces.append(self.receive())
        return json.loads("".join(piece["chunk"]["data"] for piece in pieces))

    def close(self, timeout: float = 10) -> tuple[int, bytes, bytes]:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=timeout)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        return code, self.proc.stdout.read(), self.proc.stderr.read()
