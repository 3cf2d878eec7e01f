"""The built program's model path, checked before a build is kept (build.py).

litellm imports many of its modules by name and imports others at its top level; a module the
build leaves out does not fail the build, it makes every model-backed Fill answer "litellm not
installed" (or a call fail with an import error) on the person's machine. So the new program is
started as a browser starts it, with a model served on 127.0.0.1, and asked to plan a question
only a model can answer: once answered, then with the model refusing (HTTP 401, 404), failing
(HTTP 500) and unreachable, and once through litellm's OpenRouter provider. Any import error, in a
reply or in the bridge's log, fails the build and names the module.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PROFILE = REPO / "demo" / "profile" / "sample.json"
ORIGIN = "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"
QUESTION = {"id": "f1", "widget": "text", "name": "broker",
            "label": "Which message broker have you run in production?"}
CONFIG = """profile = {profile}
{api_base}[models]
fast = "{model}"
general = "{model}"
heavy = ""
[prices."{model}"]
input_per_mtok = 0.1
output_per_mtok = 0.2
"""
IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError", "No module named", "litellm not installed")
# (HTTP status the model answers with, what the plan's model status must then contain, the
# model); None: nothing listens at the model's address. An "openai/" model goes to the settings'
# api_base, as every local or gateway model does; OpenRouter's goes through litellm's own
# provider, pointed at the local server by litellm's OPENROUTER_API_BASE.
CASES = ((200, "llm: ", "openai/fast-model"), (401, "authentication failed", "openai/fast-model"),
         (404, "request refused", "openai/fast-model"), (500, "HTTP 500", "openai/fast-model"),
         (None, "connection failed", "openai/fast-model"),
         (200, "llm: ", "openrouter/deepseek/deepseek-chat"))


class BuildCheckFailed(Exception):
    pass


class _Model(BaseHTTPRequestHandler):
    """Chat completions that skip every question asked, or fail with the server's status."""

    protocol_version = "HTTP/1.1"
    status = 200

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.status != 200:
            self._send(self.status, {"error": {"message": "scripted", "type": "server_error"}})
            return
        schema = body.get("response_format", {}).get("json_schema", {}).get("schema", {})
        asked = schema.get("properties", {}).get("fields", {}).get("properties", {})
        text = json.dumps({"fields": {qid: {"skip": "not in the facts"} for qid in asked}})
        self._send(200, {
            "id": "chatcmpl-check", "object": "chat.completion", "created": 1_700_000_000,
            "model": body.get("model", "check"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args  # the build's output stays readable


def _request(proc: subprocess.Popen[bytes], kind: str, payload: dict[str, Any]) -> Any:
    """One native-messaging request and its whole reply (chunked replies put together)."""
    assert proc.stdin is not None and proc.stdout is not None
    body = json.dumps({"v": 1, "id": kind, "type": kind, "payload": payload}).encode()
    proc.stdin.write(struct.pack("=I", len(body)) + body)
    proc.stdin.flush()
    pieces: list[dict[str, Any]] = []
    while True:
        head = proc.stdout.read(4)
        if len(head) < 4:
            raise BuildCheckFailed(f"the program closed its output during {kind}")
        reply: dict[str, Any] = json.loads(proc.stdout.read(struct.unpack("=I", head)[0]))
        if "chunk" not in reply:
            return reply
        pieces.append(reply)
        if len(pieces) == reply["chunk"]["count"]:
            return json.loads("".join(piece["chunk"]["data"] for piece in pieces))


def _plan_status(program: Path, home: Path, extra_env: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RELAY_", "LITELLM_", "OPENROUTER_"))}
    env.update(extra_env, RELAY_HOME=str(home))
    proc = subprocess.Popen([str(program), ORIGIN], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        if not _request(proc, "hello", {"protocol": "1.0"}).get("ok"):
            raise BuildCheckFailed("the program did not answer hello")
        reply = _request(proc, "fill.plan", {
            "url": "https://jobs.example.com/apply", "frames": [{"fields": [QUESTION]}],
            "job_text": "Senior Backend Engineer: Python, Kafka and PostgreSQL. " * 8})
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=60)
    if not reply.get("ok"):
        raise BuildCheckFailed(f"fill.plan failed: {reply}")
    return str(reply["result"]["llm_status"])


def check_model_path(program: Path) -> None:
    """Raise BuildCheckFailed unless `program` reaches the model, and reports its errors, with
    every module litellm needs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
        try:
            _run_cases(program, f"http://127.0.0.1:{server.server_address[1]}/v1", nowhere)
        finally:
            server.shutdown()


def _run_cases(program: Path, base: str, nowhere: str) -> None:
    with tempfile.TemporaryDirectory(prefix="relay-build-check-") as scratch:
        for number, (status, expected, model) in enumerate(CASES):
            home = Path(scratch) / str(number)  # a data folder each: nothing remembered
            home.mkdir()
            url = base if status else nowhere
            through_provider = not model.startswith("openai/")
            (home / "config.toml").write_text(CONFIG.format(
                profile=json.dumps(str(PROFILE)), model=model,
                api_base="" if through_provider else f'api_base = "{url}"\n'), encoding="utf-8")
            extra_env = {"OPENROUTER_API_BASE": url,
                         "RELAY_LLM_API_KEY": "sk-build-check"} if through_provider else {}
            _Model.status = status or 200
            said = _plan_status(program, home, extra_env)
            log_file = home / "logs" / "bridge.log"
            log = log_file.read_text(encoding="utf-8") if log_file.is_file() else ""
            problems = [line for line in [said, *log.splitlines()]
                        if any(mark in line for mark in IMPORT_ERRORS)]
            if problems or expected not in said:
                how = f"answering HTTP {status}" if status else "unreachable"
                raise BuildCheckFailed(
                    f"with the model {model} {how}, the built program said {said!r}, not "
                    f"{expected!r}" + "".join(f"\n  {p}" for p in problems))
