"""The desktop build itself: where it is, and removing it when the person asks (`relay uninstall
--program`). Only a copy the user-level installer put in place is removed this way; a system
package is removed by the package manager, and a source checkout is never touched.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from bridge.paths import bundle_root

# Written into the program folder by the Linux tarball's install.sh, and by the system packages
# (the .deb, the macOS .pkg, the Windows installer) with the name of what installed it.
INSTALLED_BY = "installed-by"


class ProgramError(Exception):
    pass


@dataclass(frozen=True)
class Removed:
    paths: list[Path]


def installed_by(folder: Path) -> str:
    try:
        return (folder / INSTALLED_BY).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def remove_program(home: Path, folder: Path | None = None) -> Removed:
    """Remove the program folder and the `~/.local/bin/relay` link install.sh made to it."""
    folder = folder or bundle_root()
    if folder is None:
        raise ProgramError("this relay runs from a Python environment, not the desktop build: "
                           "there is no program folder to remove")
    how = installed_by(folder)
    if how == "":
        raise ProgramError(f"{folder} was not put in place by Relay's installer; remove it "
                           "yourself if you no longer want it")
    if how != "install.sh":
        raise ProgramError(f"{folder} was installed by {how}; remove Relay with it "
                           "(for the .deb: sudo apt remove relay)")
    removed: list[Path] = []
    link = home / ".local" / "bin" / "relay"
    if link.is_symlink() and Path(os.path.realpath(link)).is_relative_to(folder.resolve()):
        link.unlink()
        removed.append(link)
    shutil.rmtree(folder)
    removed.append(folder)
    return Removed(removed)
