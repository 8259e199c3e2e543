from __future__ import annotations

from krosbalance.render.notation import cell_name, column_name


def test_cells_are_named_by_column_letter_and_row_number_from_the_top_left() -> None:
    assert cell_name(0, 12) == "A1"
    assert cell_name(13, 12) == "B2"
    assert cell_name(11, 12) == "L1"
    assert cell_name(143, 12) == "L12"
    assert cell_name(-1, 12) == "off the board"


def test_columns_past_z_go_on_with_two_letters() -> None:
    assert [column_name(x) for x in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
