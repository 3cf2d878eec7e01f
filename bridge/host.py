"""`relay-bridge`: the native-messaging host. Frames in, runtime calls, frames out.

stdout carries protocol frames and nothing else: the real stdout is taken for framing at start and
`sys.stdout` is pointed at stderr, so a stray print can never corrupt the port.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, BinaryIO

from bridge.identity import FIREFOX_ADDON_IDS, HOST_NAME, allowed_chrome_origins
from bridge.protocol.envelopes import (
    Request,
    error_reply,
    parse_request,
    request_id_of,
    split_event,
    split_reply,
)
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.protocol.framing import (
    BrokenStream,
    EnvelopeError,
    StreamClosed,
    decode_body,
    read_frame,
    write_frame,
)

if TYPE_CHECKING:
    from bridge.runtime import Runtime

log = logging.getLogger("relay.host")

EXIT_OK = 0
EXIT_BROKEN_STREAM = 3
EXIT_ORIGIN_REFUSED = 4


def caller_allowed(argv: Sequence[str]) -> tuple[bool, str]:
    """Check the caller the browser names on the command line.

    Chrome family: `chrome-extension://ID/` (plus `--parent-window=N` on Windows).
    Firefox: the path of this host's manifest, then the add-on id, and nothing else.
    No arguments at all: started by hand or by tests.
    """
    if not argv:
        return True, "no caller named"
    args = [a for a in argv if not a.startswith("--parent-window=")]
    origins = [a for a in args if a.startswith(("chrome-extension://", "extension://"))]
    if len(origins) == 1 and len(args) == 1:
        origin = origins[0] if origins[0].endswith("/") else origins[0] + "/"
        return origin in allowed_chrome_origins(), origin
    if len(args) == 2 and len(args) == len(argv):
        manifest = args[0].replace("\\", "/").rsplit("/", 1)[-1]
        if manifest == f"{HOST_NAME}.json" and args[1] in FIREFOX_ADDON_IDS:
            return True, args[1]
    # A bare --parent-window=N is Chrome's on Windows only beside an origin: not a caller.
    return False, " ".join(argv)[:200]


class FrameWriter:
    """Writes frames from the request loop and from background work (replays), one at a time."""

    def __init__(self, stdout: BinaryIO) -> None:
        self._stdout = stdout
        self._lock = threading.Lock()
        self._seq = 0
        self.closed = False

    def write(self, frame: dict[str, Any]) -> bool:
        with self._lock:
            if not self.closed and not _write_safely(self._stdout, frame):
                self.closed = True
            return not self.closed

    def event(self, event: dict[str, Any]) -> bool:
        """Send an event, in chunks when it is large; False when it did not reach the caller."""
        with self._lock:
            self._seq += 1
            try:
                frames = split_event(self._seq, event)
            except RelayError as exc:
                log.warning("event %s not sent: %s", event.get("kind", ""), exc.message)
                return False
            for frame in frames:  # under the lock: a reply never lands between two chunks
                if self.closed:
                    return False
                try:
                    write_frame(self._stdout, frame)
                except (BrokenPipeError, OSError) as exc:
                    log.info("port closed while writing: %s", exc)
                    self.closed = True
                    return False
                except RelayError as exc:
                    log.warning("event %s not sent: %s", event.get("kind", ""), exc.message)
                    return False
            return True


class HostSession:
    """One connection: the caller check, the request loop, and the runtime it creates lazily."""

    def __init__(self, stdin: BinaryIO, stdout: BinaryIO, argv: Sequence[str]) -> None:
        self.stdin = stdin
        self.writer = FrameWriter(stdout)
        self.allowed, self.caller = caller_allowed(argv)
        self.runtime: Runtime | None = None

    def run(self) -> int:
        try:
            return self._loop()
        finally:
            if self.runtime is not None:
                self.runtime.close()

    def _loop(self) -> int:
        while True:
            try:
                body = read_frame(self.stdin)
            except StreamClosed:
                log.info("port closed by the caller")
                return EXIT_OK
            except BrokenStream as exc:
                log.error("broken stream, exiting: %s %s", exc.code, exc.message)
                self.writer.write(error_reply("", exc.code, exc.message))
                return EXIT_BROKEN_STREAM
            for frame in self._answer(body):
                if not self.writer.write(frame):
                    return EXIT_BROKEN_STREAM
            if not self.allowed:
                return EXIT_ORIGIN_REFUSED

    def _answer(self, body: bytes) -> list[dict[str, Any]]:
        message: dict[str, Any] = {}
        try:
            message = decode_body(body)
            if not self.allowed:
                raise RelayError(
                    ErrorCode.ORIGIN_REFUSED,
                    f"caller {self.caller!r} is not an allowed Relay extension",
                )
            request = parse_request(message)
            result = self._dispatch(request)
            return split_reply({"v": 1, "id": request.id, "ok": True, "result": result})
        except EnvelopeError as exc:
            return [error_reply(exc.request_id, exc.code, exc.message)]
        except RelayError as exc:
            return [error_reply(request_id_of(message), exc.code, exc.message)]
        except Exception:
            log.exception("internal error handling %s", request_id_of(message) or "a request")
            message_text = "internal error in the bridge; see its log file"
            return [error_reply(request_id_of(message), ErrorCode.INTERNAL, message_text)]

    def _dispatch(self, request: Request) -> dict[str, Any]:
        # Deferred imports: the host answers its first frame before the heavier parts load.
        from bridge.actions.registry import dispatch

        if self.runtime is None:
            from bridge.runtime import Runtime

            self.runtime = Runtime()
            self.runtime.emit = self.writer.event
        return dispatch(self.runtime, request)


def serve(stdin: BinaryIO, stdout: BinaryIO, argv: Sequence[str] = ()) -> int:
    return HostSession(stdin, stdout, argv).run()


def _write_safely(stdout: BinaryIO, frame: dict[str, Any]) -> bool:
    """Write one frame; a frame that cannot be written becomes an error reply, never an exit."""
    try:
        write_frame(stdout, frame)
        return True
    except (BrokenPipeError, OSError) as exc:
        log.info("port closed while writing: %s", exc)
        return False
    except RelayError as exc:
        fallback = error_reply(str(frame.get("id", "")), exc.code, exc.message)
    except Exception:
        log.exception("could not encode a frame")
        message = "internal error in the bridge; see its log"
        fallback = error_reply(str(frame.get("id", "")), ErrorCode.INTERNAL, message)
    try:
        write_frame(stdout, fallback)
    except (BrokenPipeError, OSError) as exc:
        log.info("port closed while writing: %s", exc)
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    from bridge import collector

    collector.hold_off()  # until the first plan is answered (Runtime's warm-up settles it)
    frames_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed by accident goes to stderr, not the port
    from bridge.logs import setup_host_logging

    setup_host_logging()
    args = list(sys.argv[1:] if argv is None else argv)
    build = "the desktop build" if getattr(sys, "frozen", False) else sys.executable
    log.info("bridge started from %s", build)
    code = serve(sys.stdin.buffer, frames_out, args)
    # The port is closed, every reply written and the store closed: end now. The interpreter's
    # own shutdown would wait for warm-up threads still importing (they hold the GIL and import
    # locks for seconds on a busy machine), and their work was only ahead-of-time loading.
    logging.shutdown()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
