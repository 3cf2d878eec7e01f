"""Windows registry access under HKEY_CURRENT_USER, behind a protocol tests can replace.

Keys are HKCU-relative paths with backslashes, e.g. `Software\\Google\\Chrome\\...`.
Only the key's default (unnamed) value is used: that is where browsers read the manifest path.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Protocol


class Registry(Protocol):
    def exists(self, key: str) -> bool: ...

    def read_default(self, key: str) -> str | None:
        """The key's default string value; None when the key or the value is absent."""
        ...

    def write_default(self, key: str, value: str) -> None:
        """Set the default value, creating the key and any missing parents."""
        ...

    def is_empty(self, key: str) -> bool:
        """True when the key has neither subkeys nor values."""
        ...

    def delete(self, key: str) -> None:
        """Delete a key that has no subkeys."""
        ...


def parents(key: str) -> list[str]:
    """`A\\B\\C` -> [`A`, `A\\B`]: the keys that must exist before `key` can."""
    parts = key.split("\\")
    return ["\\".join(parts[:i]) for i in range(1, len(parts))]


class WindowsRegistry:
    """The real HKCU, through `winreg` (importable on Windows only)."""

    def exists(self, key: str) -> bool:
        if sys.platform != "win32":
            raise OSError("the Windows registry is only available on Windows")
        import winreg

        try:
            winreg.OpenKey(winreg.HKEY_CURRENT_USER, key).Close()
        except FileNotFoundError:
            return False
        return True

    def read_default(self, key: str) -> str | None:
        if sys.platform != "win32":
            raise OSError("the Windows registry is only available on Windows")
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key) as handle:
                value, kind = winreg.QueryValueEx(handle, "")
        except FileNotFoundError:
            return None
        return value if kind in (winreg.REG_SZ, winreg.REG_EXPAND_SZ) else None

    def write_default(self, key: str, value: str) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows registry is only available on Windows")
        import winreg

        with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, key, 0, winreg.KEY_WRITE) as handle:
            winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, value)

    def is_empty(self, key: str) -> bool:
        if sys.platform != "win32":
            raise OSError("the Windows registry is only available on Windows")
        import winreg

        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key) as handle:
            subkeys, values, _modified = winreg.QueryInfoKey(handle)
        return subkeys == 0 and values == 0

    def delete(self, key: str) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows registry is only available on Windows")
        import winreg

        winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)


@dataclass
class MemoryRegistry:
    """An in-memory HKCU for tests and non-Windows runs: key path -> {value name: value}.

    Key names compare case-insensitively, as in the real registry.
    """

    keys: dict[str, dict[str, str]] = field(default_factory=dict)

    def _norm(self, key: str) -> str:
        return key.lower()

    def exists(self, key: str) -> bool:
        return self._norm(key) in self.keys

    def read_default(self, key: str) -> str | None:
        return self.keys.get(self._norm(key), {}).get("")

    def write_default(self, key: str, value: str) -> None:
        for parent in parents(key):
            self.keys.setdefault(self._norm(parent), {})
        self.keys.setdefault(self._norm(key), {})[""] = value

    def subkeys(self, key: str) -> list[str]:
        prefix = self._norm(key) + "\\"
        return [k for k in self.keys if k.startswith(prefix)]

    def is_empty(self, key: str) -> bool:
        return not self.subkeys(key) and not self.keys.get(self._norm(key))

    def delete(self, key: str) -> None:
        if self.subkeys(key):
            raise OSError(f"key has subkeys: {key}")
        if self.keys.pop(self._norm(key), None) is None:
            raise FileNotFoundError(key)
