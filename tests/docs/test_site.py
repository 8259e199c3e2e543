"""The documentation site builds strictly (``mkdocs build --strict``: a broken link, a page missing
from the nav, a reference page whose words drifted from the code's tables, a docstring mkdocstrings
cannot read — each fails), and the generated reference pages hold what the code registers.

``make test`` installs the ``docs`` extra and sets KROSBALANCE_REQUIRE_DOCS, so there a missing mkdocs
fails instead of skipping. The build takes about 7 s.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MISSING = importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None
if MISSING and os.environ.get("KROSBALANCE_REQUIRE_DOCS"):
    pytest.fail("mkdocs is not installed: `make test` installs the docs extra", pytrace=False)
pytestmark = pytest.mark.skipif(MISSING, reason="the docs extra is not installed (make docs)")


def _generator():  # the hook, imported the way mkdocs does (a file, not a package)
    spec = importlib.util.spec_from_file_location("docs_reference", ROOT / "docs" / "gen" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    for page in ("reference/cli", "reference/experiment-keys", "explanation/assumed-values", "reference/api"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page


def test_generated_pages_follow_the_registries() -> None:
    from krosbalance.ai.registry import list_ais
    from krosbalance.rulesets.registry import list_rulesets
    from krosbalance.sim.experiment import TOP_KEYS

    gen = _generator()
    assert all(f"`{name}`" in gen.ais() for name in list_ais())
    options = gen.ruleset_options()
    assert all(f"## {name} " in options for name in list_rulesets())
    keys = gen.experiment_keys()
    assert all(f"`{key}`" in keys for key in TOP_KEYS)
    assert "## `krosbalance run`" in gen.cli()
    assert "assumed" in gen.assumed_values()


def test_a_key_without_words_fails_the_build() -> None:
    gen = _generator()
    with pytest.raises(RuntimeError, match="no words for \\['new_key'\\]"):
        gen._checked("TOP_KEYS", ["name", "new_key"], {"name": "x"})
