"""Start a registered host exactly as a browser does and ask it `hello`.

Chrome-family browsers run the manifest's `path` with `chrome-extension://ID/` (and, on Windows,
`--parent-window=0`); Firefox runs it with the manifest's own path and the add-on id. The browser's
environment is not this shell's: Relay's settings variables are left out, so a setting that only
exists in the shell shows up here as it would in the browser.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.identity import CHROME_EXTENSION_IDS, FIREFOX_ADDON_IDS, PROTOCOL_VERSION
from bridge.install.browsers import Family
from bridge.install.machine import System
from bridge.settings import ENV_OVERRIDES, KEY_ENV

TIMEOUT_S = 20.0
SHELL_ONLY = (*ENV_OVERRIDES.values(), KEY_ENV)


@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    message: str
    hello: dict[str, Any] | None = None


def browser_argv(host: Path, family: Family, manifest_path: Path, system: System) -> list[str]:
    if family == "firefox":
        return [str(host), str(manifest_path), FIREFOX_ADDON_IDS[0]]
    argv = [str(host), f"chrome-extension://{CHROME_EXTENSION_IDS[0]}/"]
    if system == "windows":
        argv.append("--parent-window=0")
    return argv


def browser_env(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in SHELL_ONLY}


def _read_exact(stream: Any, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def probe(argv: list[str], env: Mapping[str, str], timeout_s: float = TIMEOUT_S) -> ProbeResult:
    """Run the host, send `hello`, and say whether a well-formed, accepting reply came back."""
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(env), cwd=os.path.dirname(argv[0]) or None)
    except OSError as exc:
        return ProbeResult(False, f"could not start {argv[0]}: {exc}")
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    body = json.dumps({"v": 1, "id": "doctor", "type": "hello",
                       "payload": {"protocol": PROTOCOL_VERSION}}).encode()
    reply: dict[str, bytes] = {}

    def exchange() -> None:
        try:
            proc.stdin.write(struct.pack("=I", len(body)) + body)  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            head = _read_exact(proc.stdout, 4)
            if len(head) == 4:
                reply["body"] = _read_exact(proc.stdout, struct.unpack("=I", head)[0])
        except OSError:
            pass

    worker = threading.Thread(target=exchange, daemon=True)
    worker.start()
    worker.join(timeout_s)
    timed_out = worker.is_alive()
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    stderr = proc.stderr.read().decode("utf-8", "replace").strip()
    tail = f": {stderr.splitlines()[-1]}" if stderr else ""
    if timed_out:
        return ProbeResult(False, f"started but did not answer within {timeout_s:.0f} s{tail}")
    if "body" not in reply:
        return ProbeResult(False, f"exited with status {proc.returncode} before answering{tail}")
    try:
        message = json.loads(reply["body"])
    except (UnicodeDecodeError, json.JSONDecodeError):
        return ProbeResult(False, "answered with something that is not a protocol frame")
    if not isinstance(message, dict) or not message.get("ok"):
        error = message.get("error", {}) if isinstance(message, dict) else {}
        return ProbeResult(False, f"refused hello: {error.get('code')}: {error.get('message')}")
    result = message.get("result") or {}
    return ProbeResult(True, f"answers hello (bridge {result.get('bridge_version')})", result)
