"""Model configuration: defaults, file, environment, keyring; `relay key`; resume text; lazy
litellm."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import keyring
import pytest

from bridge.cli import key_cmd
from bridge.llm.config import DEFAULT_MODELS, KEYRING_SERVICE, Tier, load_config
from bridge.llm.pricing import price_for
from bridge.llm.resume import resume_text
from tests.keyring_standin import MemoryKeyring
from tests.llm_server import sample_profile


def test_defaults_file_then_environment(tmp_path: Path) -> None:
    cfg = load_config(env={}, path=tmp_path / "none.toml", use_keyring=False)
    assert cfg.models == DEFAULT_MODELS and not cfg.enabled
    assert cfg.disabled_reason().startswith("rules-only: no model configured")
    file = tmp_path / "config.toml"
    file.write_text(
        '[models]\nfast = "openai/gpt-4o-mini"\ngeneral = "openai/gpt-4o"\n'
        "[limits]\ncap_per_fill_usd = 0.01\n"
        '[prices."openai/gpt-4o"]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\n'
    )
    cfg = load_config(
        env={"RELAY_MODEL_GENERAL": "openai/other", "RELAY_LLM_API_BASE": "http://127.0.0.1:1/v1"},
        path=file,
        use_keyring=False,
    )
    assert cfg.models[Tier.FAST] == "openai/gpt-4o-mini"
    assert cfg.models[Tier.GENERAL] == "openai/other"
    assert cfg.cap_per_fill_usd == 0.01
    assert cfg.enabled and cfg.api_base == "http://127.0.0.1:1/v1"
    assert price_for("openai/gpt-4o", cfg) is not None
    assert price_for("openai/gpt-4o", cfg).input_per_mtok == 1.0  # type: ignore[union-attr]


def test_relay_prices_cover_the_default_models(tmp_path: Path) -> None:
    cfg = load_config(env={}, path=tmp_path / "none.toml", use_keyring=False)
    fast = price_for(cfg.model_for(Tier.FAST), cfg)
    assert fast is not None and fast.input_per_mtok == 0.098


def test_key_from_keyring_and_env_override(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    memory_keyring.set_password(KEYRING_SERVICE, "openrouter", "sk-from-keyring")
    cfg = load_config(env={}, path=tmp_path / "none.toml")
    assert cfg.api_key == "sk-from-keyring" and cfg.key_source == "keyring"
    assert "sk-from-keyring" not in repr(cfg)
    cfg = load_config(env={"RELAY_LLM_API_KEY": "sk-env"}, path=tmp_path / "none.toml")
    assert cfg.api_key == "sk-env" and cfg.key_source == "env"


def test_relay_key_set_and_delete(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    key_cmd.register(parser.add_subparsers())
    monkeypatch.setattr(sys, "stdin", io.StringIO("sk-typed\n"))
    args = parser.parse_args(["key", "set", "openrouter"])
    assert args.func(args) == 0
    assert memory_keyring.items[(KEYRING_SERVICE, "openrouter")] == "sk-typed"
    args = parser.parse_args(["key", "delete", "openrouter"])
    assert args.func(args) == 0
    assert memory_keyring.items == {}


def test_relay_key_without_a_keyring_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        import argparse

        parser = argparse.ArgumentParser()
        key_cmd.register(parser.add_subparsers())
        args = parser.parse_args(["key", "set", "openai"])
        assert args.func(args) == 1
    finally:
        keyring.set_keyring(previous)


def test_resume_text_is_read_from_the_pdf() -> None:
    text = resume_text(sample_profile())
    assert "Difference Labs" in text and "4 engineers" in text


def test_importing_the_model_layer_does_not_import_litellm() -> None:
    code = ("import sys, bridge.llm.escalate, bridge.llm.resume_facts, bridge.cli.key_cmd; "
            "print('litellm' in sys.modules)")
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        check=True,
    )
    assert out.stdout.strip() == "False"


def test_warm_up_loads_litellm_offline_without_dotenv() -> None:
    import os

    from bridge.llm import client

    client.warm_up().join(120)
    assert client.is_loaded()
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    assert os.environ["LITELLM_MODE"] == "PRODUCTION"
    assert "gpt-4o-mini" in client.cost_map()  # the bundled price map, read locally


def test_two_plans_ask_the_keyring_once(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyring is asked once per process, not for every reading of the configuration (a
    streamed plan read it three times, and the warm-up once more: each a round trip to the
    desktop's secret service)."""
    import threading

    import bridge.llm.client
    from bridge.forms import FillRequest
    from bridge.runtime import Runtime
    from tests.conftest import SAMPLE_PROFILE

    for name in ("RELAY_LLM_API_KEY", "RELAY_LLM_API_BASE", "RELAY_MODEL_FAST"):
        monkeypatch.delenv(name, raising=False)
    memory_keyring.set_password(KEYRING_SERVICE, "openrouter", "sk-from-keyring")
    asked: list[str] = []
    stored = memory_keyring.get_password

    def counted(service: str, username: str) -> str | None:
        asked.append(username)
        return stored(service, username)

    monkeypatch.setattr(memory_keyring, "get_password", counted)

    def no_litellm() -> None:
        raise ImportError("litellm (left out of this test: the model is never reached)")

    monkeypatch.setattr(bridge.llm.client, "load", no_litellm)
    runtime = Runtime(profile_path=SAMPLE_PROFILE)
    events: list[dict[str, object]] = []

    def emit(event: dict[str, object]) -> bool:
        events.append(event)
        return True

    runtime.emit = emit
    for n in (1, 2):
        request = FillRequest.model_validate({"url": "http://127.0.0.1/apply", "stream": True,
                                              "frames": [{"fields": [
            {"id": "f1", "widget": "textarea", "label": f"Describe a system you designed ({n})"}
        ]}]})
        plan = runtime.plan_fill(request, f"plan-{n}")
        assert [d["asking"] for d in plan["decisions"]] == [True]  # the model was wanted
    for thread in threading.enumerate():
        if thread.name == "relay-model-answers":
            thread.join(60)
    runtime.close()
    assert len(events) == 2  # each plan's model step ran (and found no litellm)
    assert asked == ["openrouter"]


def test_a_key_stored_or_removed_through_relay_is_seen_at_once(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    from bridge.llm import keys

    none = tmp_path / "none.toml"
    assert load_config(env={}, path=none).key_source == "none"
    keys.store_key("openrouter", "sk-new")
    assert load_config(env={}, path=none).api_key == "sk-new"
    assert keys.delete_key("openrouter")
    assert load_config(env={}, path=none).key_source == "none"


def test_litellm_counts_tokens_with_tiktoken_never_a_hugging_face_tokenizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reply without token counts makes litellm count them itself: for Llama, Cohere and older
    Claude models it would build a Hugging Face tokenizer, mostly downloaded from the Hub. The
    desktop build has no such library (packaging/stubs/tokenizers.py), so it must never try."""
    from bridge.llm import client

    litellm = client.load()
    built: list[str] = []

    class Spy:
        @classmethod
        def from_pretrained(cls, name: str, *_args: object, **_kwargs: object) -> None:
            built.append(name)
            raise OSError("no Hugging Face tokenizer here")

        @classmethod
        def from_str(cls, *_args: object, **_kwargs: object) -> None:
            built.append("from_str")
            raise OSError("no Hugging Face tokenizer here")

    monkeypatch.setattr(sys.modules["litellm.utils"], "Tokenizer", Spy)
    litellm.utils._select_tokenizer_helper.cache_clear()
    for model in ("llama-3-8b-instruct", "replicate/llama-2-70b-chat", "claude-2.1",
                  "command-r"):
        assert litellm.token_counter(model=model, text="What is your notice period?") > 0
    assert built == []
