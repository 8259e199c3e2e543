"""The tools (benchmarks, screens, diagnostics, tuning) sit above the library: they may import any
layer, and no module outside ``krosbalance/tools`` imports them (issue 38)."""

from __future__ import annotations

import ast
from pathlib import Path

import krosbalance

PACKAGE = Path(krosbalance.__file__).resolve().parent


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return names


def test_no_library_module_imports_the_tools() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}: {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if PACKAGE / "tools" not in path.parents
        for name in _imports(path)
        if name == "krosbalance.tools" or name.startswith("krosbalance.tools.")
    ]
    assert offenders == []
