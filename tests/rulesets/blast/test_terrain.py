"""R-B44-R-B48: Ice, Fire and Fog tiles, with scripted dice where a roll could happen."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import CRITICAL
from krosbalance.errors import IllegalActionError
from krosbalance.testing.blast import BlastScenario

ROW = ". . . . .\n. . . . ."


def walker(board: str = ROW, **options: object) -> tuple[BlastScenario, object]:
    sc = BlastScenario(board, options={"tackle_zone": False, **options})
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(4, 1))
    return sc, sam


def test_r_b46_ice_slides_one_more_cell_the_same_way_for_free() -> None:
    sc, sam = walker()
    sc.tile("ice", (1, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sc.xy(sam) == (2, 0) and sam.mp == 3


def test_r_b46_a_blocked_slide_leaves_the_piece_on_the_ice() -> None:
    sc, sam = walker(". . T . .\n. . . . .")
    sc.tile("ice", (1, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sc.xy(sam) == (1, 0)


@pytest.mark.parametrize(("chain", "end"), [(True, (3, 0)), (False, (2, 0))])
def test_r_b46_chained_ice_is_an_option(chain: bool, end: tuple[int, int]) -> None:
    sc, sam = walker(ice_slide_chain=chain)
    sc.tile("ice", (1, 0), (2, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sc.xy(sam) == end


def test_r_b47_fire_injures_whoever_enters_and_stays() -> None:
    sc, sam = walker()
    sc.tile("fire", (1, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sam.injuries == 2
    sc.move(sam, (2, 0), (1, 0))
    assert sam.injuries == 4
    assert sc.bs.tiles[1] == [sc.cell(1, 0)]


def test_r_b47_fire_combat_roll_option() -> None:
    sc = BlastScenario(ROW, dice=[CRITICAL], options={"tackle_zone": False, "fire_combat_roll": True})
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(4, 1))
    sc.tile("fire", (1, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sam.injuries == 3


def test_r_b48_fog_blocks_sight_and_dissipates_when_entered() -> None:
    sc = BlastScenario(ROW, options={"tackle_zone": False})
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(3, 0))
    sc.tile("fog", (2, 0))
    sc.activate(martine)
    assert not sc.can_cast(martine, "roulette_de_chat", (3, 0))
    sc.move(martine, (1, 0), (2, 0))
    assert sc.bs.tiles[2] == []
    sc.move(martine, (1, 0))
    assert sc.can_cast(martine, "roulette_de_chat", (3, 0))


def test_r_b44_tiles_go_only_on_free_cells_that_are_no_glyph_and_no_tile() -> None:
    sc = BlastScenario(". G . T\n. . . .", favors=("vague_de_froid", None), dofus=0)
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(3, 1))
    sc.tile("fire", (2, 1))
    sc.activate(sam)
    for where in ((1, 0), (3, 0), (3, 1), (0, 0), (2, 1)):  # glyph, tree, Krosmaster x2, tile
        assert not sc.can(sam, sc.favor_action(0, where)), where
    sc.use_favor(sam, 0, (2, 0))
    assert sc.bs.tiles[0] == [sc.cell(2, 0)]
    assert sam.ap == 2  # the Dofus holder pays 0 AP


def test_r_b45_a_fifth_tile_first_removes_one_of_its_type_chosen_by_the_player() -> None:
    sc = BlastScenario(". . . . . .\n. . . . . .", favors=("brasero", None), dofus=0)
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(5, 1))
    sc.tile("fire", (1, 1), (2, 1), (3, 1), (4, 1))
    sc.tile("ice", (1, 0))
    sc.activate(sam)
    with pytest.raises(IllegalActionError):
        sc.use_favor(sam, 0, (3, 0))  # at the limit a removed tile must be named
    assert not sc.can(sam, sc.favor_action(0, (3, 0), removed=(1, 0)))  # not an Ice tile
    sc.use_favor(sam, 0, (3, 0), removed=(2, 1))
    assert sorted(sc.bs.tiles[1]) == sorted(sc.cell(*xy) for xy in ((1, 1), (3, 1), (4, 1), (3, 0)))
    assert len(sc.bs.tiles[0]) == 1
