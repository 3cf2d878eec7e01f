"""Which modules of the desktop build can never be imported, read from their source (for
relay.spec).

PyInstaller collects every module some import statement names, including those inside functions
that only run in a gateway server. A module whose own top-level code imports a package that is
not installed (litellm's proxy needs FastAPI), or another such module, fails to import wherever
it runs: shipping it only adds size. Imports inside functions, `try` blocks and `if` blocks are
conditional and do not count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path


def _package(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    parts = parts[:len(parts) - node.level + 1]
    return ".".join([*parts, node.module] if node.module else parts)


def top_level_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules the file's own top level imports unconditionally, with their parent packages."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, _package(name, path))
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in known)
    with_parents = set()
    for module in found:
        parts = module.split(".")
        with_parents.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return with_parents


def unimportable(entries: Iterable[tuple[str, str, str]], prefix: str,
                 missing: tuple[str, ...]) -> set[str]:
    """Names of the modules starting with `prefix` among PyInstaller's (name, path, type)
    entries that import, at their top level, a `missing` package or another such module."""
    sources = {name: Path(path) for name, path, _kind in entries
               if name.startswith(prefix) and path and path.endswith(".py")}
    known = set(sources)
    imports = {name: top_level_imports(name, path, known) for name, path in sources.items()}
    dead = {name for name, found in imports.items()
            if any(module.split(".")[0] in missing for module in found)}
    while True:
        more = {name for name, found in imports.items() if name not in dead and (
            found & dead or any(name.startswith(package + ".") for package in dead))}
        if not more:
            return dead
        dead |= more
