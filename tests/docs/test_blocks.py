"""The README's quick start and the tutorial's Python blocks run as written, so they cannot rot.

Each page's blocks run in order in one namespace, in a fresh folder where ``simulations/`` is the
repository's (the blocks write ``results/`` and ``reports/`` as a user would). A ``pycon`` block is a
doctest (its printed output is checked, whitespace normalised, ``...`` matching anything); a
``python`` block is executed. The site's own strict build is ``test_site.py``.
"""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "tutorial").glob("*.md"))]
FENCE = re.compile(r"^```(pycon|python)\n(.*?)^```", re.S | re.M)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def blocks(page: Path) -> list[tuple[str, str, int]]:
    """The page's (kind, code, first line) Python blocks, in order."""
    text = page.read_text(encoding="utf-8")
    return [(m[1], m[2], text.count("\n", 0, m.start()) + 2) for m in FENCE.finditer(text)]


def test_the_pages_have_blocks() -> None:
    assert any(kind == "pycon" for kind, _, _ in blocks(ROOT / "README.md"))
    assert [page.name for page in PAGES if blocks(page)], "no tutorial page has a Python block"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_blocks_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = blocks(page)
    if not found:
        pytest.skip("no Python block")
    (tmp_path / "simulations").symlink_to(ROOT / "simulations")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    globs: dict[str, object] = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    name = page.relative_to(ROOT).as_posix()
    for kind, code, line in found:
        where = f"{name}:{line}"
        if kind == "python":
            exec(compile(code, where, "exec"), globs)  # noqa: S102 - the page's own example
            continue
        test = parser.get_doctest(code, globs, where, str(page), line - 1)
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        runner.run(test, out=report.append, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs on a copy: the next block sees what this one made
        if runner.failures:
            pytest.fail(f"{where}: a doctest block fails:\n" + "".join(report))
    assert os.getcwd() == str(tmp_path)
