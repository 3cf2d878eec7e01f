"""`relay encryption status|on|off`: encryption at rest, with the key in the OS keyring."""

from __future__ import annotations

import argparse
import getpass
from typing import Any

from bridge.cli.output import fail, open_store, print_json

JSON_VERSION = 1


def register(subparsers: Any) -> None:
    enc = subparsers.add_parser(
        "encryption", help="encrypt cached page text and drafted answers at rest",
        description="AES-256-GCM with the key in the OS keyring. `on` derives the key from a "
                    "secret you type (or makes a random one with --random-key).")
    enc.add_argument("action", choices=["status", "on", "off"])
    enc.add_argument("--random-key", action="store_true", help="with `on`: no secret, random key")
    enc.add_argument("--json", action="store_true", help="print JSON (status)")
    enc.set_defaults(func=run_encryption)


def run_encryption(args: argparse.Namespace) -> int:
    with open_store() as store:
        if args.action == "on":
            secret = None
            if not args.random_key:
                secret = getpass.getpass("Secret for Relay's encryption key: ")
                if not secret:
                    return fail("an empty secret; pass --random-key for a random key")
            key_id = store.enable_encryption(secret)
            print(f"Encryption is on (key {key_id}, kept in the OS keyring).")
            return 0
        if args.action == "off":
            store.disable_encryption()
            print("Encryption is off; stored values were decrypted and the key removed.")
            return 0
        status = store.encryption_status()
    if args.json:
        print_json({"version": JSON_VERSION, **status})
        return 0
    state = f"on (key {status['key_id']} since {status['since']})" if status["enabled"] else "off"
    print(f"Encryption: {state}")
    usable = "usable" if status["keyring_usable"] else "NOT usable"
    print(f"Keyring: {usable}: {status['keyring']}")
    return 0
