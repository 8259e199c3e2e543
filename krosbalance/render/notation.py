"""How a replay names a square: ``B3`` is column B (the second from the left) in row 3 (the third
from the top), the way the board pictures draw the board (row 1 at the top).

Cells are ``y * width + x`` inside the engine; players read letters for columns and numbers for
rows, as on a chessboard. The text replay and the replay page use this one notation.
"""

from __future__ import annotations

import string


def column_name(x: int) -> str:
    """``A`` for column 0 … ``Z``, then ``AA``, ``AB`` … (no shipped board is wider than 26)."""
    letters = string.ascii_uppercase
    name = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        name = letters[rest] + name
    return name


def cell_name(cell: int, width: int) -> str:
    """The square of engine cell ``cell`` on a board ``width`` columns wide (``-1``: off the board)."""
    if cell < 0:
        return "off the board"
    y, x = divmod(cell, width)
    return f"{column_name(x)}{y + 1}"
