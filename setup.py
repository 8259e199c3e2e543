"""Compiles the hot layers (engine, board, content, rulesets, ai) with mypyc; the metadata is in pyproject.toml.

``pip install .`` and ``pip install -e .`` build them compiled. ``KROSBALANCE_PURE=1`` at install time
gives the pure-Python build instead (identical results; no rebuild after an edit), and removes any
compiled modules an earlier editable build left in the source tree, so that the pure build is pure.

A compiled build also writes ``krosbalance/_compiled_sources.json``: the SHA-256 of every source it
compiled, so ``krosbalance.build_info`` can tell which build is installed and whether a source was
edited after it was compiled (see the README, "Build").
"""

import os
import runpy
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
INFO = runpy.run_path(str(ROOT / "krosbalance" / "build_info.py"))
PURE = os.environ.get(INFO["PURE_ENV"], "").strip() not in ("", "0")
SECONDS: dict = {}  # build time by step, recorded in the manifest
SOURCES: dict = {}  # the digests of the sources mypyc compiled, recorded in the manifest


class BuildExt(build_ext):
    """build_ext that records the hashes of the compiled sources beside the compiled package."""

    def run(self) -> None:
        start = time.perf_counter()
        super().run()
        if not self.extensions:
            return
        SECONDS["cc"] = round(time.perf_counter() - start, 1)
        package = ROOT / "krosbalance" if self.inplace else Path(self.build_lib) / "krosbalance"
        INFO["write_manifest"](package, ROOT / "krosbalance", SECONDS, SOURCES or None)
        if self.inplace:  # extensions of modules deleted since an earlier build would still import
            current = set(INFO["hot_modules"](package))
            for path in INFO["compiled_artefacts"](package):
                if path.parent == package or path.parent == package.parent:
                    continue  # the manifest and the shared library
                module = ".".join(
                    ("krosbalance", *path.relative_to(package).parent.parts, path.name.split(".")[0])
                )
                if module not in current:
                    path.unlink()


def extensions() -> list:
    if PURE:
        for stale in INFO["compiled_artefacts"](ROOT / "krosbalance"):
            print(f"{INFO['PURE_ENV']}: removing {stale.relative_to(ROOT)} (pure build)")
            stale.unlink()
        return []
    from mypyc.build import mypycify

    os.chdir(ROOT)  # mypy reads [tool.mypy] (strict) from pyproject.toml in the working directory
    paths = [name.replace(".", "/") + ".py" for name in INFO["hot_modules"](ROOT / "krosbalance")]
    # One group: calls between modules stay native. Its shared library is the top-level module
    # krosbalance__mypyc (beside the package, where mypyc expects it); editable installs map it to the
    # source tree like the package itself.
    start = time.perf_counter()
    SOURCES.update(INFO["source_digests"](ROOT / "krosbalance"))
    modules = mypycify(paths, opt_level="3", group_name="krosbalance")
    if INFO["source_digests"](ROOT / "krosbalance") != SOURCES:
        raise SystemExit("a hot source changed while mypyc read it: build again")
    SECONDS["mypyc"] = round(time.perf_counter() - start, 1)
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
