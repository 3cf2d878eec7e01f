"""The aiohttp application: `POST /v1/{type}` for every request type, `GET /openapi.json`.

A request's body is its payload; the reply is `{"ok": true, "result": …}` or
`{"ok": false, "error": {"code", "message"}}` with an HTTP status for the code.
`Idempotency-Key` is the request id: the same key with the same body gets the first answer.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from typing import Any

from aiohttp import web

from bridge.api import guard, narrow
from bridge.doors import call
from bridge.protocol.envelopes import MAX_ID
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.protocol.framing import decode_body
from bridge.runtime import Runtime

MAX_BODY = 16 * 1024 * 1024  # a snapshot of a very large form fits many times over
TYPE_PATTERN = r"[a-z][a-z0-9_.]{0,99}"
KEY_MAX = MAX_ID - len("http:")
KEY_PATTERN = re.compile(rf"[\x21-\x7e]{{1,{KEY_MAX}}}")

STATUS: dict[ErrorCode, int] = {
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.HOST_REFUSED: 403,
    ErrorCode.ORIGIN_REFUSED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.UNKNOWN_TYPE: 404,
    ErrorCode.BODY_TOO_LARGE: 413,
    ErrorCode.PROFILE_MISSING: 409,
    ErrorCode.PROFILE_INVALID: 409,
    ErrorCode.INTERNAL: 500,
    ErrorCode.STORE_FAILED: 500,
}

TOKEN_KEY = web.AppKey("token", str)
RUNTIME_KEY = web.AppKey("runtime", Runtime)
HOSTS_KEY = web.AppKey("hosts", frozenset)
MAX_BODY_KEY = web.AppKey("max_body", int)


def error_response(code: ErrorCode, message: str) -> web.Response:
    body = {"ok": False, "error": {"code": code.value, "message": message}}
    return web.json_response(body, status=STATUS.get(code, 400))


@web.middleware
async def checked(request: web.Request, handler: guard.Handler) -> web.StreamResponse:
    app = request.app
    try:
        guard.check(request, app[TOKEN_KEY], app[HOSTS_KEY], app[MAX_BODY_KEY])
        return await handler(request)
    except RelayError as exc:
        return error_response(exc.code, exc.message)
    except web.HTTPRequestEntityTooLarge:
        limit = app[MAX_BODY_KEY]
        return error_response(ErrorCode.BODY_TOO_LARGE, f"the body is over {limit} bytes")
    except web.HTTPMethodNotAllowed as exc:
        allowed = ", ".join(sorted(exc.allowed_methods))
        return error_response(
            ErrorCode.NOT_FOUND, f"no such route: {request.method} {request.path} (use {allowed})"
        )
    except web.HTTPNotFound:
        message = f"no such route: {request.method} {request.path}"
        return error_response(ErrorCode.NOT_FOUND, message)


async def request_type(request: web.Request) -> web.Response:
    kind = request.match_info["type"]
    if kind in narrow.EXTENSION_ONLY:
        raise RelayError(
            ErrorCode.UNKNOWN_TYPE,
            f"{kind!r} is the extension's own (what a page did, or the person's say-so) and is"
            " not offered over HTTP",
        )
    key = request.headers.get("Idempotency-Key")
    if key is not None and not KEY_PATTERN.fullmatch(key):
        raise RelayError(
            ErrorCode.BAD_ENVELOPE,
            f"Idempotency-Key: must be 1 to {KEY_MAX} visible ASCII characters",
        )
    payload = await _payload(request)
    runtime = request.app[RUNTIME_KEY]
    request_id = f"http:{key or uuid.uuid4().hex}"
    # The dispatcher is synchronous (the store, the model): it runs on a worker thread.
    result = await asyncio.to_thread(call, runtime, kind, payload, request_id)
    if kind == "fill.plan":
        result = narrow.plan_for_a_tool(result)
    return web.json_response({"ok": True, "result": result})


async def _payload(request: web.Request) -> dict[str, Any]:
    raw = await request.read()
    # The native port's decoding: the same codes for bad text and JSON, lone surrogates replaced.
    return decode_body(raw) if raw.strip() else {}


async def openapi(request: web.Request) -> web.Response:
    from bridge.api.openapi import document

    return web.json_response(document())


def make_app(
    runtime: Runtime, token: str, host: str, port: int, *, max_body: int = MAX_BODY
) -> web.Application:
    # aiohttp's own limit stops a body sent without Content-Length while it is read.
    app = web.Application(middlewares=[checked], client_max_size=max_body)
    app[TOKEN_KEY] = token
    app[RUNTIME_KEY] = runtime
    app[HOSTS_KEY] = guard.allowed_hosts(host, port)
    app[MAX_BODY_KEY] = max_body
    app.router.add_get("/openapi.json", openapi)
    app.router.add_post(f"/v1/{{type:{TYPE_PATTERN}}}", request_type)
    return app
