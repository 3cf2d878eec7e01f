"""`relay history / audit / cost / export / import / forget / profile` against real files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bridge.cli import data_cmd, encryption_cmd, history_cmd, profile_cmd
from bridge.cli.output import dispatch
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
    Status,
)
from bridge.store import Store

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "profiles" / "sample.json"


def relay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run one `relay` command through the modules' own parsers."""
    parser = argparse.ArgumentParser(prog="relay")
    subparsers = parser.add_subparsers(dest="command")
    for module in (history_cmd, data_cmd, encryption_cmd, profile_cmd):
        module.register(subparsers)
    args = parser.parse_args(list(argv))
    code = dispatch(args)
    out, err = capsys.readouterr()
    return code, out, err


def fill(store: Store, n: int) -> str:
    profile = store.profile()
    assert profile is not None
    plan = FillPlan(run_id=store.new_run_id(), decisions=[
        FieldDecision(field_id="f1", key="basics.email", action=Action.SET_TEXT,
                      value=profile.profile.basics.email or "", source=Source.PROFILE,
                      confidence=0.95, status=Status.FILL, reason="label"),
        FieldDecision(field_id="f2", key="question.why", action=Action.SET_TEXT,
                      value="Drafted answer ünïcode", source=Source.LLM, confidence=0.3333333,
                      status=Status.FLAG),
    ], timings_ms={"rules": 0.125})
    request = FillRequest(url=f"https://jobs.example/{n}", title=f"Job {n}", job_text="About us",
                          frames=[FrameSnapshot(fields=[FormField(id="f1"), FormField(id="f2")])])
    store.record_plan(f"plan-{n}", request, plan, profile, ats="lever")
    store.record_model_call(call_id=f"call-{n}", run_id=plan.run_id, model="small-model",
                            tier="cheap", tokens_in=120, tokens_out=40, cost_cents="0.0421")
    store.record_applied(f"applied-{n}", ApplyReport(run_id=plan.run_id, results=[
        ApplyResult(field_id="f1", status=ApplyStatus.APPLIED)]))
    store.ack(plan.run_id, 1)
    return plan.run_id


@pytest.fixture
def filled(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> list[str]:
    code, out, _ = relay(capsys, "profile", "import", str(SAMPLE), "--name", "ada")
    assert code == 0 and "Imported profile 'ada'" in out
    with Store.open() as store:
        return [fill(store, 1), fill(store, 2)]


def test_history_audit_and_cost_print_json_and_text(
        capsys: pytest.CaptureFixture[str], filled: list[str]) -> None:
    code, out, _ = relay(capsys, "history", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["version"] == 1
    assert [r["run_id"] for r in doc["runs"]] == filled
    assert doc["runs"][0]["decisions"][0]["outcome"] == "applied"
    assert doc["runs"][0]["cost_cents"] == "0.0421"

    code, out, _ = relay(capsys, "history")
    assert code == 0 and filled[0] in out and "2 fields: 1 filled, 1 flagged" in out

    code, out, _ = relay(capsys, "history", "--run", filled[1])
    assert code == 0 and "question.why" in out and filled[0] not in out

    code, out, _ = relay(capsys, "audit", "--run", filled[0], "--json")
    entries = json.loads(out)["entries"]
    assert [e["action"] for e in entries] == ["fill.plan", "model.call", "fill.applied"]
    assert "Drafted answer" not in out

    code, out, _ = relay(capsys, "audit")
    assert code == 0 and out.count("fill.plan") == 2

    code, out, _ = relay(capsys, "cost", "--json")
    cost = json.loads(out)
    assert cost["total"]["cost_cents"] == "0.0842" and cost["total"]["calls"] == 2
    assert len(cost["by_run"]) == 2 and len(cost["by_day"]) == 1 and len(cost["by_month"]) == 1
    code, out, _ = relay(capsys, "cost")
    assert "Total: 0.0842 cents over 2 model calls" in out

    code, _, err = relay(capsys, "history", "--run", "run-missing")
    assert code == 1 and "no run 'run-missing'" in err


def test_export_then_import_into_an_empty_home_reproduces_history_and_audit(
        capsys: pytest.CaptureFixture[str], filled: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = {}
    for argv in (("history", "--json"), ("history",), ("audit", "--json"), ("audit",),
                 ("cost", "--json"), ("profile", "list", "--json"), ("profile", "show")):
        outputs[argv] = relay(capsys, *argv)[1]
    export = tmp_path / "out" / "relay-export.json"
    code, out, _ = relay(capsys, "export", str(export))
    assert code == 0 and "2 runs" in out and "audit entries" in out
    code, _, err = relay(capsys, "export", str(export))
    assert code == 1 and "exists" in err

    fresh = tmp_path / "fresh-home"
    monkeypatch.setenv("RELAY_HOME", str(fresh))
    code, out, _ = relay(capsys, "import", str(export))
    assert code == 0 and "Imported" in out and "2 runs" in out
    for argv, expected in outputs.items():
        assert relay(capsys, *argv)[1] == expected, argv
    # A second export of the imported store holds the same rows.
    again = tmp_path / "again.json"
    relay(capsys, "export", str(again))
    first_doc, second_doc = json.loads(export.read_text()), json.loads(again.read_text())
    assert first_doc["tables"] == second_doc["tables"]

    # Import refuses a store that holds data, and leaves it as it was.
    code, _, err = relay(capsys, "import", str(export))
    assert code == 1 and "already holds data" in err
    assert relay(capsys, "history", "--json")[1] == outputs[("history", "--json")]

    # And refuses what is not an export.
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}')
    monkeypatch.setenv("RELAY_HOME", str(tmp_path / "third"))
    code, _, err = relay(capsys, "import", str(junk))
    assert code == 1 and "not a Relay export" in err


def test_forget_really_deletes_and_says_what(
        capsys: pytest.CaptureFixture[str], filled: list[str], relay_home: Path) -> None:
    code, out, _ = relay(capsys, "forget", "--run", filled[0])
    assert code == 0
    assert f"Forgot run {filled[0]}: deleted 1 run, 2 field decisions, 2 deliveries," in out
    assert "3 audit entries, 1 cost ledger row" in out
    history = json.loads(relay(capsys, "history", "--json")[1])
    assert [r["run_id"] for r in history["runs"]] == [filled[1]]
    audit = json.loads(relay(capsys, "audit", "--json")[1])["entries"]
    assert all(e["run_id"] != filled[0] for e in audit)
    assert audit[-1]["action"] == "forget" and audit[-1]["payload"]["deleted"]["runs"] == 1
    with Store.open() as store:
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = b"".join(p.read_bytes() for p in relay_home.glob("relay.db*"))
    assert filled[0].encode() not in data  # really gone from the file, not just unlinked

    code, _, err = relay(capsys, "forget", "--run", filled[0])
    assert code == 1 and "no run" in err

    code, out, _ = relay(capsys, "forget", "--all")
    assert code == 0 and "deleted 1 run," in out and "Profiles and settings were kept" in out
    assert json.loads(relay(capsys, "history", "--json")[1])["runs"] == []
    assert json.loads(relay(capsys, "cost", "--json")[1])["total"]["calls"] == 0
    assert "ada" in relay(capsys, "profile", "list")[1]


def test_profile_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = relay(capsys, "profile", "list")
    assert code == 0 and "No profiles stored" in out
    code, _, err = relay(capsys, "profile", "show")
    assert code == 1 and "no profile stored" in err
    relay(capsys, "profile", "import", str(SAMPLE))
    relay(capsys, "profile", "import", str(SAMPLE), "--name", "second")
    code, out, _ = relay(capsys, "profile", "list")
    rows = [line.split() for line in out.splitlines()[2:]]
    assert rows[0][:2] == ["*", "sample"] and rows[1][0] == "second"
    code, out, _ = relay(capsys, "profile", "use", "second")
    assert code == 0 and "Active profile: second" in out
    code, out, _ = relay(capsys, "profile", "show")
    assert json.loads(out)["basics"]["name"] == "Ada Quinn Lovelace"
    code, out, _ = relay(capsys, "profile", "show", "sample", "--original")
    assert out == SAMPLE.read_text(encoding="utf-8")
    code, _, err = relay(capsys, "profile", "use", "nobody")
    assert code == 1 and "no stored profile named 'nobody'" in err
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    code, _, err = relay(capsys, "profile", "import", str(bad))
    assert code == 1 and "must be a JSON object" in err


def test_encryption_status_without_a_keyring(capsys: pytest.CaptureFixture[str]) -> None:
    import keyring
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        code, out, _ = relay(capsys, "encryption", "status")
        assert code == 0 and "Encryption: off" in out and "NOT usable" in out
        code, _, err = relay(capsys, "encryption", "on", "--random-key")
        assert code == 1 and "no secure keyring" in err
    finally:
        keyring.set_keyring(previous)


@pytest.mark.parametrize("argv", [["audit"], ["history", "--json"], ["history"]])
def test_a_reader_that_stops_early_gets_no_traceback(
    filled: list[str], argv: list[str]
) -> None:
    """`relay audit | head -1`: the pipe closes after one line; that is not an error."""
    import subprocess
    import sys

    relay_exe = Path(sys.executable).parent / "relay"
    proc = subprocess.Popen(
        [str(relay_exe), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does after its line
    code = proc.wait(timeout=60)
    err = proc.stderr.read().decode()
    assert first and code == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err
