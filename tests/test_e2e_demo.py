"""The README's demo command, end to end: `relay demo` fills the sample form and submits nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, SAMPLE_PROFILE
from tests.fixture_scoring import score_form

RELAY = Path(sys.executable).parent / "relay"


def test_relay_demo_fills_the_sample_form(tmp_path: Path, chromium: str) -> None:
    report_path, shot = tmp_path / "report.json", tmp_path / "demo.png"
    proc = subprocess.run(
        [str(RELAY), "demo", "--report", str(report_path), "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Email" in proc.stdout and "ada.lovelace@example.com" in proc.stdout
    assert shot.is_file() and shot.stat().st_size > 10_000
    report = json.loads(report_path.read_text())
    assert report["ok"] and report["page_submits"] == 0 and report["navigations"] == 0
    assert report["blocked"] == []  # the demo page never tries to submit: the guard had no work
    assert report["llm"]["calls"] == 0 and report["llm"]["status"].startswith("rules-only")
    by_label = {f["label"]: f for f in report["fields"]}
    for label, value in [
        ("First name", "Ada"),
        ("Last name", "Lovelace"),
        ("Email", "ada.lovelace@example.com"),
        ("LinkedIn profile", "https://www.linkedin.com/in/adaqlovelace"),
        ("GitHub", "https://github.com/adaq"),
    ]:
        field = by_label[label]
        assert field["value"] == value and field["status"] == "fill", field
        assert field["applied"] == "applied", field
        assert field["source"] == "profile" and field["reason"]
    phone = by_label["Phone"]
    assert "".join(c for c in phone["value"] if c.isdigit()).endswith("4155550142")
    assert phone["applied"] == "applied"
    for row in report["fields"]:
        for key in ("frame", "locator", "label", "key", "value", "source", "confidence", "status",
                    "reason"):
            assert key in row
    check_store_after_fill(report, tmp_path)


def relay_out(*argv: str, home: Path) -> str:
    env = {**os.environ, "RELAY_HOME": str(home)}
    proc = subprocess.run([str(RELAY), *argv], capture_output=True, text=True, timeout=60,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def check_store_after_fill(report: dict[str, object], tmp_path: Path) -> None:
    """The fill is a stored run with its decisions and audit trail, and export/import into an
    empty RELAY_HOME reproduces history and audit exactly."""
    home = Path(os.environ["RELAY_HOME"])
    history = json.loads(relay_out("history", "--json", home=home))
    (run,) = [r for r in history["runs"] if r["run_id"] == report["run_id"]]
    assert run["status"] == "applied"
    assert len(run["decisions"]) == len(report["fields"])  # type: ignore[arg-type]
    audit = relay_out("audit", "--json", home=home)
    actions = [e["action"] for e in json.loads(audit)["entries"]]
    assert "fill.plan" in actions and "fill.applied" in actions
    assert "ada.lovelace@example.com" not in audit  # the audit says which field, not what
    export = tmp_path / "export.json"
    relay_out("export", str(export), home=home)
    fresh = tmp_path / "fresh-home"
    relay_out("import", str(export), home=fresh)
    for command in (("history", "--json"), ("audit", "--json"), ("history",), ("audit",)):
        assert relay_out(*command, home=fresh) == relay_out(*command, home=home)


def test_demo_form_scores_cleanly_against_its_expectations(tmp_path: Path, chromium: str) -> None:
    from bridge.driver.session import relay_browser
    from bridge.driver.static_server import StaticServer
    from tests.fixture_scoring import read_all_frames

    spec = json.loads((REPO / "demo" / "expected.json").read_text())
    with (
        StaticServer(REPO / "demo") as server,
        relay_browser(REPO / "demo" / "profile" / "sample.json", home=tmp_path) as browser,
    ):
        page = browser.open(server.url(spec["entry"]))
        outcome = browser.fill(page)
        score = score_form("demo", spec, read_all_frames(page))
        assert outcome.report.page_submits == 0
    bad = [(f.key, f.expect, f.got) for f in score.fields if f.verdict in ("wrong", "violation")]
    assert bad == []
    left = [f.key for f in score.fields if f.verdict == "left"]
    assert len(left) <= 1, left

def test_an_unreachable_page_is_one_plain_line(tmp_path: Path, chromium: str) -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on once the socket is closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.run(
        [str(RELAY), "fill", f"http://127.0.0.1:{port}/", "--profile", str(SAMPLE_PROFILE)],
        capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"relay fill: E_NOT_FOUND: could not open http://127.0.0.1:{port}/: "
        "net::ERR_CONNECTION_REFUSED"
    ]
