"""The core's board geometry equals the reference's, table for table, on every board of the registry
(core/src/board against krosbalance/board).

The core never reads a board file: ``native.core_board`` hands it the layers the Python loader read.
Compared per board: distances, neighbours (lists and masks), the cells around each cell, rings, the
line-of-sight paths and corner pairs of every ordered pair of cells, steps, alignment, directions, and
the cells of every area shape for every (caster, target) pair; then line of sight itself against
random blockers, strict and not.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from krosbalance import native
from krosbalance.board import AREA_SHAPES, Board, area_cells
from krosbalance.content.registry import list_boards, load_board

core = pytest.importorskip(
    "krosbalance_core",
    reason="the native core (krosbalance_core) is not installed: `make` builds it when cargo is on PATH",
)

BOARDS = list_boards()


@functools.cache
def both(board_id: str) -> tuple[Board, object]:
    board = load_board(board_id)
    return board, native.core_board(board)


def test_every_registered_board_is_compared():
    assert len(BOARDS) >= 10 and {"arena-elemental", "blast-a", "duel-docks"} <= set(BOARDS)


def test_the_core_knows_every_area_shape():
    assert core.Board.area_shapes() == list(AREA_SHAPES)


@pytest.mark.parametrize("board_id", BOARDS)
def test_distance_neighbour_and_ring_tables(board_id):
    ref, ours = both(board_id)
    assert (ours.id, ours.width, ours.height, ours.n_cells) == (ref.id, ref.width, ref.height, ref.n_cells)
    assert (ours.n_zones, ours.kama_total) == (ref.n_zones, ref.kama_total)
    assert ours.distance_table() == ref.distance
    assert ours.neighbour_table() == [list(cells) for cells in ref.neighbours]
    assert ours.neighbour_masks() == list(ref.neighbour_mask)
    assert ours.square_masks() == list(ref.square_mask)
    assert ours.ring_table() == [[list(ring) for ring in rings] for rings in ref.rings]


@pytest.mark.parametrize("board_id", BOARDS)
def test_line_of_sight_tables(board_id):
    ref, ours = both(board_id)
    assert ours.los_path_table() == ref.los_path
    assert ours.los_corner_table() == ref.los_corners


@pytest.mark.parametrize("board_id", BOARDS)
def test_steps_alignment_and_directions(board_id):
    ref, ours = both(board_id)
    cells = range(ref.n_cells)
    steps = [(dx, dy) for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)]
    assert [ours.step(c, dx, dy) for c in cells for dx, dy in steps] == [
        ref.step(c, dx, dy) for c in cells for dx, dy in steps
    ]
    assert [ours.aligned(a, b) for a in cells for b in cells] == [
        ref.aligned(a, b) for a in cells for b in cells
    ]
    assert [ours.direction(a, b) for a in cells for b in cells] == [
        ref.direction(a, b) for a in cells for b in cells
    ]


@pytest.mark.parametrize("shape", list(AREA_SHAPES))
@pytest.mark.parametrize("board_id", BOARDS)
def test_area_tables(board_id, shape):
    ref, ours = both(board_id)
    cells = range(ref.n_cells)
    expected = [[list(area_cells(ref, shape, caster, target)) for target in cells] for caster in cells]
    assert ours.area_table(shape) == expected
    caster, target = ref.n_cells // 2, ref.n_cells - 1
    assert ours.area_mask(shape, caster, target) == sum(1 << c for c in set(expected[caster][target]))


@settings(max_examples=60)
@given(
    board_id=st.sampled_from(BOARDS), seed=st.integers(0, 2**32), density=st.sampled_from([0.05, 0.2, 0.5])
)
def test_line_of_sight_against_random_blockers(board_id, seed, density):
    ref, ours = both(board_id)
    draw = np.random.default_rng(seed)
    blockers = sum(1 << c for c in range(ref.n_cells) if draw.random() < density)
    for a, b in draw.integers(ref.n_cells, size=(300, 2)).tolist():
        for strict in (False, True):
            assert ours.has_los(a, b, blockers, strict) == ref.has_los(a, b, blockers, strict)


def test_a_hand_built_board_goes_through_the_same_seam():
    ref = Board.from_ascii(
        """
        b b . T
        . B C .
        D 1 2 .
        a a . T
        """
    )
    ours = native.core_board(ref)
    assert ours.los_path_table() == ref.los_path
    assert ours.kama_total == ref.kama_total == 4


def test_boards_the_core_cannot_hold_are_refused():
    with pytest.raises(ValueError, match="more than the core"):
        core.Board(
            "huge",
            20,
            20,
            trees=0,
            bushes=0,
            crates=0,
            demon_cells=0,
            kama_cells={},
            deploy=[0, 0],
            features={},
        )
    with pytest.raises(ValueError, match="outside the board"):
        core.Board(
            "off",
            2,
            2,
            trees=1 << 4,
            bushes=0,
            crates=0,
            demon_cells=0,
            kama_cells={},
            deploy=[0, 0],
            features={},
        )
    with pytest.raises(ValueError, match="non-negative"):
        core.Board(
            "neg",
            2,
            2,
            trees=-1,
            bushes=0,
            crates=0,
            demon_cells=0,
            kama_cells={},
            deploy=[0, 0],
            features={},
        )
    with pytest.raises(ValueError, match="unknown area shape"):
        core.Board(
            "ok", 2, 2, trees=0, bushes=0, crates=0, demon_cells=0, kama_cells={}, deploy=[0, 0], features={}
        ).area_table("blob")
