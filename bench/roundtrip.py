"""Host cold start to its first `hello` reply, started as a browser starts it, for the Python
script and (when `./dev bundle` has made it) the desktop build side by side, and how long each
takes to exit once the port closes right after `hello` (its warm-up still running); the desktop
build's size, package by package; and the median round trip of 200 pings.

Wall time is what a person waits; the CPU time beside it (the host's own, user + system) changes
less when other work shares the machine. Aims for the desktop build: at most 250 ms to `hello`,
at most 150 MB unpacked.

Prints figures; asserts nothing. Run: .venv/bin/python bench/roundtrip.py
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bridge_process import BridgeProcess, bridge_command

REPO = Path(__file__).resolve().parents[1]
BUNDLE = REPO / "dist" / "relay"
ORIGIN = "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"
COLD_RUNS = 15
PINGS = 200


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_starts(program: list[str], home: str) -> tuple[list[float], list[float], list[float]]:
    wall, cpu, exits = [], [], []
    for _ in range(COLD_RUNS):
        before = children_cpu_s()
        started = time.perf_counter()
        bridge = BridgeProcess.command([*program, ORIGIN], env={"RELAY_HOME": home})
        reply = bridge.request("hello", {"protocol": "1.0"})
        wall.append((time.perf_counter() - started) * 1000)
        assert reply["ok"], reply
        closing = time.perf_counter()
        bridge.close(timeout=60)
        exits.append((time.perf_counter() - closing) * 1000)
        cpu.append((children_cpu_s() - before) * 1000)
    return wall, cpu, exits


def describe(name: str, wall: list[float], cpu: list[float], exits: list[float]) -> str:
    return (f"{name}: cold start to first hello reply: median {statistics.median(wall):.0f} ms "
            f"(min {min(wall):.0f}, max {max(wall):.0f}) over {COLD_RUNS} starts; host CPU "
            f"median {statistics.median(cpu):.0f} ms (whole run, hello and exit); exit after "
            f"the port closes: median {statistics.median(exits):.0f} ms (max {max(exits):.0f})")


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine load average: {load:.1f} on {os.cpu_count()} cores")
    programs = {"script": bridge_command()}
    if (BUNDLE / "relay").is_file():
        programs["bundle"] = [str(BUNDLE / "relay")]
    with tempfile.TemporaryDirectory() as home:
        for name, program in programs.items():
            print(describe(name, *cold_starts(program, home)))
        bridge = BridgeProcess(env={"RELAY_HOME": home})
        bridge.request("hello", {"protocol": "1.0"})
        time.sleep(1.0)  # let the warm-up thread finish, as it would before a person's first click
        trips = []
        for i in range(PINGS):
            started = time.perf_counter()
            bridge.request("ping", rid=str(i))
            trips.append((time.perf_counter() - started) * 1000)
        bridge.close(timeout=60)
    print(f"ping round trip: median {statistics.median(trips):.3f} ms, "
          f"p95 {sorted(trips)[int(PINGS * 0.95)]:.3f} ms over {PINGS} pings")
    if (BUNDLE / "relay").is_file():
        size = sum(p.stat().st_size for p in BUNDLE.rglob("*")
                   if p.is_file() and not p.is_symlink())  # links: numpy's OpenBLAS, once
        info = REPO / "dist" / "bundle.json"
        built = json.loads(info.read_text()) if info.is_file() else {}
        print(f"bundle: {size / 1e6:.0f} MB unpacked ({BUNDLE}; aim: at most 150 MB); last "
              f"./dev bundle took {built.get('seconds', '?')} s, {built.get('cpu_seconds', '?')} s "
              "of CPU")
        packages: dict[str, int] = built.get("packages", {})
        for name, bytes_ in list(packages.items())[:15]:
            print(f"  {bytes_ / 1e6:6.1f} MB  {name}")
    else:
        print("bundle: not built (./dev bundle makes dist/relay)")


if __name__ == "__main__":
    main()
