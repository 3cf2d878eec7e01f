"""`relay key set|delete|status PROVIDER`: the model API key, kept in the OS keyring.

The key is read from a hidden prompt (or stdin when piped), never from the command line, where it
would land in shell history. `RELAY_LLM_API_KEY` overrides the keyring.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from bridge.llm import keys
from bridge.llm.config import Tier, load_config


def register(subparsers: Any) -> None:
    key = subparsers.add_parser(
        "key",
        help="store the model API key in the OS keyring",
        description="Store, remove or check the API key Relay's model tiers use. PROVIDER is "
        "the litellm provider prefix of your models (openrouter, openai, "
        "anthropic, …).",
    )
    verbs = key.add_subparsers(dest="key_command", metavar="ACTION", required=True)
    set_p = verbs.add_parser("set", help="store a key (read from a hidden prompt or stdin)")
    set_p.add_argument("provider")
    set_p.set_defaults(func=run_set)
    del_p = verbs.add_parser("delete", help="remove a stored key")
    del_p.add_argument("provider")
    del_p.set_defaults(func=run_delete)
    status = verbs.add_parser("status", help="which models are set and where the key comes from")
    status.set_defaults(func=run_status)


def _read_secret() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("API key (input hidden): ").strip()
    return sys.stdin.readline().strip()


def run_set(args: argparse.Namespace) -> int:
    try:
        keys.keyring_or_fail()  # before the prompt: no keyring, nothing to type
        secret = _read_secret()
        if not secret:
            print("relay key: no key given; nothing stored", file=sys.stderr)
            return 1
        keys.store_key(args.provider, secret)
    except keys.NoKeyring as exc:
        print(f"relay key: {exc}", file=sys.stderr)
        return 1
    print(f"stored the {args.provider} key in the OS keyring")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    try:
        removed = keys.delete_key(args.provider)
    except keys.NoKeyring as exc:
        print(f"relay key: {exc}", file=sys.stderr)
        return 1
    print(f"removed the {args.provider} key" if removed else f"no {args.provider} key was stored")
    return 0


def run_status(args: argparse.Namespace) -> int:
    del args
    config = load_config()
    for tier in Tier:
        print(f"{tier.value:8} {config.model_for(tier) or '(off)'}")
    if config.api_base:
        print(f"api base {config.api_base}")
    provider = config.key_provider
    source = {"env": "RELAY_LLM_API_KEY", "keyring": f"OS keyring ({provider})"}.get(
        config.key_source, "none"
    )
    print(f"key      {source}")
    if not config.enabled:
        print(config.disabled_reason())
    return 0
