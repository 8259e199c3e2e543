"""The seam to the native core: the Rust crate in ``core/``, installed as the module ``krosbalance_core``.

The Python engine, rulesets and AIs are the **reference**; the core repeats them in Rust and is held to
them by the suite (``tests/core``). ``make`` builds the core into the venv when ``cargo`` is on PATH and
installs without it otherwise, so the core may be missing: everything here works either way, and
:func:`available` is the one question callers ask. ``KROSBALANCE_ENGINE=reference`` makes the core
unavailable even when installed (``native``, the default, uses it when installed).

The core holds the random streams (numpy's SeedSequence, PCG64 and the Generator draws the reference
uses), the board geometry and whole Arena matches (:mod:`krosbalance.native_match`);
:mod:`krosbalance.engine_choice` decides, match by match, whether the core or the reference plays.

The core is imported on first use, never at import time, and this module imports neither numpy nor
pandas.
"""

from __future__ import annotations

import functools
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from krosbalance.board import Board

#: The environment variable that chooses the engine: ``native`` (the default) or ``reference``.
ENGINE_ENV = "KROSBALANCE_ENGINE"
ENGINES = ("native", "reference")
#: The extension module's name (``core/pyproject.toml``'s ``module-name``).
MODULE = "krosbalance_core"
#: The crate's folder in a checkout (absent from an installed package).
CRATE_DIR: Path = Path(__file__).resolve().parent.parent / "core"

#: What :func:`source_digest` hashes (core/build.rs hashes the same files).
_DIGEST_FILES = ("Cargo.toml", "Cargo.lock", "build.rs", "pyproject.toml")
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1


@functools.cache
def _import() -> ModuleType | None:
    try:
        return importlib.import_module(MODULE)
    except ImportError:
        return None


def module() -> ModuleType | None:
    """The installed core, whatever :data:`ENGINE_ENV` says, or None when it is not installed."""
    return _import()


def installed() -> bool:
    """Whether ``krosbalance_core`` imports."""
    return _import() is not None


def requested_engine() -> str:
    """The engine :data:`ENGINE_ENV` asks for (``native`` when unset or empty).

    Raises:
        ValueError: any other value, so a typo never silently picks an engine.
    """
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "native"
    if value not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}={value!r}: expected one of {', '.join(ENGINES)}")
    return value


def available() -> bool:
    """Whether the core should play: installed and not overridden by ``KROSBALANCE_ENGINE=reference``."""
    return requested_engine() == "native" and installed()


def version() -> str | None:
    """The installed core's version (its Cargo.toml version), or None when it is not installed."""
    core = _import()
    return None if core is None else str(core.__version__)


def why_unavailable() -> str | None:
    """One line saying why the reference engine plays, or None when the core is available."""
    if requested_engine() == "reference":
        return f"{ENGINE_ENV}=reference: the Python reference engine plays"
    if not installed():
        return (
            f"the native core ({MODULE}) is not installed (the install found no cargo): "
            "the Python reference engine plays"
        )
    return None


def core() -> ModuleType:
    """The core module, for callers that have checked :func:`available`.

    Raises:
        RuntimeError: the core is not available (with :func:`why_unavailable`'s reason).
    """
    mod = _import()
    if mod is None or not available():
        raise RuntimeError(why_unavailable())
    return mod


def source_digest(crate: Path = CRATE_DIR) -> str | None:
    """The digest core/build.rs embeds as ``SOURCE_DIGEST``, computed from the crate's files here, or
    None outside a checkout: FNV-1a 64 over each file's relative path, a NUL, its bytes and a NUL,
    sorted by path (Cargo.toml, Cargo.lock, build.rs, pyproject.toml and every ``src/**/*.rs``)."""
    if not (crate / "Cargo.toml").is_file():
        return None
    files = [crate / name for name in _DIGEST_FILES if (crate / name).is_file()]
    files += (crate / "src").rglob("*.rs")
    named = sorted((path.relative_to(crate).as_posix(), path) for path in files)
    digest = _FNV_OFFSET
    for rel, path in named:
        for chunk in (rel.encode(), b"\0", path.read_bytes(), b"\0"):
            for byte in chunk:
                digest = ((digest ^ byte) * _FNV_PRIME) & _MASK64
    return f"{digest:016x}"


def stale() -> bool:
    """Whether the installed core was built from other sources than the checkout's ``core/``
    (False when it is not installed or there is no checkout)."""
    core = _import()
    here = source_digest()
    return core is not None and here is not None and str(core.SOURCE_DIGEST) != here


def core_board(board: Board) -> Any:
    """The core's ``Board`` for a loaded reference :class:`~krosbalance.board.Board`: the layers the
    Python loader read and validated, never the file (one parser)."""
    mod = _import()
    if mod is None:
        raise RuntimeError(why_unavailable())
    return mod.Board(
        board.id,
        board.width,
        board.height,
        trees=board.trees,
        bushes=board.bushes,
        crates=board.crates,
        demon_cells=board.demon_cells,
        kama_cells=dict(board.kama_cells),
        deploy=list(board.deploy),
        features=dict(board.features),
    )
