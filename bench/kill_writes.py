"""SIGKILL the store's writers again and again and print what survived.

The harness of tests/test_store_crash.py (two forked writers recording runs, each run id printed
only once its transaction committed, killed at random moments, sometimes while they open and
migrate the file) runs KILLS times (default 100; CI's test does 120), then the file is checked:
its integrity, acknowledged runs missing from it, runs not whole, and whether the store still
opens and answers. Prints figures; asserts nothing.
Run: .venv/bin/python bench/kill_writes.py [KILLS]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_store_crash import check_store

REPO = Path(__file__).resolve().parents[1]
HARNESS = REPO / "tests" / "test_store_crash.py"


def main() -> None:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with tempfile.TemporaryDirectory(prefix="relay-kill-") as scratch:
        home = Path(scratch) / "home"
        home.mkdir()
        started = time.monotonic()
        done = subprocess.run([sys.executable, str(HARNESS), str(home), str(kills)],
                              capture_output=True, text=True, cwd=REPO, check=True,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
        report = json.loads(done.stdout)
        seconds = time.monotonic() - started
        acknowledged = set(report["acknowledged"])
        found = check_store(home, acknowledged)
    print(f"kills: {report['kills']} ({report['early']} while opening or migrating) "
          f"in {seconds:.1f} s")
    print(f"acknowledged runs: {len(acknowledged)}  stored: {found['stored']}  "
          f"lost: {len(found['lost'])}  not whole: {found['partial']}")
    print(f"integrity_check: {found['integrity']}  foreign-key problems: {found['foreign_keys']}  "
          f"history after reopening: {found['history']} runs")


if __name__ == "__main__":
    main()
