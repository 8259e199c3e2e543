"""A throwaway mypyc build of the current sources, made on demand for the benchmark's mypyc column.

The package installs and runs as plain Python: every hot path plays in the native core, and the
Python reference only has to be right. The speed bars of the core are still written against the
mypyc build that the package compiled itself until issue 41 ("the core plays at least 20x the mypyc
build per CPU-second"), so ``make bench`` measures that build beside the reference and the core.
:func:`mypyc_copy` makes it: a copy of the installed package in a cache folder outside the venv
(:func:`cache_root`), whose engine, board, content, rulesets and ai layers (:data:`MYPYC_LAYERS`)
it compiles in place with mypyc (``mypy`` is a dev dependency) as the retired build did: one
group, one C file per module compiled on every core, ``-O3``, and with GCC no semantic
interposition and hidden symbols. The copy is keyed by a digest of the package's files, Python's and
mypy's versions, so it is built once per version of the sources (a few minutes) and reused after;
building a new one removes the older ones. :func:`copy_python` runs a command on it (from the copy,
with the copy first on ``sys.path``; ``krosbalance_core`` still comes from the venv).

``python -m krosbalance.tools.mypyc_copy`` builds (or finds) the copy and prints its folder.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import krosbalance

__all__ = [
    "MYPYC_LAYERS",
    "build_mode",
    "cache_root",
    "copy_python",
    "expect_build",
    "hot_modules",
    "mypyc_copy",
    "source_key",
]

#: the subpackages the mypyc copy compiles: everything a reference match runs through
MYPYC_LAYERS: tuple[str, ...] = ("engine", "board", "content", "rulesets", "ai")
#: overrides the cache folder (default ``$XDG_CACHE_HOME/krosbalance/mypyc``, else ``~/.cache/...``)
CACHE_ENV = "KROSBALANCE_MYPYC_CACHE"
#: written into a copy once its build succeeded: the build's seconds
DONE = "mypyc-build-seconds"
#: what the copy's build runs (``python -c SETUP build_ext --inplace`` in the copy's folder)
SETUP = """
import os, sys, sysconfig, subprocess
from concurrent.futures import ThreadPoolExecutor
from setuptools import setup
from setuptools.command.build_ext import build_ext
from mypyc.build import mypycify

cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
try:
    GCC = "Free Software Foundation" in subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
except OSError:
    GCC = False

class BuildExt(build_ext):
    def build_extension(self, ext):
        if GCC:  # calls between the modules inlined, nothing exported but PyInit_ (the retired build's flags)
            ext.extra_compile_args = [*ext.extra_compile_args, "-fno-semantic-interposition", "-fvisibility=hidden"]
        compile_one = self.compiler.compile
        def compile_all(sources, *args, **kwargs):
            order = sorted(range(len(sources)), key=lambda i: -os.path.getsize(sources[i]))
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                futures = {i: pool.submit(compile_one, [sources[i]], *args, **kwargs) for i in order}
            return [obj for i in range(len(sources)) for obj in futures[i].result()]
        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            del self.compiler.compile

paths = sys.argv.pop(1).split(",")
setup(name="krosbalance-mypyc-copy", py_modules=[],
      ext_modules=mypycify(paths, opt_level="3", group_name="krosbalance", multi_file=True),
      cmdclass={"build_ext": BuildExt})
"""


def _package_dir() -> Path:
    return Path(krosbalance.__file__).resolve().parent


def hot_modules(package_dir: Path | None = None) -> list[str]:
    """Dotted names of the modules the copy compiles (``__init__`` files stay Python)."""
    package = package_dir or _package_dir()
    return sorted(
        ".".join((package.name, *path.relative_to(package).with_suffix("").parts))
        for layer in MYPYC_LAYERS
        for path in (package / layer).rglob("*.py")
        if path.name != "__init__.py"
    )


def build_mode() -> str:
    """``mypyc`` when every hot module this process imports is a compiled extension (the copy),
    ``reference`` when none is (the installed package), else ``mixed`` (a broken copy, or
    extension modules that the retired compiled build left in an editable source tree)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    flags = set()
    for name in hot_modules():
        spec = importlib.util.find_spec(name)
        flags.add(spec is not None and (spec.origin or "").endswith(suffixes))
    if flags == {True}:
        return "mypyc"
    return "reference" if flags == {False} else "mixed"


def expect_build() -> None:
    """Exit with a message if ``KROSBALANCE_EXPECT_BUILD`` names another build than the one running
    (the benchmark's worker processes check that they measure what they report)."""
    expected = os.environ.get("KROSBALANCE_EXPECT_BUILD")
    if expected and build_mode() != expected:
        raise SystemExit(f"expected the {expected} build, running the {build_mode()} build")


def _pyproject() -> Path | None:
    """The project's pyproject.toml (its ``[tool.mypy]`` is what mypyc type-checks with), when the
    package runs from a source tree."""
    path = _package_dir().parent / "pyproject.toml"
    return path if path.is_file() else None


def source_key() -> str:
    """SHA-256 of every file of the package (not its caches), the mypy configuration, Python's and
    mypy's versions: what a copy is built from."""
    digest = hashlib.sha256(f"{sys.version}\nmypy {importlib.metadata.version('mypy')}\n".encode())
    package = _package_dir()
    files = sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    pyproject = _pyproject()
    for path in [*files, *([pyproject] if pyproject else [])]:
        digest.update(str(path.relative_to(package.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


#: finished copies kept in the cache (the newest; each is the package compiled, some tens of MB)
KEEP_COPIES = 3


def cache_root() -> Path:
    """Where the copies live: ``$KROSBALANCE_MYPYC_CACHE``, else the user's cache folder (outside
    the venv and the source tree, so that nothing the package imports is compiled)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "krosbalance" / "mypyc"


def mypyc_copy(quiet: bool = False) -> Path:
    """The folder of the mypyc copy of the current sources (put it first on ``sys.path``), built now
    if the cache holds none for this :func:`source_key`; a failed build raises with mypyc's output."""
    root = cache_root()
    key = source_key()[:20]
    target = root / key
    if (target / DONE).is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    if not quiet:
        print(
            f"building a throwaway mypyc copy of the sources in {target} for the mypyc column "
            "(once per version of the sources: a few minutes)",
            file=sys.stderr,
            flush=True,
        )
    start = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="building-", dir=root))
    try:
        shutil.copytree(
            _package_dir(),
            work / "krosbalance",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        )
        pyproject = _pyproject()
        if pyproject is not None:
            shutil.copy2(pyproject, work / "pyproject.toml")
        paths = [name.replace(".", "/") + ".py" for name in hot_modules(work / "krosbalance")]
        done = subprocess.run(
            [sys.executable, "-c", SETUP, ",".join(paths), "build_ext", "--inplace"],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the mypyc copy did not build:\n{(done.stdout + done.stderr)[-4000:]}")
        shutil.rmtree(work / "build", ignore_errors=True)  # the C files and objects
        (work / DONE).write_text(f"{time.perf_counter() - start:.1f}\n")
        work.rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    prune(root, KEEP_COPIES)
    return target


def prune(root: Path, keep: int) -> list[Path]:
    """Remove all but the ``keep`` newest finished copies in ``root`` (returned: the removed).

    Several are kept, not one: two worktrees benchmarking different sources at the same time each
    need theirs, and a copy another process is still building (no ``DONE`` yet) is never touched."""
    finished = [d for d in root.iterdir() if d.is_dir() and (d / DONE).is_file()]
    finished.sort(key=lambda d: (d / DONE).stat().st_mtime, reverse=True)
    for old in finished[keep:]:
        shutil.rmtree(old, ignore_errors=True)
    return finished[keep:]


def build_seconds(copy: Path) -> float:
    """How long the copy at ``copy`` took to build (copying, type-checking, C generation and
    compilation), in seconds."""
    return float((copy / DONE).read_text())


def copy_python(copy: Path, args: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    """Start ``python ARGS`` on the mypyc copy at ``copy``; the child checks that it runs it."""
    env = dict(os.environ, PYTHONPATH=str(copy), KROSBALANCE_EXPECT_BUILD="mypyc")
    return subprocess.Popen([sys.executable, *args], cwd=copy, env=env, text=True, **kwargs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.mypyc_copy", description=__doc__.split("\n\n")[0]
    )
    parser.parse_args(argv)
    copy = mypyc_copy()
    print(f"{copy} (built in {build_seconds(copy):.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
