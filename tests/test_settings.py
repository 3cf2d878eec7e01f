"""The settings file a browser-started bridge reads (`relay config`), the environment winning over
it, and the private data folder. Real files, the real CLI and the real host."""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bridge.cli.main import host_arguments, main
from bridge.config_file import profile_override
from bridge.llm.config import Tier, load_config
from tests.bridge_process import BridgeProcess
from tests.conftest import SAMPLE_PROFILE

RELAY = Path(sys.executable).parent / "relay"


def relay(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The `relay` command line, run in this process (quicker than a new Python each time)."""
    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_config_set_get_unset_round_trip(relay_home: Path) -> None:
    done = relay("config", "set", "models.fast", "openai/gpt-test")
    assert done.returncode == 0, done.stderr
    assert relay("config", "set", "limits.cap_per_day_usd", "1.25").returncode == 0
    assert relay("config", "set", "profile", str(SAMPLE_PROFILE)).returncode == 0
    assert relay("config", "get", "models.fast").stdout.strip() == "openai/gpt-test"
    text = (relay_home / "config.toml").read_text()
    assert "cap_per_day_usd = 1.25" in text and 'fast = "openai/gpt-test"' in text
    assert mode(relay_home / "config.toml") == 0o600

    listed = json.loads(relay("config", "list", "--json").stdout)
    rows = {r["key"]: r for r in listed["settings"]}
    assert rows["models.fast"]["source"] == "config file"
    assert rows["limits.cap_per_day_usd"]["value"] == 1.25
    assert rows["models.general"]["source"] == "default"

    assert relay("config", "unset", "limits.cap_per_day_usd").returncode == 0
    assert "cap_per_day_usd" not in (relay_home / "config.toml").read_text()
    assert "[limits]" not in (relay_home / "config.toml").read_text()


def test_config_refuses_bad_values_and_keys(relay_home: Path) -> None:
    cases = [
        (("limits.cap_per_day_usd", "-1"), "greater than or equal to 0"),
        (("api_base", "ftp://example"), "http"),
        (("api_key", "sk-live-123"), "keyring"),
        (("models.fast.x", "y"), "unknown setting"),
        (("profile", "/nonexistent/profile.json"), "not found"),
    ]
    for argv, expected in cases:
        done = relay("config", "set", *argv)
        assert done.returncode == 1, argv
        assert expected in done.stderr, (argv, done.stderr)
    assert not (relay_home / "config.toml").exists(), "nothing written for a refused value"


def test_config_keeps_a_hand_written_comment(relay_home: Path) -> None:
    (relay_home / "config.toml").write_text('# my models\n[models]\nfast = "a/b"  # cheap one\n')
    assert relay("config", "set", "models.general", "c/d").returncode == 0
    text = (relay_home / "config.toml").read_text()
    assert "# my models" in text and "# cheap one" in text and 'general = "c/d"' in text


def test_the_environment_wins_over_the_file(relay_home: Path, tmp_path: Path) -> None:
    (relay_home / "config.toml").write_text(
        f'profile = "{SAMPLE_PROFILE}"\napi_base = "http://127.0.0.1:9/v1"\n'
        'key_provider = "myvault"\n[models]\nfast = "file/model"\nheavy = ""\n'
        '[limits]\ntimeout_s = 7\n')
    config = load_config(env={}, use_keyring=False)
    assert config.model_for(Tier.FAST) == "file/model" and config.model_for(Tier.HEAVY) == ""
    assert config.api_base == "http://127.0.0.1:9/v1" and config.timeout_s == 7
    assert config.key_provider == "myvault" and config.enabled
    assert profile_override({}) == SAMPLE_PROFILE

    other = tmp_path / "other.json"
    env = {"RELAY_MODEL_FAST": "env/model", "RELAY_LLM_API_BASE": "http://127.0.0.1:8/v1",
           "RELAY_PROFILE": str(other)}
    config = load_config(env=env, use_keyring=False)
    assert config.model_for(Tier.FAST) == "env/model"
    assert config.api_base == "http://127.0.0.1:8/v1"
    assert profile_override(env) == other


def test_a_broken_settings_file_falls_back_to_defaults(relay_home: Path) -> None:
    (relay_home / "config.toml").write_text("[models]\nfast = 3\n")
    config = load_config(env={}, use_keyring=False)
    assert config.model_for(Tier.FAST) == "openrouter/deepseek/deepseek-v4-flash"
    done = relay("config", "list")
    assert done.returncode == 1 and "models.fast" in done.stderr


def test_the_host_fills_from_the_configured_profile_without_env(relay_home: Path) -> None:
    """What a browser-started bridge does: no RELAY_PROFILE, only the settings file."""
    (relay_home / "config.toml").write_text(f'profile = "{SAMPLE_PROFILE}"\n')
    bridge = BridgeProcess("chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/")
    reply = bridge.request("hello", {"protocol": "1.0"})
    bridge.close()
    assert reply["ok"] and reply["result"]["profile"] == {"source": "file", "error": ""}


# --- the data folder is private ---------------------------------------------------------------

@pytest.mark.skipif(os.name == "nt", reason="POSIX modes")
def test_data_folder_is_created_private_and_loose_ones_are_tightened(tmp_path: Path) -> None:
    home = tmp_path / "fresh"
    env = {"RELAY_HOME": str(home), "RELAY_PROFILE": str(SAMPLE_PROFILE)}
    bridge = BridgeProcess(env=env)
    assert bridge.request("hello", {"protocol": "1.0"})["ok"]
    bridge.close()
    assert relay("profile", "import", str(SAMPLE_PROFILE), env=env).returncode == 0
    assert mode(home) == 0o700 and mode(home / "logs") == 0o700
    assert mode(home / "relay.db") == 0o600 and mode(home / "logs" / "bridge.log") == 0o600
    for extra in home.glob("relay.db-*"):
        assert mode(extra) == 0o600, extra

    # An older Relay left everything world-readable: the next start tightens it.
    for path, loose in ((home, 0o755), (home / "logs", 0o755), (home / "relay.db", 0o644),
                        (home / "logs" / "bridge.log", 0o644)):
        path.chmod(loose)
    bridge = BridgeProcess(env=env)
    assert bridge.request("hello", {"protocol": "1.0"})["ok"]
    bridge.close()
    assert relay("history", env=env).returncode == 0
    assert mode(home) == 0o700 and mode(home / "logs") == 0o700
    assert mode(home / "relay.db") == 0o600 and mode(home / "logs" / "bridge.log") == 0o600


# --- one program for both jobs ------------------------------------------------------------------

def test_browser_arguments_make_relay_the_host() -> None:
    assert host_arguments(["chrome-extension://abc/", "--parent-window=0"]) == [
        "chrome-extension://abc/", "--parent-window=0"]
    assert host_arguments(["/home/a/.mozilla/native-messaging-hosts/x.json", "relay@relay.dev"])
    assert host_arguments(["bridge"]) == []
    assert host_arguments(["import", "/tmp/export.json"]) is None
    assert host_arguments(["history"]) is None
    assert host_arguments([]) is None


def test_relay_started_as_a_browser_starts_it_answers_hello(relay_home: Path) -> None:
    del relay_home
    bridge = BridgeProcess.command(
        [str(RELAY), "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"])
    reply = bridge.request("hello", {"protocol": "1.0"})
    code, _out, _err = bridge.close()
    assert reply["ok"] and code == 0
    refused = BridgeProcess.command([str(RELAY), "chrome-extension://someoneelse/"])
    reply = refused.request("hello", {"protocol": "1.0"})
    refused.close()
    assert reply["error"]["code"] == "E_ORIGIN_REFUSED"
    assert main(["config", "path"]) == 0
