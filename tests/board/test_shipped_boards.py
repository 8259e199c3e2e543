"""The shipped board files: they load, respect the box counts, are fair to both sides, stay reachable."""

from __future__ import annotations

import pickle
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from krosbalance.board import BOARDS_DIR, Board, iter_cells, list_board_files, load_board_file
from krosbalance.board.ascii import GLYPHS, Glyph

FILES = list_board_files()
BOARDS = {p.stem: load_board_file(p) for p in FILES}
ARENAS = ["arena-elemental", "arena-pit"]

# external-facts.md, tournament maps (0-based x,y, y downward), from 4err/krosmaster-map-editor js/los.js.
TOURNAMENT_TREES = {
    "bonta-1": {(3, 3), (10, 4), (6, 5), (5, 6), (1, 7), (8, 8)},
    "bonta-2": {(3, 2), (6, 3), (9, 5), (8, 9), (5, 8), (2, 6)},
    "frigost-1": {(1, 4), (5, 2), (9, 3), (10, 7), (6, 9), (2, 8)},
    "frigost-2": {(2, 7), (5, 5), (5, 6), (6, 6), (6, 5), (9, 4)},
}


def cells_xy(board: Board, mask: int) -> set[tuple[int, int]]:
    return {board.xy(c) for c in iter_cells(mask)}


def test_every_expected_board_is_shipped() -> None:
    assert all(p.parent == BOARDS_DIR for p in FILES)
    assert {*ARENAS, *TOURNAMENT_TREES, "test-open-5x5"} <= set(BOARDS)
    for stem, board in BOARDS.items():
        assert board.id == stem  # the file name is the id
        assert board.source


@pytest.mark.parametrize("bid", ARENAS)
def test_r_a21_arena_box_counts(bid: str) -> None:
    b = BOARDS[bid]
    assert (b.width, b.height) == (12, 12)
    assert (b.trees.bit_count(), b.bushes.bit_count(), b.crates.bit_count()) == (8, 8, 4)
    assert b.demon_cells.bit_count() >= 1
    assert 2 in b.kama_cells.values()  # R-A2: some kama cells show 2 kamas
    assert b.kama_total <= 54  # the box has 54 kama tokens (R-A1)
    assert b.source.startswith("assumed layout")


def mirror_y(b: Board, c: int) -> int:
    x, y = b.xy(c)
    return b.cell(x, b.height - 1 - y)


def rotate_180(b: Board, c: int) -> int:
    x, y = b.xy(c)
    return b.cell(b.width - 1 - x, b.height - 1 - y)


Symmetry = Callable[[Board, int], int]


def image(b: Board, mask: int, f: Symmetry) -> int:
    return sum(1 << f(b, c) for c in iter_cells(mask))


@pytest.mark.parametrize(
    ("bid", "sym"), [(a, mirror_y) for a in ARENAS] + [(t, rotate_180) for t in TOURNAMENT_TREES]
)
def test_boards_are_fair_to_both_sides(bid: str, sym: Symmetry) -> None:
    """Arena boards mirror under y -> 11-y; tournament maps are point symmetric like their trees."""
    b = BOARDS[bid]
    for mask in (b.trees, b.bushes, b.crates, b.demon_cells):
        assert image(b, mask, sym) == mask
    assert image(b, b.deploy[0], sym) == b.deploy[1]
    assert {sym(b, c): n for c, n in b.kama_cells.items()} == b.kama_cells


@pytest.mark.parametrize("bid", [*ARENAS, *TOURNAMENT_TREES])
def test_r_a25_deployment_in_the_two_nearest_rows(bid: str) -> None:
    b = BOARDS[bid]
    assert {y for _, y in cells_xy(b, b.deploy[0])} <= {10, 11}
    assert {y for _, y in cells_xy(b, b.deploy[1])} <= {0, 1}
    assert 6 <= b.deploy[0].bit_count() == b.deploy[1].bit_count() <= 8
    assert not (b.deploy[0] | b.deploy[1]) & b.obstacles


@pytest.mark.parametrize("bid", list(TOURNAMENT_TREES))
def test_tournament_trees_exactly_as_listed(bid: str) -> None:
    b = BOARDS[bid]
    assert cells_xy(b, b.trees) == TOURNAMENT_TREES[bid]
    assert "assumed" in b.source


def reachable(b: Board, start: int) -> int:
    """Cells reachable from ``start`` through non-obstacle cells (R-A7: trees and bushes block)."""
    seen = 1 << start
    frontier = [start]
    while frontier:
        nxt = []
        for c in frontier:
            new = b.neighbour_mask[c] & ~b.obstacles & ~seen
            seen |= new
            nxt.extend(iter_cells(new))
        frontier = nxt
    return seen


@pytest.mark.parametrize("bid", sorted(BOARDS))
def test_every_free_cell_reachable_from_every_deployment_cell(bid: str) -> None:
    b = BOARDS[bid]
    free = b.all_cells & ~b.obstacles
    for d in iter_cells(sum(b.deploy)):  # zones are disjoint, so the sum is their union
        assert reachable(b, d) == free, (bid, b.xy(d))


FOUR_PLAYER = [*ARENAS, *TOURNAMENT_TREES]


def test_only_the_arena_boards_have_four_player_zones() -> None:
    """R-A156: the six Arena boards seat four players; Blast and test boards keep their two zones."""
    assert {bid for bid, b in BOARDS.items() if b.n_zones == 4} == set(FOUR_PLAYER)
    assert all(b.n_zones == 2 for bid, b in BOARDS.items() if bid not in FOUR_PLAYER)


@pytest.mark.parametrize("bid", FOUR_PLAYER)
def test_r_a156_four_disjoint_start_zones_on_free_reachable_cells(bid: str) -> None:
    b = BOARDS[bid]
    assert b.n_zones == 4
    free = b.all_cells & ~b.obstacles
    scenery = b.crates | b.demon_cells | sum(1 << c for c in b.kama_cells)
    for i, zone in enumerate(b.deploy):
        assert zone.bit_count() >= 4, (bid, i)  # R-A150: a four-player team has 1-4 Krosmasters
        assert zone & free == zone, (bid, i)
        assert all(reachable(b, c) == free for c in iter_cells(zone)), (bid, i)
        for other in b.deploy[i + 1 :]:
            assert not zone & other
    # Zones 2 and 3 take only bare cells: no crate, Demon cell or kama cell under them.
    assert not (b.deploy[2] | b.deploy[3]) & scenery
    # Zone 2 on the left edge, zone 3 on the right edge, both in the middle rows.
    assert {x for x, _ in cells_xy(b, b.deploy[2])} <= {0, 1}
    assert {x for x, _ in cells_xy(b, b.deploy[3])} <= {10, 11}
    assert {y for _, y in cells_xy(b, b.deploy[2] | b.deploy[3])} <= {4, 5, 6, 7}
    assert "assumed: four-player start zones" in b.source and "R-A156" in b.source


def mirror_x(b: Board, c: int) -> int:
    x, y = b.xy(c)
    return b.cell(b.width - 1 - x, y)


@pytest.mark.parametrize(
    ("bid", "sym"), [(a, mirror_y) for a in ARENAS] + [(t, rotate_180) for t in TOURNAMENT_TREES]
)
def test_r_a156_left_and_right_zones_mirror_each_other(bid: str, sym: Symmetry) -> None:
    """Zone 3 is zone 2 under x -> 11-x; on the point-symmetric tournament maps it is also zone 2's
    image under the board's own symmetry (the seats facing each other get the same board); on the
    y-mirrored Arena boards each side zone maps onto itself."""
    b = BOARDS[bid]
    assert image(b, b.deploy[2], mirror_x) == b.deploy[3]
    if sym is rotate_180:
        assert image(b, b.deploy[2], sym) == b.deploy[3]
    else:
        assert image(b, b.deploy[2], sym) == b.deploy[2]
        assert image(b, b.deploy[3], sym) == b.deploy[3]


@pytest.mark.parametrize("bid", sorted(BOARDS))
def test_shipped_boards_pickle_with_their_zones(bid: str) -> None:
    b = BOARDS[bid]
    back = pickle.loads(pickle.dumps(b))
    assert back == b and back.deploy == b.deploy and back.n_zones == b.n_zones


def visible_count(b: Board, xy: tuple[int, int], strict: bool = False) -> int:
    a = b.cell(*xy)
    return sum(b.has_los(a, t, b.trees, strict) for t in range(b.n_cells))


# Golden line-of-sight numbers (static trees only), computed once; a change means the LOS code or the
# board changed: check which, then update deliberately.
GOLDEN_ELEMENTAL = {
    (0, 0): (83, 83),
    (6, 3): (90, 89),
    (3, 7): (87, 87),
    (11, 11): (87, 86),
    (7, 5): (81, 77),
}


def test_golden_los_arena_elemental() -> None:
    b = BOARDS["arena-elemental"]
    for xy, (loose, strict) in GOLDEN_ELEMENTAL.items():
        assert (visible_count(b, xy), visible_count(b, xy, strict=True)) == (loose, strict), xy
    total = sum(b.has_los(a, t, b.trees) for a in range(b.n_cells) for t in range(b.n_cells))
    assert total == 11824


def test_golden_los_frigost_2_totals() -> None:
    b = BOARDS["frigost-2"]
    pairs = [(a, t) for a in range(b.n_cells) for t in range(b.n_cells)]
    assert sum(b.has_los(a, t, b.trees) for a, t in pairs) == 13896
    assert sum(b.has_los(a, t, b.trees, strict=True) for a, t in pairs) == 13892


def test_board_files_round_trip_through_ascii() -> None:
    """Every grid the files draw is what the loader built (overlay cells aside)."""
    for path in FILES:
        b = BOARDS[path.stem]
        text = Path(path).read_text()
        rows = text.split('rows = """', 1)[1].split('"""', 1)[0]
        extra = tomllib.loads(text).get("glyphs", {})  # a ruleset's own glyphs (Blast glyph cells)
        glyphs = {**GLYPHS, **{ch: Glyph("feature", name) for ch, name in extra.items()}}
        drawn = ["".join(r.split()) for r in b.to_ascii(glyphs).splitlines()]
        written = ["".join(r.split()) for r in rows.strip().splitlines()]
        diff = [
            (x, y)
            for y, (p, q) in enumerate(zip(drawn, written, strict=True))
            for x in range(len(p))
            if p[x] != q[x]
        ]
        # Only overlay cells may draw differently (a crate drawn over its kama cell).
        assert all(b.crates & (1 << b.cell(x, y)) for x, y in diff), (path.stem, diff)
