"""The package's layers import one way, and an import inside a function says why it is there.

(a) A module imports only modules of its own layer or of a lower one, at module level or inside a
function (:data:`LAYERS`, lowest first; an import under ``if TYPE_CHECKING:`` is for the type
checker alone and is not counted). A layer that reads the results of a higher one asks a registry
below both (the studies register into :mod:`krosbalance.study_registry`, below ``sim`` and
``analysis``).

(b) An import of the package inside a function breaks a real cycle or puts off a heavy or optional
load, and its line says which with a trailing comment: ``# cycle: ...``, ``# heavy: ...``,
``# optional: ...`` or, in the command line, ``# start-up: ...`` (the CLI loads what a command
needs when it runs, so that ``--help`` and ``list`` start fast: tests/cli/test_startup.py). Checked
over :data:`EXPLAINED`: the whole package.

Run ``python -m pytest tests/test_layers.py`` to see each offending line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "krosbalance"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("krosbalance.errors", "krosbalance.paths"),
    ("krosbalance.board",),
    ("krosbalance.content",),
    ("krosbalance.native",),
    ("krosbalance.engine",),
    ("krosbalance.rulesets",),
    ("krosbalance.ai",),
    ("krosbalance.render",),
    # one match played by either engine: play chooses, engine_choice asks the native core
    # (native_match), which reads the teams as play does (a cycle of three, said in their imports);
    # the package's face hands play_match on
    (
        "krosbalance.play",
        "krosbalance.engine_choice",
        "krosbalance.native_match",
        "krosbalance.native_duel",
        "krosbalance.native_blast",
        "krosbalance",
    ),
    ("krosbalance.testing",),
    ("krosbalance.study_registry",),
    ("krosbalance.sim",),
    ("krosbalance.analysis",),
    ("krosbalance.studies",),
    ("krosbalance.tools", "krosbalance.cards"),
    ("krosbalance.cli", "krosbalance.notebook"),
    ("krosbalance.__main__",),
)
"""The layers, lowest first: a module is in the layer of the longest name that is it or contains it."""

EXPLAINED: tuple[str, ...] = ("krosbalance/",)
"""Where every function-level import of the package carries its reason (paths from the project root)."""

REASON = re.compile(r"#\s*(cycle|heavy|optional|start-up):\s*\S")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _layer(module: str) -> int:
    best, length = -1, -1
    for index, names in enumerate(LAYERS):
        for name in names:
            inside = module == name or (name != "krosbalance" and module.startswith(name + "."))
            if inside and len(name) > length:
                best, length = index, len(name)
    assert best >= 0, f"{module} is in no layer: add it to LAYERS"
    return best


def _resolve(name: str) -> str | None:
    """The module of the package that an imported name lands in (``a.b.func`` -> ``a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, str, bool]]:
    """(statement, imported module, inside a function) for each import of the package, skipping
    those under ``if TYPE_CHECKING:``."""

    def visit(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, str, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from visit(ast.Module(body=child.orelse, type_ignores=[]), in_function)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    target = _resolve(alias.name) if alias.name.startswith("krosbalance") else None
                    if target:
                        yield child, target, in_function
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                    package = package[: len(package) - (child.level - 1)]
                    base = ".".join([*package, *([child.module] if child.module else [])])
                if base.startswith("krosbalance"):
                    for alias in child.names:
                        target = _resolve(f"{base}.{alias.name}")
                        if target:
                            yield child, target, in_function
            yield from visit(
                child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            )

    yield from visit(ast.parse(path.read_text(encoding="utf-8")), False)


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        _layer(module)


def test_no_module_imports_a_higher_layer() -> None:
    found = []
    for module, path in sorted(MODULES.items()):
        for statement, target, in_function in _imports(module, path):
            if _layer(target) > _layer(module):
                where = "inside a function" if in_function else "at module level"
                found.append(
                    f"{path.relative_to(ROOT)}:{statement.lineno}: {module} imports {target} ({where})"
                )
    assert not found, "imports that run back up a layer:\n" + "\n".join(found)


def test_every_import_inside_a_function_says_why() -> None:
    found = []
    for module, path in sorted(MODULES.items()):
        relative = path.relative_to(ROOT).as_posix()
        if not any(relative.startswith(p) if p.endswith("/") else relative == p for p in EXPLAINED):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        seen = set()
        for statement, _, in_function in _imports(module, path):
            if not in_function or statement.lineno in seen:
                continue
            seen.add(statement.lineno)
            text = "\n".join(lines[statement.lineno - 1 : statement.end_lineno])
            if not REASON.search(text):
                found.append(f"{relative}:{statement.lineno}: {lines[statement.lineno - 1].strip()}")
    assert not found, (
        "imports inside a function without '# cycle:', '# heavy:', '# optional:' or '# start-up:' "
        "(move it to the top of the module when it breaks no cycle and loads nothing heavy):\n"
        + "\n".join(found)
    )


def test_no_module_level_import_cycle() -> None:
    """Imports at module level form no cycle at all (a cycle left is broken inside a function, and
    says so): Python would otherwise run a module half-loaded."""
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for module, path in MODULES.items():
        for _, target, in_function in _imports(module, path):
            if not in_function and target != module:
                graph[module].add(target)
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "module-level import cycles:\n" + "\n".join(cycles)
