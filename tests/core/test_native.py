"""The seam to the native core (krosbalance/native.py) and the build that installs it.

``make test`` sets ``KROSBALANCE_EXPECT_CORE=1`` when cargo is on PATH (the install then builds the
core), so a core that silently failed to build, or was built from other sources than the checkout's,
fails here instead of every core test skipping. Without cargo it sets ``0`` and the reference engine
plays alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import pytest

from krosbalance import native
from krosbalance.board import Board


def crate_version() -> str:
    return str(tomllib.loads((native.CRATE_DIR / "Cargo.toml").read_text())["package"]["version"])


def test_the_core_is_installed_when_the_build_expects_it():
    expected = os.environ.get("KROSBALANCE_EXPECT_CORE")
    if expected is None:
        pytest.skip("KROSBALANCE_EXPECT_CORE is not set (make test sets it)")
    if expected != "1":
        pytest.skip("no cargo on PATH when make installed: the reference engine alone")
    assert native.installed(), (
        "cargo is on PATH but krosbalance_core does not import: the core's build failed "
        "or was skipped (rebuild with `make build`)"
    )
    assert native.version() == crate_version()
    assert not native.stale(), "the installed core is older than core/: rebuild with `make build`"


def test_an_installed_core_is_built_from_the_checkouts_sources():
    if not native.installed():
        pytest.skip("the native core (krosbalance_core) is not installed")
    if native.source_digest() is None:
        pytest.skip("no crate sources next to the package (not a checkout)")
    assert native.source_digest() == native.module().SOURCE_DIGEST, (
        "core/ changed since the installed core was built: rebuild with `make build`"
    )


def test_the_environment_variable_forces_the_reference(monkeypatch):
    monkeypatch.setenv(native.ENGINE_ENV, "reference")
    assert native.requested_engine() == "reference"
    assert not native.available()
    assert "KROSBALANCE_ENGINE=reference" in native.why_unavailable()
    with pytest.raises(RuntimeError, match="reference"):
        native.core()
    monkeypatch.setenv(native.ENGINE_ENV, "Native ")
    assert native.available() == native.installed()
    monkeypatch.delenv(native.ENGINE_ENV)
    assert native.requested_engine() == "native"
    assert native.available() == native.installed()
    assert (native.why_unavailable() is None) == native.installed()


def test_a_misspelt_engine_is_an_error(monkeypatch):
    monkeypatch.setenv(native.ENGINE_ENV, "rust")
    with pytest.raises(ValueError, match="native, reference"):
        native.available()


def test_without_the_core_the_seam_says_why(monkeypatch):
    monkeypatch.delenv(native.ENGINE_ENV, raising=False)
    monkeypatch.setattr(native, "_import", lambda: None)
    assert not native.installed() and not native.available()
    assert native.version() is None and not native.stale()
    assert "not installed" in native.why_unavailable()
    with pytest.raises(RuntimeError, match="not installed"):
        native.core_board(Board.from_ascii("a\nb"))


def test_the_seam_imports_neither_pandas_nor_matplotlib_nor_the_core():
    code = (
        "import sys, krosbalance.native as n; "
        "print(sorted(m for m in ('pandas', 'matplotlib', 'krosbalance_core') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_source_digest_follows_the_crates_files(tmp_path):
    crate = tmp_path / "core"
    (crate / "src" / "board").mkdir(parents=True)
    (crate / "Cargo.toml").write_text("[package]\n")
    (crate / "src" / "lib.rs").write_text("// one\n")
    first = native.source_digest(crate)
    (crate / "src" / "board" / "mod.rs").write_text("// two\n")
    second = native.source_digest(crate)
    (crate / "src" / "notes.md").write_text("not a source\n")
    assert first != second == native.source_digest(crate)
    assert native.source_digest(tmp_path / "nowhere") is None
