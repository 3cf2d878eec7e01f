"""Fuzz the real `relay-bridge` process with hostile frames and print what went wrong.

Sends N frames (default 100,000) built by tests/fuzz_inputs.py through the host's stdin, reads every
answer from its stdout, and prints: crashes (the process died), non-frames (stdout bytes that are
not a well-formed frame), E_INTERNAL answers, hangs (no answer within 10 s), and the process's
memory every 10,000 cases (peak and last, to show the line stays flat). Asserts nothing.
Run: .venv/bin/python bench/fuzz.py [N] [seed]
"""

from __future__ import annotations

import os
import random
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from queue import Empty, Queue
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bridge_process import bridge_command
from tests.conftest import SAMPLE_PROFILE
from tests.fuzz_inputs import frame_body, strict_json

HANG_SECONDS = 10.0


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def reader(stream: Any, out: Queue[Any]) -> None:
    """Every frame from the host's stdout, or a note of what was not a frame."""
    while True:
        head = stream.read(4)
        if not head:
            out.put(("eof", None))
            return
        if len(head) < 4:
            out.put(("non-frame", head))
            return
        (length,) = struct.unpack("=I", head)
        body = stream.read(length)
        try:
            out.put(("frame", strict_json(body)))
        except ValueError:
            out.put(("non-frame", body[:80]))


def main() -> None:
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    home = tempfile.mkdtemp(prefix="relay-fuzz-")
    env = {**os.environ, "RELAY_HOME": home, "RELAY_PROFILE": str(SAMPLE_PROFILE)}
    proc = subprocess.Popen(bridge_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    frames: Queue[Any] = Queue()
    threading.Thread(target=reader, args=(proc.stdout, frames), daemon=True).start()
    counts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    memory: list[tuple[int, float]] = []
    started = time.perf_counter()
    for case in range(1, total + 1):
        body = frame_body(rng)
        try:
            proc.stdin.write(struct.pack("=I", len(body)) + body)
            proc.stdin.flush()
        except BrokenPipeError:
            counts["crashes"] += 1
            break
        answered = False
        while not answered:
            try:
                kind, frame = frames.get(timeout=HANG_SECONDS)
            except Empty:
                counts["hangs"] += 1
                break
            if kind != "frame":
                counts["crashes" if kind == "eof" else "non-frames"] += 1
                break
            if frame.get("type") == "event":
                continue
            chunk = frame.get("chunk")
            if chunk and chunk.get("index", 0) + 1 < chunk.get("count", 1):
                continue
            answered = True
            if frame.get("ok") is False:
                codes[str(frame.get("error", {}).get("code"))] += 1
            else:
                codes["ok"] += 1
        if not answered and proc.poll() is not None:
            break
        if case % 10_000 == 0:
            memory.append((case, rss_mb(proc.pid)))
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    code = proc.wait(timeout=30)
    print(f"cases: {case}  seed: {seed}  time: {elapsed:.0f} s ({case / elapsed:.0f} per second)")
    print(f"crashes: {counts['crashes']}  non-frames: {counts['non-frames']}  "
          f"E_INTERNAL: {codes['E_INTERNAL']}  hangs: {counts['hangs']}  exit status: {code}")
    print("answers: " + ", ".join(f"{k} {v}" for k, v in codes.most_common()))
    if memory:
        line = "  ".join(f"{n // 1000}k {mb:.0f} MB" for n, mb in memory)
        print(f"memory (RSS): peak {max(mb for _, mb in memory):.0f} MB; {line}")


if __name__ == "__main__":
    main()
