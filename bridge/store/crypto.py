"""Optional encryption at rest (AES-256-GCM) for cached page text and drafted answers.

The 256-bit key lives in the OS keyring, never in the database; the database only records that
encryption is on and which key (a short fingerprint), so a missing or different key is reported
plainly instead of producing garbage.
"""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass

from bridge.protocol.errors import ErrorCode, RelayError

KEYRING_SERVICE = "Relay"
KEYRING_USER = "store-key"
NONCE_BYTES = 12
# Scrypt parameters for a key derived from the person's secret (about 50 ms, 16 MiB).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


@dataclass(frozen=True)
class Cipher:
    key: bytes

    @property
    def key_id(self) -> str:
        return key_id(self.key)

    def seal(self, text: str, context: str) -> str:
        """Encrypt text; `context` is bound as associated data so a value moved elsewhere fails."""
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = os.urandom(NONCE_BYTES)
        sealed = AESGCM(self.key).encrypt(nonce, text.encode("utf-8"), context.encode("utf-8"))
        return base64.b64encode(nonce + sealed).decode("ascii")

    def open(self, token: str, context: str) -> str:
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        raw = base64.b64decode(token)
        try:
            plain = AESGCM(self.key).decrypt(
                raw[:NONCE_BYTES], raw[NONCE_BYTES:], context.encode("utf-8")
            )
        except InvalidTag as exc:
            raise RelayError(
                ErrorCode.STORE_FAILED,
                "an encrypted value does not open with the key in the keyring "
                "(wrong key, or the value was altered)",
            ) from exc
        return plain.decode("utf-8")


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"relay-key-id:" + key).hexdigest()[:16]


def derive_key(secret: str, salt: bytes) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    kdf = Scrypt(salt=salt, length=32, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P)
    return kdf.derive(secret.encode("utf-8"))


def _backend() -> object:
    """The keyring backend, or a clear error when this machine has no secure one."""
    import keyring
    from keyring.backends import fail

    backend = keyring.get_keyring()
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if isinstance(backend, fail.Keyring):
        raise RelayError(
            ErrorCode.STORE_FAILED,
            "no secure keyring is available on this machine (no desktop keychain or Secret "
            "Service), so Relay cannot keep an encryption key; your data stays unencrypted",
        )
    if name.startswith("keyrings.alt."):
        raise RelayError(
            ErrorCode.STORE_FAILED,
            f"the keyring backend {name} keeps secrets in plain files, which is not secure; "
            "Relay will not store its encryption key there",
        )
    return backend


def keyring_status() -> tuple[bool, str]:
    """(usable, description) for `status` displays."""
    try:
        backend = _backend()
    except RelayError as exc:
        return False, exc.message
    return True, f"{type(backend).__module__}.{type(backend).__name__}"


def store_key(key: bytes) -> None:
    import keyring

    _backend()
    keyring.set_password(KEYRING_SERVICE, KEYRING_USER, base64.b64encode(key).decode("ascii"))


def load_key() -> bytes | None:
    import keyring

    _backend()
    text = keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
    return base64.b64decode(text) if text else None


def delete_key() -> None:
    import keyring
    from keyring.errors import PasswordDeleteError

    _backend()
    try:
        keyring.delete_password(KEYRING_SERVICE, KEYRING_USER)
    except PasswordDeleteError:
        pass


def new_key(secret: str | None) -> tuple[bytes, str]:
    """A fresh key: derived from the person's secret (with a random salt) or random.
    Returns (key, salt as base64, "" when random)."""
    if secret:
        salt = os.urandom(16)
        return derive_key(secret, salt), base64.b64encode(salt).decode("ascii")
    return os.urandom(32), ""


def pack(cipher: Cipher | None, text: str, context: str, seal: bool = True) -> tuple[str, int]:
    """(stored text, sealed flag): sealed when encryption is on and the value is sealable."""
    if cipher is not None and seal:
        return cipher.seal(text, context), 1
    return text, 0


def unpack(cipher: Cipher | None, stored: str, sealed: int, context: str) -> str | None:
    """The plain text; None when it is sealed and no key is at hand."""
    if not sealed:
        return stored
    if cipher is None:
        return None
    return cipher.open(stored, context)
