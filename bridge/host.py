"""`relay-bridge`: the native-messaging host. Frames in, runtime calls, frames out.

stdout carries protocol frames and nothing else: the real stdout is taken for framing at start and
`sys.stdout` is pointed at stderr, so a stray print can never corrupt the port.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO

from bridge.identity import FIREFOX_ADDON_IDS, allowed_chrome_origins
from bridge.protocol.envelopes import error_reply, parse_request, request_id_of, split_reply
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.protocol.framing import BrokenStream, StreamClosed, decode_body, read_frame, write_frame

log = logging.getLogger("relay.host")

EXIT_OK = 0
EXIT_BROKEN_STREAM = 3
EXIT_ORIGIN_REFUSED = 4


def caller_allowed(argv: Sequence[str]) -> tuple[bool, str]:
    """Check the caller the browser names on the command line.

    Chrome family: `chrome-extension://ID/` (plus `--parent-window=N` on Windows).
    Firefox: the manifest path, then the add-on id. No arguments: started by hand or by tests.
    """
    args = [a for a in argv if not a.startswith("--parent-window=")]
    if not args:
        return True, "no caller named"
    origins = [a for a in args if a.startswith(("chrome-extension://", "extension://"))]
    if origins:
        origin = origins[0] if origins[0].endswith("/") else origins[0] + "/"
        return origin in allowed_chrome_origins(), origin
    if len(args) >= 2 and args[1] in FIREFOX_ADDON_IDS:
        return True, args[1]
    return False, " ".join(args)


def serve(stdin: BinaryIO, stdout: BinaryIO, argv: Sequence[str] = ()) -> int:
    allowed, caller = caller_allowed(argv)
    runtime: Any = None
    while True:
        try:
            body = read_frame(stdin)
        except StreamClosed:
            log.info("port closed by the caller")
            return EXIT_OK
        except BrokenStream as exc:
            log.error("broken stream, exiting: %s %s", exc.code, exc.message)
            _write_safely(stdout, error_reply("", exc.code, exc.message))
            return EXIT_BROKEN_STREAM
        message: dict[str, Any] = {}
        try:
            message = decode_body(body)
            if not allowed:
                raise RelayError(
                    ErrorCode.ORIGIN_REFUSED, f"caller {caller!r} is not an allowed Relay extension"
                )
            request = parse_request(message)
            if runtime is None:
                runtime = _make_runtime()
            result = _dispatch(runtime, request)
            frames = split_reply({"v": 1, "id": request.id, "ok": True, "result": result})
        except RelayError as exc:
            frames = [error_reply(request_id_of(message), exc.code, exc.message)]
        except Exception:
            log.exception("internal error handling %s", request_id_of(message) or "a request")
            frames = [
                error_reply(
                    request_id_of(message),
                    ErrorCode.INTERNAL,
                    "internal error in the bridge; see its log file",
                )
            ]
        for frame in frames:
            if not _write_safely(stdout, frame):
                return EXIT_BROKEN_STREAM
        if not allowed:
            return EXIT_ORIGIN_REFUSED


def _make_runtime() -> Any:
    from bridge.runtime import Runtime  # deferred: the host answers its first frame fast

    return Runtime()


def _dispatch(runtime: Any, request: Any) -> dict[str, Any]:
    from bridge.actions.registry import dispatch

    return dispatch(runtime, request)


def _write_safely(stdout: BinaryIO, frame: dict[str, Any]) -> bool:
    try:
        write_frame(stdout, frame)
    except RelayError as exc:
        write_frame(stdout, error_reply(str(frame.get("id", "")), exc.code, exc.message))
    except (BrokenPipeError, OSError) as exc:
        log.info("port closed while writing: %s", exc)
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    frames_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed by accident goes to stderr, not the port
    from bridge.logs import setup_host_logging

    setup_host_logging()
    args = list(sys.argv[1:] if argv is None else argv)
    return serve(sys.stdin.buffer, frames_out, args)


if __name__ == "__main__":
    sys.exit(main())
