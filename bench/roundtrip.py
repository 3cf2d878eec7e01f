"""Host cold start to its first `hello` reply, and the median round trip of 200 pings.

Prints figures; asserts nothing. Run: .venv/bin/python bench/roundtrip.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bridge_process import BridgeProcess

COLD_RUNS = 15
PINGS = 200


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {"RELAY_HOME": home}
        cold = []
        for _ in range(COLD_RUNS):
            started = time.perf_counter()
            bridge = BridgeProcess(env=env)
            reply = bridge.request("hello", {"protocol": "1.0"})
            cold.append((time.perf_counter() - started) * 1000)
            assert reply["ok"], reply
            bridge.close()
        bridge = BridgeProcess(env=env)
        bridge.request("hello", {"protocol": "1.0"})
        time.sleep(1.0)  # let the warm-up thread finish, as it would before a person's first click
        trips = []
        for i in range(PINGS):
            started = time.perf_counter()
            bridge.request("ping", rid=str(i))
            trips.append((time.perf_counter() - started) * 1000)
        bridge.close()
    print(f"cold start to first hello reply: median {statistics.median(cold):.1f} ms, "
          f"min {min(cold):.1f} ms, max {max(cold):.1f} ms over {COLD_RUNS} starts")
    print(f"ping round trip: median {statistics.median(trips):.3f} ms, "
          f"p95 {sorted(trips)[int(PINGS * 0.95)]:.3f} ms over {PINGS} pings")


if __name__ == "__main__":
    main()
