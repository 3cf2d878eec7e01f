"""A page whose labels, options and text hold lone surrogates, and emoji exactly where Relay cuts
a label (300) and the page text (20,000), fills as any other page does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, SAMPLE_PROFILE

RELAY = Path(sys.executable).parent / "relay"
PAGE = FIXTURES / "pages" / "surrogates.html"


def test_lone_surrogates_and_cut_emoji_fill_normally(tmp_path: Path, chromium: str) -> None:
    report_path = tmp_path / "report.json"
    proc = subprocess.run(
        [str(RELAY), "fill", str(PAGE), "--profile", str(SAMPLE_PROFILE), "--report",
         str(report_path)],
        capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(report_path.read_text())
    assert report["ok"], report.get("error")
    assert report["page_submits"] == 0
    values = {f["locator"].split("#")[-1]: f for f in report["fields"]}
    assert values["first"]["value"] == "Ada" and values["first"]["applied"] == "applied"
    assert values["last"]["value"] == "Lovelace"
    assert values["email"]["value"] == "ada.lovelace@example.com"
    assert values["email"]["label"].endswith("…")  # cut before the emoji, not inside it
    assert values["country"]["applied"] == "applied"
