"""R-B14-R-B16: glyph capture and the Dofus token."""

from __future__ import annotations

import pytest

from krosbalance.testing.blast import BlastScenario

BOARD = ". G . .\n. . . .\n. . G ."


def scenario(**kw: object) -> tuple[BlastScenario, object]:
    sc = BlastScenario(BOARD, options={"tackle_zone": False}, **kw)  # type: ignore[arg-type]
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(3, 0))
    sc.activate(sam)
    return sc, sam


def test_r_b14_walking_onto_a_glyph_cell_captures_it_and_it_stays_free() -> None:
    sc, sam = scenario()
    sc.move(sam, (1, 0))
    assert sc.glyph_count(0) == 1
    sc.move(sam, (1, 1))
    assert sc.glyph_count(0) == 1  # the tile stays when the Krosmaster leaves
    sc.move(sam, (1, 0), (2, 0))  # and the cell can be crossed again
    assert sc.xy(sam) == (2, 0)


def test_r_b14_capturing_the_opponents_glyph_flips_it() -> None:
    sc, sam = scenario()
    sc.own(1, (1, 0))
    sc.move(sam, (1, 0))
    assert (sc.glyph_count(0), sc.glyph_count(1)) == (1, 0)
    assert sc.events("glyph_captured")[-1].flipped  # type: ignore[attr-defined]


def test_r_b14_invocations_never_capture() -> None:
    sc = BlastScenario(BOARD, options={"tackle_zone": False})
    martine = sc.add("martine_gale", side=0, at=(3, 2))
    pupuce = sc.add("pupuce", side=0, at=(0, 0), summoner=martine)
    sc.add("gege_ronimo", side=1, at=(3, 0))
    sc.activate(pupuce)
    sc.move(pupuce, (1, 0))
    assert sc.glyph_count(0) == 0


def test_r_b15_the_capturing_player_takes_the_dofus_token() -> None:
    sc, sam = scenario(dofus=1)
    sc.move(sam, (1, 0))
    assert sc.bs.dofus == 0


def test_r_b15_not_during_the_first_players_first_turn() -> None:
    sc, sam = scenario(dofus=1, turn=1)
    sc.move(sam, (1, 0))
    assert sc.glyph_count(0) == 1 and sc.bs.dofus == 1


@pytest.mark.parametrize("option", [True, False])
def test_r_b16_capture_by_a_spell_movement_is_an_option(option: bool) -> None:
    sc = BlastScenario(BOARD, options={"glyph_capture_by_effect": option})
    gege = sc.add("gege_ronimo", side=0, at=(0, 0))
    sc.add("sam_sram", side=1, at=(3, 2))
    sc.activate(gege)
    sc.cast(gege, "bond_imprudent", (1, 0))  # Bond imprudent: moves into the targeted cell
    assert sc.glyph_count(0) == (1 if option else 0)


@pytest.mark.parametrize("option", [True, False])
def test_r_b16_capture_by_an_ice_slide_is_an_option(option: bool) -> None:
    sc = BlastScenario(". . G .\n. . . .", options={"glyph_capture_by_slide": option, "tackle_zone": False})
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(3, 1))
    sc.tile("ice", (1, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0))  # slides onto the glyph cell (2, 0)
    assert sc.xy(sam) == (2, 0)
    assert sc.glyph_count(0) == (1 if option else 0)


def test_territorial_gives_gege_a_marker_at_once_on_each_capture() -> None:
    sc = BlastScenario(BOARD, options={"tackle_zone": False})
    gege = sc.add("gege_ronimo", side=0, at=(0, 0))
    sc.add("sam_sram", side=1, at=(3, 2))
    sc.activate(gege)
    assert gege.mp == 2
    sc.move(gege, (1, 0))
    assert gege.mp == 2  # spent 1, gained 1 at once (R-B26: during its own activation)
