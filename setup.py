"""Compiles the hot layers (engine, board, content, rulesets, ai) with mypyc; the metadata is in pyproject.toml.

``pip install .`` and ``pip install -e .`` build them compiled. ``KROSBALANCE_PURE=1`` at install time
gives the pure-Python build instead (identical results; no rebuild after an edit), and removes any
compiled modules an earlier editable build left in the source tree, so that the pure build is pure.

mypyc writes one C file per module, compiled once, on every core. ``KROSBALANCE_PGO=1`` (``make
build-pgo``) asks for a profile-guided build with GCC: the C code is compiled with instrumentation,
trained on a few seconds of matches (``krosbalance.tools.profile_workload``) and compiled again with
that profile, a little faster at the same results but twice the compile time, which is why a first
``make run`` does not pay for it. A build whose training fails falls back to the plain build, with
a warning.

A compiled build also writes ``krosbalance/_compiled_sources.json``: the SHA-256 of every source it
compiled, so ``krosbalance.build_info`` can tell which build is installed and whether a source was
edited after it was compiled (see the README, "Build").
"""

import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
INFO = runpy.run_path(str(ROOT / "krosbalance" / "build_info.py"))
PURE = os.environ.get(INFO["PURE_ENV"], "").strip() not in ("", "0")
PGO = os.environ.get(INFO["PGO_ENV"], "0").strip() not in ("", "0")
SECONDS: dict = {}  # build time by step, recorded in the manifest
SOURCES: dict = {}  # the digests of the sources mypyc compiled, recorded in the manifest


class BuildExt(build_ext):
    """build_ext that records the hashes of the compiled sources beside the compiled package."""

    def run(self) -> None:
        start = time.perf_counter()
        gcc = bool(self.extensions) and INFO["c_compiler_is_gcc"]()
        if gcc:
            for ext in self.extensions:
                # position-independent code may not assume its own functions are the ones called (a
                # library loaded first could interpose them): calls between the compiled modules and
                # into mypyc's runtime would go through the PLT and never be inlined. Nothing outside
                # calls them by name (each module's PyInit_ is exported as Python requires; the
                # modules reach the shared library through a capsule), so none is exported.
                flags = ["-fno-semantic-interposition", "-fvisibility=hidden"]
                ext.extra_compile_args = [
                    *ext.extra_compile_args,
                    *(f for f in flags if f not in ext.extra_compile_args),
                ]
        if gcc and PGO:
            self._profile_guided()
        else:
            super().run()
        if not self.extensions:
            return
        SECONDS["cc"] = round(time.perf_counter() - start - SECONDS.get("pgo_training", 0.0), 1)
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

    def build_extension(self, ext) -> None:
        """Compile the C files of one extension on every core (mypyc writes one per module), then
        link them as usual."""
        jobs = os.cpu_count() or 1
        if len(ext.sources) < 2 or jobs < 2:
            super().build_extension(ext)
            return
        compile_one = self.compiler.compile

        def compile_all(sources: list, *args, **kwargs) -> list:
            # the largest first, so that no core is left with one big file at the end
            order = sorted(range(len(sources)), key=lambda i: -os.path.getsize(sources[i]))
            with ThreadPoolExecutor(jobs) as pool:
                futures = {i: pool.submit(compile_one, [sources[i]], *args, **kwargs) for i in order}
            return [obj for i in range(len(sources)) for obj in futures[i].result()]

        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            del self.compiler.compile  # the compiler's own method again

    def _profile_guided(self) -> None:
        """Compile with instrumentation, play the training workload on that build, compile again with
        the profile it recorded; a plain build when the training fails."""
        self._compiler_option = self.compiler  # run() replaces the option with the compiler it made
        profiles = Path(tempfile.mkdtemp(prefix="krosbalance-pgo-"))
        try:
            try:
                self._compile_with(
                    [f"-fprofile-generate={profiles}", "-fprofile-update=single"], ["-fprofile-generate"]
                )
            except Exception as exc:  # noqa: BLE001 - any failure: the plain build still works
                self._compile_with([], [], f"the instrumented build failed ({exc})")
                return
            start = time.perf_counter()
            failure = self._train()
            training = round(time.perf_counter() - start, 1)
            if failure:
                self._compile_with([], [], f"the training failed:\n{failure}")
                return
            use = [f"-fprofile-use={profiles}", "-fprofile-partial-training", "-Wno-missing-profile"]
            try:
                self._compile_with(use, [])
            except Exception as exc:  # noqa: BLE001
                self._compile_with([], [], f"the build with the profile failed ({exc})")
                return
            SECONDS["pgo_training"] = training  # the manifest's mark of a profile-guided build
        finally:
            shutil.rmtree(profiles, ignore_errors=True)

    def _compile_with(self, compile_args: list, link_args: list, fallback: str = "") -> None:
        """Build every extension again, with these flags added (``fallback``: why the profile-guided
        build gave up, printed as a warning before this plain build)."""
        if fallback:
            print(f"warning: building without a profile: {fallback}", file=sys.stderr)
        saved = [(ext.extra_compile_args, ext.extra_link_args) for ext in self.extensions]
        for ext in self.extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_args]
            ext.extra_link_args = [*ext.extra_link_args, *link_args]
        self.force = True
        self.compiler = self._compiler_option
        try:
            super().run()
        finally:
            for ext, (compile_saved, link_saved) in zip(self.extensions, saved, strict=True):
                ext.extra_compile_args, ext.extra_link_args = compile_saved, link_saved

    def _train(self) -> str:
        """Play the profile workload on the instrumented build just made (in the source tree for an
        in-place build, else in the build folder beside the copied sources); what went wrong, or
        an empty string."""
        root = ROOT if self.inplace else Path(self.build_lib).resolve()
        env = {k: v for k, v in os.environ.items() if k not in (INFO["PURE_ENV"], "KROSBALANCE_EXPECT_BUILD")}
        # the package first, then what this build sees (pip's isolated build environment lends
        # numpy and mypy_extensions to a venv that has nothing installed yet)
        env["PYTHONPATH"] = os.pathsep.join([str(root), *(p for p in sys.path if p)])
        command = [sys.executable, "-m", "krosbalance.tools.profile_workload"]
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return (done.stderr or done.stdout)[-2000:]
        print(done.stdout.strip())
        return ""


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
    # One C file per module (multi_file), compiled on every core (BuildExt.build_extension); with the
    # profile-guided build that is faster, both to build and to run, than one file for the group.
    modules = mypycify(paths, opt_level="3", group_name="krosbalance", multi_file=True)
    if INFO["source_digests"](ROOT / "krosbalance") != SOURCES:
        raise SystemExit("a hot source changed while mypyc read it: build again")
    SECONDS["mypyc"] = round(time.perf_counter() - start, 1)
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
