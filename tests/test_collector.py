"""The garbage collector while a bridge starts (bridge/collector.py): a cold bridge's first plan
runs without a collection, and once it is answered the bridge freezes what its start loaded and
collects with Python's thresholds again. Checked in a fresh interpreter, started as the native
host starts; what it saves is measured in bench/stream_speed.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, SAMPLE_PROFILE

COLD_BRIDGE = """
import gc, json, sys, time
from pathlib import Path
usual = gc.get_threshold()
from bridge import collector
collector.hold_off()  # as bridge.host.main does first
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
from bridge.forms import FillRequest
from bridge.runtime import Runtime
runtime = Runtime(profile_path=Path(sys.argv[1]))
runtime.warm_up()  # as `hello` does
plan = runtime.plan_fill(FillRequest.model_validate_json(sys.argv[2]), "cold")
during_plan = len(collections)
deadline = time.monotonic() + 60
while gc.get_threshold() != usual and time.monotonic() < deadline:
    time.sleep(0.05)
print(json.dumps({"filled": [d["field_id"] for d in plan["decisions"] if d.get("value")],
                  "during_plan": during_plan, "usual_again": gc.get_threshold() == usual,
                  "frozen": gc.get_freeze_count()}))
"""

REQUEST = {"url": "https://jobs.example.com/apply", "title": "Apply", "frames": [{"fields": [
    {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"},
    {"id": "f2", "widget": "email", "type": "email", "name": "email", "label": "Email"}]}]}


def test_a_cold_bridge_collects_no_garbage_before_its_first_plan_then_freezes_its_start(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RELAY_", "PYTHON_KEYRING"))}
    env["RELAY_HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", COLD_BRIDGE, str(SAMPLE_PROFILE), json.dumps(REQUEST)],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=300, check=True,
    )
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["filled"] == ["f1", "f2"]
    # Python's thresholds ran ~100 collections on the way to the first plan.
    assert out["during_plan"] == 0
    assert out["usual_again"], "the collector was never given back its thresholds"
    assert out["frozen"] > 10_000  # what the start loaded is left alone from then on
