"""Board geometry: cells as ints, cell sets as bitmasks, distances, adjacency, line of sight, areas.

This layer imports nothing above it (no engine, no pandas/matplotlib) so joblib workers stay light.
"""

from __future__ import annotations

from .areas import AREA_SHAPES, area_cells, area_mask
from .ascii import GLYPHS, Glyph, Layers
from .board import Board, LayoutError
from .geometry import iter_cells, mask_of
from .loader import BOARDS_DIR, board_from_mapping, list_board_files, load_board_file

__all__ = [
    "AREA_SHAPES",
    "BOARDS_DIR",
    "GLYPHS",
    "Board",
    "Glyph",
    "Layers",
    "LayoutError",
    "area_cells",
    "area_mask",
    "board_from_mapping",
    "iter_cells",
    "list_board_files",
    "load_board_file",
    "mask_of",
]
