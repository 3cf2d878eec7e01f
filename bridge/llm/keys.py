"""The model API key in the OS keyring: stored and removed for `relay key` and the console alike.

The key goes straight to the keyring; it is never returned, logged or written to a file.
"""

from __future__ import annotations

from typing import Any

from bridge.llm.config import KEYRING_SERVICE, forget_keyring_keys


class NoKeyring(RuntimeError):
    """There is no secure keyring on this machine."""


def keyring_or_fail() -> Any:
    import keyring
    from keyring.backends import fail

    if isinstance(keyring.get_keyring(), fail.Keyring):
        raise NoKeyring(
            "no secure keyring on this machine (no desktop session?); set RELAY_LLM_API_KEY "
            "in the environment instead"
        )
    return keyring


def store_key(provider: str, secret: str) -> None:
    from keyring.errors import KeyringError

    try:
        keyring_or_fail().set_password(KEYRING_SERVICE, provider, secret)
    except KeyringError as exc:  # locked, or refused by the desktop's keychain
        raise NoKeyring(f"the OS keyring did not store the key: {exc}") from exc
    finally:
        forget_keyring_keys()


def delete_key(provider: str) -> bool:
    """Remove the provider's key; False when none was stored."""
    from keyring.errors import KeyringError, PasswordDeleteError

    try:
        keyring_or_fail().delete_password(KEYRING_SERVICE, provider)
    except PasswordDeleteError:
        return False
    except KeyringError as exc:
        raise NoKeyring(f"the OS keyring did not remove the key: {exc}") from exc
    finally:
        forget_keyring_keys()
    return True
