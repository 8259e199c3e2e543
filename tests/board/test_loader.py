"""The TOML board loader: good files build, every bad file names the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.board import load_board_file
from krosbalance.errors import ContentError

GOOD = '''
id = "tiny"
name = "Tiny"
source = "test board"
width = 4
height = 3

[expect]
trees = 1
bushes = 1
crates = 1
demon_cells = 1
kama_cells = 2
kama_tokens = 3
deploy = [1, 1]

[glyphs]
G = "glyph"

[grid]
rows = """
b . T 1
. D B G
a . 2 .
"""

[[overlay]]
x = 2
y = 2
kind = "crate"
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def error_of(tmp_path: Path, text: str) -> ContentError:
    path = write(tmp_path, text)
    with pytest.raises(ContentError) as info:
        load_board_file(path)
    assert info.value.file == str(path)
    return info.value


def test_good_file_loads(tmp_path: Path) -> None:
    b = load_board_file(write(tmp_path, GOOD))
    assert (b.id, b.name, b.width, b.height) == ("tiny", "Tiny", 4, 3)
    assert b.crates == 1 << b.cell(2, 2) and b.kama_cells[b.cell(2, 2)] == 2  # crate on a kama cell
    assert b.features == {"glyph": 1 << b.cell(3, 1)}
    assert b.deploy == (1 << b.cell(0, 2), 1 << b.cell(0, 0))


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('id = "tiny"\n', "", "id", "missing"),
        ('name = "Tiny"', "name = 3", "name", "must be str"),
        ("b . T 1", "b . T", "grid.rows", "ragged"),
        ("a . 2 .", "a . 2 X", "grid.rows", "row y=2, column x=3: unknown glyph 'X'"),
        ("trees = 1", "trees = 2", "expect.trees", "declared 2 but the grid has 1"),
        ("deploy = [1, 1]", "deploy = [2, 1]", "expect.deploy", "declared"),
        ("kama_tokens = 3", "kama_tokens = 4", "expect.kama_tokens", "declared"),
        ("width = 4", "width = 5", "width", "declared 5"),
        ('kind = "crate"', 'kind = "lava"', "overlay[0].kind", "unknown kind"),
        ("x = 2\n", "x = 9\n", "overlay[0]", "outside"),
        ("x = 2\n", "", "overlay[0].x", "missing"),
        ('G = "glyph"', 'T = "glyph"', "glyphs.T", "built-in"),
        ('x = 2\ny = 2\nkind = "crate"', 'x = 0\ny = 0\nkind = "tree"', "deploy[1]", "share cell"),
        ('kind = "crate"', 'kind = "bush"', "kama_cells", "share cell"),  # a bush on a kama cell
        ('source = "test board"', 'source = "test board"\ncolour = "red"', "colour", "unknown key"),
    ],
)
def test_loader_errors_name_file_and_field(
    tmp_path: Path, old: str, new: str, field: str, reason: str
) -> None:
    assert old in GOOD
    err = error_of(tmp_path, GOOD.replace(old, new, 1))
    assert err.field == field
    assert reason in err.reason
    assert str(err).startswith(f"{tmp_path / 'board.toml'}: {field}: ")


def test_loader_rejects_bad_toml_and_missing_file(tmp_path: Path) -> None:
    assert error_of(tmp_path, "id = ").field == "<toml>"
    with pytest.raises(ContentError, match="cannot read"):
        load_board_file(tmp_path / "nope.toml")
