"""Who may call the API: checks made on every request before any route runs.

A web page in the person's browser can reach 127.0.0.1 too. It is kept out three ways: the Host
header must name this server (a rebinding DNS name does not), a request a browser sends for a
page carries an Origin and is refused (and no CORS header is ever sent), and every request needs
the bearer token, which only a program that can read the person's files has.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable

from aiohttp import web

from bridge.protocol.errors import ErrorCode, RelayError

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def loopback_host(host: str) -> str:
    """The address to bind: a loopback IP address only, else ValueError."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if address is None or not address.is_loopback:
        raise ValueError(
            f"refusing to listen on {host!r}: the API listens on this computer only "
            "(a loopback address such as 127.0.0.1)"
        )
    return str(address)


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    shown = f"[{host}]" if ":" in host else host
    names = {shown, "localhost"} if host in {"127.0.0.1", "::1"} else {shown}
    return frozenset(f"{name}:{port}" for name in names)


def check(request: web.Request, token: str, hosts: frozenset[str], max_body: int) -> None:
    """Raise RelayError for a request that may not reach a route."""
    host = request.headers.get("Host", "")
    if host.lower() not in hosts:
        raise RelayError(ErrorCode.HOST_REFUSED, f"this server does not answer for host {host!r}")
    if "Origin" in request.headers:
        raise RelayError(
            ErrorCode.ORIGIN_REFUSED,
            "requests from web pages are refused; call the API from a program on this computer",
        )
    given = request.headers.get("Authorization", "")
    scheme, _, value = given.partition(" ")
    matches = hmac.compare_digest(value.strip().encode(), token.encode())
    if scheme.lower() != "bearer" or not matches:
        raise RelayError(
            ErrorCode.UNAUTHORIZED,
            "a bearer token is needed: the one in RELAY_HOME/api-token",
        )
    length = request.content_length
    if length is not None and length > max_body:
        raise RelayError(
            ErrorCode.BODY_TOO_LARGE, f"the body is {length} bytes; at most {max_body} are read"
        )
