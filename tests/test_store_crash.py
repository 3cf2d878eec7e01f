"""Crash safety: writers killed with SIGKILL at random moments lose nothing they reported.

A harness process (this file run as a script) imports Relay once, then over and over forks two
writer processes that open the store and record runs in a loop, each printing a run id only after
its transaction committed, and kills them with SIGKILL at a random moment: sometimes while they
open and migrate the file, mostly in the middle of writes. Forking keeps each round to a few
milliseconds, so the test does well over 100 kills quickly even on a busy machine. The test then
checks the file and that every reported run is there, whole.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
KILLS = 120
# The writers must really write between kills. On a busy machine the random pauses can all be
# too short for a commit, so the harness goes on (within a bound) until this many are reported.
ACKNOWLEDGED_WANTED = 60
FIELDS_PER_RUN = 6


def _write_forever(home: Path, out_fd: int) -> None:
    """The writer: record runs until killed; report each run id once it is committed."""
    from bridge.forms import (
        Action,
        ApplyReport,
        ApplyResult,
        ApplyStatus,
        FieldDecision,
        FillPlan,
        FillRequest,
        FormField,
        FrameSnapshot,
        Source,
    )
    from bridge.profile import parse_profile
    from bridge.store import Store

    store = Store.open(home)
    profile = parse_profile({"basics": {"name": "Crash Test", "email": "crash@example.com"}}, home)
    os.write(out_fd, b"ready\n")
    n = 0
    while True:
        n += 1
        run_id = store.new_run_id()
        fields = [FormField(id=f"f{i}", label=f"Field {i}") for i in range(FIELDS_PER_RUN)]
        request = FillRequest(url=f"https://jobs.example/{n}", title="Job", job_text="text " * 50,
                              frames=[FrameSnapshot(fields=fields)])
        plan = FillPlan(run_id=run_id, decisions=[
            FieldDecision(field_id=f.id, key="basics.name", action=Action.SET_TEXT,
                          value="Crash Test", source=Source.PROFILE, confidence=0.9)
            for f in fields
        ])
        store.record_plan(f"req-{run_id}", request, plan, profile)
        os.write(out_fd, f"{run_id}\n".encode())  # acknowledged: committed
        if n % 2 == 0:
            store.record_applied(f"app-{run_id}", ApplyReport(run_id=run_id, results=[
                ApplyResult(field_id=f.id, status=ApplyStatus.APPLIED) for f in fields]))
            store.ack(run_id, FIELDS_PER_RUN)
            store.record_model_call(call_id=f"call-{run_id}", run_id=run_id, model="m",
                                    tier="small", tokens_in=10, tokens_out=5, cost_cents="0.0101")


def _fork_writer(home: Path) -> tuple[int, int]:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer child
        os.close(read_fd)
        try:
            _write_forever(home, write_fd)
        finally:
            os._exit(1)
    os.close(write_fd)
    return pid, read_fd


def _read_line(fd: int) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 1)
        if not chunk:
            break
        data += chunk
    return data


def _drain(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def harness(home: Path, kills_wanted: int) -> dict[str, Any]:
    import importlib

    for module in ("bridge.forms", "bridge.store"):  # imported once here, inherited by each fork
        importlib.import_module(module)

    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    acknowledged: list[str] = []
    kills = early = 0
    # Kills go on past kills_wanted until enough writes were acknowledged (at most 10 times over).
    while kills < kills_wanted or (
        len(acknowledged) < ACKNOWLEDGED_WANTED and kills < 10 * kills_wanted
    ):
        writers = [_fork_writer(home), _fork_writer(home)]
        leftovers = {}
        for pid, fd in writers:
            if rng.random() < 0.15:
                early += 1  # killed while opening, setting pragmas or migrating
                time.sleep(rng.uniform(0.0, 0.005))
            else:
                line = _read_line(fd)
                if line != b"ready\n":
                    leftovers[pid] = line
        time.sleep(rng.uniform(0.0, 0.04))
        for pid, fd in writers:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            kills += 1
            text = (leftovers.get(pid, b"") + _drain(fd)).decode("utf-8", "replace")
            # Only whole lines count: a line cut by the kill was never acknowledged.
            acknowledged.extend(x for x in text.split("\n")[:-1] if x.startswith("run-"))
    return {"kills": kills, "early": early, "acknowledged": acknowledged}


def check_store(home: Path, acknowledged: set[str]) -> dict[str, Any]:
    """What the killed writers left: the file's integrity, acknowledged runs missing from it,
    runs not whole (their decisions, deliveries and stored answer), and whether the store still
    opens and answers."""
    import apsw

    from bridge.store import Store

    conn = apsw.Connection(str(home / "relay.db"))
    integrity = conn.execute("PRAGMA integrity_check").fetchall()
    foreign_keys = conn.execute("PRAGMA foreign_key_check").fetchall()
    stored = {row[0] for row in conn.execute("SELECT id FROM runs").fetchall()}
    partial = conn.execute(
        "SELECT r.id FROM runs r WHERE (SELECT count(*) FROM decisions d WHERE d.run_id = r.id)"
        " != ? OR (SELECT count(*) FROM deliveries d WHERE d.run_id = r.id) != ?"
        " OR NOT EXISTS (SELECT 1 FROM requests q WHERE q.run_id = r.id AND q.kind = 'fill.plan')",
        (FIELDS_PER_RUN, FIELDS_PER_RUN),
    ).fetchall()
    conn.close()
    with Store.open(home) as store:
        history = len(store.history())
    return {
        "integrity": "ok" if integrity == [("ok",)] else str(integrity[:3]),
        "foreign_keys": len(foreign_keys),
        "stored": len(stored),
        "lost": sorted(acknowledged - stored),
        "partial": len(partial),
        "history": history,
    }


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the harness forks its writers")
def test_sigkill_during_writes_loses_nothing_acknowledged(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), str(home), str(KILLS)],
        capture_output=True, text=True, timeout=240, cwd=str(REPO),
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    acknowledged = set(report["acknowledged"])
    assert report["kills"] >= 100
    assert len(acknowledged) >= ACKNOWLEDGED_WANTED  # the writers really wrote between kills
    assert len(acknowledged) == len(report["acknowledged"])

    found = check_store(home, acknowledged)
    assert found["integrity"] == "ok" and found["foreign_keys"] == 0
    assert not found["lost"], f"{len(found['lost'])} acknowledged runs lost: {found['lost'][:3]}"
    assert found["partial"] == 0  # each run is whole: decisions, deliveries, stored answer
    assert found["history"] == found["stored"]  # and the store still opens and answers


if __name__ == "__main__":
    print(json.dumps(harness(Path(sys.argv[1]), int(sys.argv[2]))))
