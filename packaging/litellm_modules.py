"""List the litellm modules Relay's model calls load, for the desktop build (relay.spec).

litellm imports many of its own modules by name at run time, which PyInstaller's import graph
cannot see; collecting all of them (`collect_submodules`) imports every one at build time, minutes
of CPU, and ships hundreds Relay never runs. Instead this script makes the calls Relay makes
(bridge/llm/client.py: a completion against an OpenAI-compatible base URL, answered, refused,
failing, timing out, unreachable; the local price map) and writes the litellm modules they
loaded. The build adds those to the graph, which brings in what they import.

Run it with the development environment after changing litellm's version (it serves the model
on 127.0.0.1 only):  .venv/bin/python packaging/litellm_modules.py
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT = REPO / "packaging" / "litellm_modules.txt"

from bridge.llm import client  # noqa: E402
from tests.llm_server import LlmServer, Reply  # noqa: E402

SCHEMA = {"type": "json_schema", "json_schema": {"name": "fields", "strict": True, "schema": {
    "type": "object", "properties": {"fields": {"type": "object"}}, "required": ["fields"]}}}
REPLIES = [Reply({"fields": {}}), Reply(status=400), Reply(status=401), Reply(status=404),
           Reply(status=429), Reply(status=500), Reply({"fields": {}}, delay_s=3)]


def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(api_base: str) -> str:
    try:
        done = client.complete(model="openai/fast-model", response_format=SCHEMA,
                               messages=[{"role": "user", "content": "{}"}], api_key="",
                               api_base=api_base, timeout_s=1, max_tokens=50)
    except client.CallError as exc:
        return exc.kind
    return f"answered ({done.tokens_in} tokens in)"


def main() -> int:
    server = LlmServer()
    server.start()
    try:
        for reply in REPLIES:
            server.reset(lambda _body, reply=reply: reply)  # type: ignore[misc]
            print(call(server.base_url), file=sys.stderr)
    finally:
        server.stop()
    print(call(f"http://127.0.0.1:{unused_port()}/v1"), file=sys.stderr)
    assert client.cost_map()
    names = sorted(name for name in sys.modules if name == "litellm" or name.startswith("litellm."))
    OUT.write_text("".join(f"{name}\n" for name in names), encoding="utf-8")
    print(f"{len(names)} modules written to {OUT.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
