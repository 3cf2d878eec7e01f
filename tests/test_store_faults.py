"""Faults under the store: a full disk, a read-only data folder, a database another process locks.

The real `relay-bridge` runs on a real filesystem that fails: a small tmpfs (ENOSPC) or a
read-only bind mount (EROFS), each in a mount namespace of its own (`unshare -m`), so nothing on
this machine's own mounts changes. Each fault gets a clear E_STORE_FAILED, the bridge keeps
answering, and what was stored before is intact afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import apsw
import pytest

from bridge.store import Store
from tests.bridge_process import BridgeProcess, bridge_command
from tests.conftest import SAMPLE_PROFILE


def _can_mount() -> bool:
    if os.name != "posix" or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True,
    )
    return probe.returncode == 0


needs_mounts = pytest.mark.skipif(
    not _can_mount(), reason="needs unshare -m and mount (root or user namespaces)"
)

FIELDS = [
    {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"},
    {"id": "f2", "widget": "email", "type": "email", "name": "email", "label": "Email"},
]


def _plan(n: int, job_text: str = "") -> dict[str, object]:
    return {"url": f"http://127.0.0.1/job/{n}", "job_text": job_text,
            "frames": [{"fields": FIELDS}]}


def _in_namespace(script: str, home: Path, **env: str) -> BridgeProcess:
    """The bridge behind `script` (which sets up the mounts, then runs "$BRIDGE")."""
    bridge = " ".join(f'"{part}"' for part in bridge_command())
    return BridgeProcess.command(
        ["unshare", "-m", "sh", "-c", script.replace("$BRIDGE", bridge)],
        env={"RELAY_HOME": str(home), "RELAY_PROFILE": str(SAMPLE_PROFILE), **env},
    )


@needs_mounts
def test_a_full_disk_is_a_clear_error_and_loses_nothing_stored(tmp_path: Path) -> None:
    home, kept = tmp_path / "home", tmp_path / "kept"
    home.mkdir()
    kept.mkdir()
    # The data folder is a 2 MB tmpfs; when the bridge exits its files are copied out to `kept`.
    script = (
        f'mount -t tmpfs -o size=2m tmpfs "{home}" && $BRIDGE; status=$?; '
        f'cp -a "{home}"/. "{kept}"/; exit $status'
    )
    bridge = _in_namespace(script, home)
    first = bridge.request("fill.plan", _plan(0), rid="p0")
    assert first["ok"], first
    run_id = first["result"]["run_id"]
    report = {"run_id": run_id, "results": [], "up_to_seq": 2}
    assert bridge.request("fill.applied", report, rid="a0")["ok"]
    # Each plan stores its job text: the disk fills up.
    failure = None
    for n in range(1, 60):
        reply = bridge.request("fill.plan", _plan(n, f"job {n} " + os.urandom(90_000).hex()),
                               rid=f"p{n}")
        if not reply["ok"]:
            failure = reply["error"]
            break
    assert failure is not None, "the 2 MB disk never filled"
    assert failure["code"] == "E_STORE_FAILED"
    assert "full" in failure["message"]
    assert bridge.request("ping", rid="alive")["result"]["pong"] is True
    # The first plan, asked again under its id, is answered from the store, as before.
    again = bridge.request("fill.plan", _plan(0), rid="p0")
    assert again["ok"] and again["result"]["run_id"] == run_id
    assert bridge.close()[0] == 0
    with Store.open(kept) as store:
        assert store.conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        runs = {run["run_id"]: run for run in store.history()}
        assert runs[run_id]["status"] == "applied"
        assert store.pending(run_id) == []  # acknowledged before the disk filled: still so


@needs_mounts
def test_a_read_only_data_folder_is_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    before = BridgeProcess(env={"RELAY_HOME": str(home), "RELAY_PROFILE": str(SAMPLE_PROFILE)})
    run_id = before.request("fill.plan", _plan(0))["result"]["run_id"]
    assert before.close()[0] == 0
    script = f'mount --bind "{home}" "{home}" && mount -o remount,bind,ro "{home}" && $BRIDGE'
    bridge = _in_namespace(script, home)
    assert bridge.request("hello", {"protocol": "1.0"}, rid="h")["ok"]
    reply = bridge.request("fill.plan", _plan(1), rid="p1")
    assert reply["error"]["code"] == "E_STORE_FAILED", reply
    assert "cannot write to its data folder" in reply["error"]["message"]
    assert bridge.request("ping", rid="alive")["result"]["pong"] is True
    assert bridge.close()[0] == 0
    with Store.open(home) as store:
        assert [run["run_id"] for run in store.history()] == [run_id]


def test_a_locked_database_is_waited_for_then_written_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    bridge = BridgeProcess(env={"RELAY_HOME": str(home), "RELAY_PROFILE": str(SAMPLE_PROFILE)})
    assert bridge.request("fill.plan", _plan(0), rid="p0")["ok"]
    other = apsw.Connection(str(home / "relay.db"))
    other.execute("BEGIN EXCLUSIVE")  # another Relay process in the middle of a write
    released = threading.Timer(1.5, lambda: other.execute("COMMIT"))
    started = time.monotonic()
    released.start()
    try:
        reply = bridge.request("fill.plan", _plan(1), rid="p1")
    finally:
        released.join()
        other.close()
    assert reply["ok"], reply
    assert time.monotonic() - started >= 1.4  # it waited for the lock rather than failing
    assert bridge.close()[0] == 0
    with Store.open(home) as store:
        assert len(store.history()) == 2

