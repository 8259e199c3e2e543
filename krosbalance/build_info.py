"""Which build of krosbalance is installed: compiled with mypyc, or pure Python.

``pip install .`` (and every ``make`` target) compiles the modules of :data:`COMPILED_LAYERS` with
mypyc; ``KROSBALANCE_PURE=1`` at install time leaves them pure Python. Both builds give identical
results (see the README, "Build"). A compiled build writes :data:`MANIFEST` beside the package: the
SHA-256 of each source it compiled, which tells the build apart from a broken one (a module that fell
back to Python) and from sources edited since (an editable install keeps running the old compiled
code until it is rebuilt).

This module imports nothing from the package, so ``setup.py`` uses it too::

    >>> from krosbalance.build_info import build_mode, stale_modules
    >>> build_mode()  # 'compiled', 'pure', or 'mixed'
    >>> stale_modules()  # sources edited after they were compiled: rebuild with `make build`
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shlex
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

__all__ = [
    "COMPILED_LAYERS",
    "MANIFEST",
    "PGO_ENV",
    "PURE_ENV",
    "build_mode",
    "build_seconds",
    "c_compiler_is_gcc",
    "compiled_artefacts",
    "compiled_modules",
    "hot_modules",
    "read_manifest",
    "stale_modules",
    "write_manifest",
]

#: the subpackages that mypyc compiles: everything a match runs through
COMPILED_LAYERS: tuple[str, ...] = ("engine", "board", "content", "rulesets", "ai")
#: set to 1 at install time for a pure-Python build
PURE_ENV = "KROSBALANCE_PURE"
#: set to 0 at install time to compile without a profile (the compiled build is profile-guided with GCC)
PGO_ENV = "KROSBALANCE_PGO"
#: written by a compiled build into the package: ``{"sources": {module: SHA-256 of the source compiled},
#: "seconds": {"mypyc": type check and C generation, "cc": C compilation (both passes of a
#: profile-guided build), "pgo_training": its training run}}``
MANIFEST = "_compiled_sources.json"
#: the shared library of the compiled modules, a top-level module beside the package
SHARED_LIBRARY = "krosbalance__mypyc"

PACKAGE_DIR = Path(__file__).resolve().parent


def hot_modules(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """Dotted names of the modules mypyc compiles (``__init__`` files stay Python)."""
    return sorted(
        ".".join((package_dir.name, *path.relative_to(package_dir).with_suffix("").parts))
        for layer in COMPILED_LAYERS
        for path in (package_dir / layer).rglob("*.py")  # subpackages too (rulesets/arena/...)
        if path.name != "__init__.py"
    )


def _source(module: str, package_dir: Path) -> Path:
    return package_dir.parent.joinpath(*module.split(".")).with_suffix(".py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_digests(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """The SHA-256 of every hot module's source, by module."""
    return {name: _digest(_source(name, package_dir)) for name in hot_modules(package_dir)}


def write_manifest(
    target_dir: Path,
    package_dir: Path = PACKAGE_DIR,
    seconds: dict[str, float] | None = None,
    sources: dict[str, str] | None = None,
) -> Path:
    """Record the SHA-256 of every hot module's source, and how long the build took, in
    ``target_dir`` / :data:`MANIFEST`. ``sources`` are the digests of the sources the build
    compiled, taken when mypyc read them (by default: the sources as they are now; a source edited
    during the C compilation would then pass for compiled)."""
    if sources is None:
        sources = source_digests(package_dir)
    target = target_dir / MANIFEST
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"sources": sources, "seconds": seconds or {}}, indent=1, sort_keys=True))
    return target


def c_compiler_is_gcc() -> bool:
    """Whether the C compiler extensions are built with (``$CC``, else Python's own) is GCC: the
    compiled build is profile-guided only with GCC, whose profile flags and files it uses."""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    try:
        done = subprocess.run([command[0], "--version"], capture_output=True, text=True, check=False)
    except OSError:
        return False
    return "Free Software Foundation" in done.stdout


def _manifest(package_dir: Path = PACKAGE_DIR) -> dict[str, dict[str, Any]] | None:
    path = package_dir / MANIFEST
    return json.loads(path.read_text()) if path.is_file() else None


def read_manifest(package_dir: Path = PACKAGE_DIR) -> dict[str, str] | None:
    """The compiled build's source hashes by module, or None for a pure build."""
    manifest = _manifest(package_dir)
    return None if manifest is None else dict(manifest["sources"])


def build_seconds(package_dir: Path = PACKAGE_DIR) -> dict[str, float]:
    """How long the compiled build took: ``mypyc`` (type check and C generation), ``cc`` (C
    compilation) and, for a profile-guided build, ``pgo_training`` (its training run), in seconds;
    empty for a pure build."""
    manifest = _manifest(package_dir)
    return {} if manifest is None else dict(manifest["seconds"])


def compiled_artefacts(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """What a compiled build leaves in an (editable) source tree: the extension modules of the hot
    layers, the shared library beside the package and the manifest."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [
        path
        for layer in COMPILED_LAYERS
        for path in sorted((package_dir / layer).rglob("*"))
        if path.name.endswith(suffixes)
    ]
    found += [p for p in sorted(package_dir.parent.glob(SHARED_LIBRARY + ".*")) if p.name.endswith(suffixes)]
    if (package_dir / MANIFEST).is_file():
        found.append(package_dir / MANIFEST)
    return found


def compiled_modules() -> dict[str, bool]:
    """Each hot module and whether the import system loads it from a compiled extension."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    result = {}
    for name in hot_modules():
        spec = importlib.util.find_spec(name)
        origin = "" if spec is None or spec.origin is None else spec.origin
        result[name] = origin.endswith(suffixes)
    return result


def build_mode() -> str:
    """``compiled`` when every hot module is an extension, ``pure`` when none is, else ``mixed``
    (a broken build: some modules fell back to Python)."""
    flags = set(compiled_modules().values())
    if flags == {True}:
        return "compiled"
    return "pure" if flags == {False} else "mixed"


def stale_modules() -> list[str]:
    """Hot modules whose source differs from what the compiled build compiled (or that it never
    compiled); empty for a pure build."""
    manifest = read_manifest()
    if manifest is None:
        return []
    return [name for name in hot_modules() if manifest.get(name) != _digest(_source(name, PACKAGE_DIR))]
