"""N deployment zones (R-A25, R-A156): glyphs a-d, overlay sides 0-3, per-zone counts, no overlap."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from krosbalance.board import Board, LayoutError, load_board_file
from krosbalance.errors import ContentError

FOUR = '''
id = "four"
name = "Four zones"
source = "test board"

[expect]
deploy = [2, 2, 2, 2]

[grid]
rows = """
. b b .
c . T d
c . 1 .
. a a .
"""

[[overlay]]
x = 2
y = 2
kind = "deploy"
side = 3
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


def test_r_a156_glyphs_c_d_and_overlay_side_3_make_zones_2_and_3(tmp_path: Path) -> None:
    b = load_board_file(write(tmp_path, FOUR))
    assert b.n_zones == 4
    assert b.deploy[0] == (1 << b.cell(1, 3)) | (1 << b.cell(2, 3))  # a: bottom
    assert b.deploy[1] == (1 << b.cell(1, 0)) | (1 << b.cell(2, 0))  # b: top
    assert b.deploy[2] == (1 << b.cell(0, 1)) | (1 << b.cell(0, 2))  # c: left
    assert b.deploy[3] == (1 << b.cell(3, 1)) | (1 << b.cell(2, 2))  # d: right, plus the kama cell
    assert b.kama_cells == {b.cell(2, 2): 1}  # the overlay adds a zone to a kama cell, keeps the kama


def test_r_a156_overlay_side_2_on_a_kama_cell(tmp_path: Path) -> None:
    b = load_board_file(
        write(tmp_path, FOUR.replace("side = 3", "side = 2").replace("2, 2, 2, 2", "2, 2, 3, 1"))
    )
    assert b.deploy[2] >> b.cell(2, 2) & 1 and not b.deploy[3] >> b.cell(2, 2) & 1


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        (
            "deploy = [2, 2, 2, 2]",
            "deploy = [2, 2, 1, 3]",
            "expect.deploy",
            "declared [2, 2, 1, 3] but the grid has [2, 2, 2, 2]",
        ),
        ("deploy = [2, 2, 2, 2]", "deploy = [2, 2]", "expect.deploy", "declared 2 zone count(s)"),
        ("side = 3", "side = 4", "overlay[0].side", "must be a zone from 0 to 3, got 4"),
        ("side = 3", "side = -1", "overlay[0].side", "must be a zone from 0 to 3"),
        ("x = 2\ny = 2", "x = 1\ny = 3", "deploy[3]", "deploy[0] and deploy[3] share cell(s) (x=1, y=3)"),
        (
            "x = 2\ny = 2",
            "x = 0\ny = 1",
            "deploy[3]",
            "deploy[2] and deploy[3] share cell(s) (x=0, y=1) (deployment zones must not overlap)",
        ),
        ("c . T d", "c . T .", "expect.deploy", "declared [2, 2, 2, 2] but the grid has [2, 2, 2, 1]"),
        ("c . T d\nc . 1 .", ". . T d\n. . 1 .", "deploy[2]", "zone 2 has no cells"),
        ("x = 2\ny = 2", "x = 2\ny = 1", "deploy[3]", "trees/bushes and deploy[3] share cell"),
    ],
)
def test_r_a156_zone_errors_name_file_and_field(
    tmp_path: Path, old: str, new: str, field: str, reason: str
) -> None:
    assert old in FOUR
    err = error_of(tmp_path, FOUR.replace(old, new, 1))
    assert err.field == field
    assert reason in err.reason


def test_overlapping_zones_in_code_are_a_layout_error() -> None:
    with pytest.raises(LayoutError, match=r"deploy\[1\] and deploy\[2\] share cell\(s\) \(x=1, y=0\)"):
        Board("x", "x", 2, 2, deploy=(1 << 3, 1 << 1, 1 << 1 | 1 << 0))
    with pytest.raises(LayoutError, match="2 to 4 deployment zones, got 1"):
        Board("x", "x", 2, 2, deploy=(1,))
    with pytest.raises(LayoutError, match="2 to 4 deployment zones, got 5"):
        Board("x", "x", 3, 2, deploy=(1, 2, 4, 8, 16))


def test_a_two_zone_board_loads_as_before() -> None:
    b = Board.from_ascii(". b .\n. . .\n. a .\n")
    assert b.n_zones == 2
    assert b.deploy == (1 << b.cell(1, 2), 1 << b.cell(1, 0))
    empty = Board.from_ascii("...\n")
    assert empty.deploy == (0, 0) and empty.n_zones == 2  # zones 0 and 1 always exist, maybe empty


def test_four_zones_round_trip_through_ascii_layers_and_pickle(tmp_path: Path) -> None:
    no_overlay = FOUR.split("[[overlay]]")[0].replace("2, 2, 2, 2", "2, 2, 2, 1")
    b = load_board_file(write(tmp_path, no_overlay))
    assert b.to_ascii() == ". b b .\nc . T d\nc . 1 .\n. a a .\n"
    assert Board.from_ascii(b.to_ascii(), id=b.id, name=b.name, source=b.source) == b
    assert Board.from_layers(b.layers(), id=b.id) == b
    assert b.layers().deploy == list(b.deploy)
    back = pickle.loads(pickle.dumps(b))
    assert back == b and back.deploy == b.deploy and back.n_zones == 4
    two = Board.from_ascii(". b .\n. a .\n")
    assert two != Board.from_ascii(". b .\nc a .\n")  # the zones are part of the board's identity
    assert pickle.loads(pickle.dumps(two)).deploy == two.deploy
