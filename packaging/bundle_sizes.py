"""What the desktop build's size is made of, package by package (for build.py's report).

A package's share is its files under `_internal/` (compiled parts, data, its `.libs` folder and
its `.dist-info`) plus its compressed bytecode inside the program's archive: PyInstaller keeps
every pure-Python module in one archive appended to the `relay` executable, so the files alone
would hide most of litellm and openai behind "relay".
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from PyInstaller.archive.readers import CArchiveReader

PYTHON = "(python)"  # the interpreter, its standard library and the system libraries it links
PROGRAM = "(program)"  # the executable's loader and everything the person gets beside it
EXTENSION = "(extension)"


def _package_of(name: str) -> str:
    """The package a top-level entry of `_internal/` belongs to."""
    if name.endswith(".dist-info"):
        return re.sub(r"-[^-]+\.dist-info$", "", name).lower().replace("-", "_")
    if name.endswith(".libs"):  # auditwheel's folder of a wheel's own shared libraries
        return name.removesuffix(".libs")
    if name.startswith(("lib", "python3", "base_library")):
        return PYTHON
    return name.split(".")[0].lstrip("_") or name


def _bytecode(program: Path) -> Counter[str]:
    """Compressed bytecode per top-level package, and what else the executable holds."""
    sizes: Counter[str] = Counter()
    archive = CArchiveReader(str(program))
    in_archives = 0
    for name, (_offset, length, _full, _compressed, typecode) in archive.toc.items():
        if typecode != "z":
            continue
        for module, (_kind, _at, stored) in archive.open_embedded_archive(name).toc.items():
            sizes[module.split(".")[0]] += stored
        in_archives += length
    sizes[PROGRAM] += program.stat().st_size - in_archives
    return sizes


def breakdown(folder: Path) -> dict[str, int]:
    """Bytes per package in the one-folder build `folder`, largest first."""
    sizes: Counter[str] = Counter()
    internal = folder / "_internal"
    for path in folder.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue  # a symlink (PyInstaller links numpy's OpenBLAS into _internal/) is free
        relative = path.relative_to(folder)
        if path == folder / "relay":
            sizes.update(_bytecode(path))
        elif relative.parts[0] == "extension":
            sizes[EXTENSION] += path.stat().st_size
        elif path.is_relative_to(internal):
            sizes[_package_of(path.relative_to(internal).parts[0])] += path.stat().st_size
        else:
            sizes[PROGRAM] += path.stat().st_size
    return dict(sizes.most_common())


def report(sizes: dict[str, int], top: int = 20) -> list[str]:
    """One line per package, the largest `top` and the rest summed."""
    items = list(sizes.items())
    lines = [f"{size / 1e6:8.1f} MB  {name}" for name, size in items[:top]]
    rest = sum(size for _name, size in items[top:])
    if rest:
        lines.append(f"{rest / 1e6:8.1f} MB  ({len(items) - top} others)")
    return lines
