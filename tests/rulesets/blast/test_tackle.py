"""R-B34-R-B39: the advanced tackle zone and the dodge roll, with scripted dice."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, DODGE, DOFUS, LOCK
from krosbalance.testing.blast import BlastScenario

BOARD = ". . . .\n. . . .\n. . . ."


def in_one_zone(dice: list[int], **options: object) -> tuple[BlastScenario, object]:
    sc = BlastScenario(BOARD, dice=dice, options=dict(options))
    sam = sc.add("sam_sram", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(2, 1))
    sc.activate(sam)
    return sc, sam


def test_r_b36_dodge_face_walks_away() -> None:
    sc, sam = in_one_zone([DODGE])
    sc.move(sam, (0, 1))
    assert sc.xy(sam) == (0, 1) and sam.mp == 3 and sam.ap == 2


def test_r_b36_no_dodge_face_is_grabbed() -> None:
    sc, sam = in_one_zone([ARMOUR])
    sc.move(sam, (0, 1))
    assert sc.xy(sam) == (1, 1)
    assert (sam.mp, sam.ap) == (0, 2)
    assert not sc.can_move(sam, (0, 1))


def test_r_b36_lock_face_is_tackled() -> None:
    sc, sam = in_one_zone([LOCK])
    sc.move(sam, (0, 1))
    assert sc.xy(sam) == (1, 1)
    assert (sam.mp, sam.ap) == (0, 0)


@pytest.mark.parametrize(("face", "free"), [(DOFUS, True), (CRIT_DODGE, True)])
def test_r_b38_advanced_jokers_dodge(face: int, free: bool) -> None:
    sc, sam = in_one_zone([face], dice_faces="advanced")
    sc.move(sam, (0, 1))
    assert (sc.xy(sam) == (0, 1)) == free


@pytest.mark.parametrize("face", [DOFUS, CRIT_DODGE])
def test_r_b38_basic_faces_only_the_dodge_face_frees(face: int) -> None:
    sc, sam = in_one_zone([face], dice_faces="basic")
    sc.move(sam, (0, 1))
    assert sc.xy(sam) == (1, 1)


@pytest.mark.parametrize(
    ("faces", "where", "mp", "ap"),
    [((DODGE, DODGE), (1, 0), 3, 2), ((DODGE, ARMOUR), (1, 1), 0, 2), ((DODGE, LOCK), (1, 1), 0, 0)],
)
def test_r_b37_two_enemies_two_dice(faces: tuple[int, int], where: tuple[int, int], mp: int, ap: int) -> None:
    sc = BlastScenario(BOARD, dice=list(faces))
    sam = sc.add("sam_sram", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(2, 1))
    sc.add("martine_gale", side=1, at=(0, 1))
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sc.xy(sam) == where and (sam.mp, sam.ap) == (mp, ap)
    assert sc.dice.remaining == 0


def test_r_b37_per_enemy_option_rolls_a_die_per_enemy() -> None:
    sc = BlastScenario(BOARD, dice=[DODGE, DODGE, DODGE], options={"tackle_dice_several": "per_enemy"})
    sam = sc.add("sam_sram", side=0, at=(1, 1))
    for at in ((2, 1), (0, 1), (1, 2)):
        sc.add("gege_ronimo" if at == (2, 1) else "martine_gale" if at == (0, 1) else "arielle_fleche", 1, at)
    sc.activate(sam)
    sc.move(sam, (1, 0))
    assert sc.xy(sam) == (1, 0) and sc.dice.remaining == 0


def test_r_b34_invocations_have_no_tackle_zone_but_r_b35_they_roll() -> None:
    sc = BlastScenario(BOARD, dice=[])
    sam = sc.add("sam_sram", side=0, at=(1, 1))
    gege = sc.add("gege_ronimo", side=1, at=(3, 2))
    sc.add("lapino", side=1, at=(2, 1), summoner=gege)
    sc.activate(sam)
    sc.move(sam, (0, 1))  # next to an enemy Invocation only: no roll (the script is empty)
    assert sc.xy(sam) == (0, 1)
    sc2 = BlastScenario(BOARD, dice=[LOCK])
    sc2.add("sam_sram", side=0, at=(0, 1))
    gege2 = sc2.add("gege_ronimo", side=1, at=(2, 1))
    lapino = sc2.add("lapino", side=1, at=(1, 1), summoner=gege2)
    sc2.new_turn(1)
    sc2.activate(lapino)
    sc2.move(lapino, (1, 0))  # the Lapino leaves the zone of Sam Sram: it rolls
    assert sc2.xy(lapino) == (1, 1) and lapino.ap == 0


def test_r_b35_movement_by_an_effect_needs_no_roll() -> None:
    sc = BlastScenario(BOARD, dice=[])
    gege = sc.add("gege_ronimo", side=0, at=(1, 1))
    sc.add("sam_sram", side=1, at=(2, 1))
    sc.activate(gege)
    sc.cast(gege, "bond_imprudent", (1, 0))  # Bond imprudent leaves the zone without a roll
    assert sc.xy(gege) == (1, 0)


def test_r_b39_every_attempt_to_leave_rolls_again() -> None:
    sc = BlastScenario(BOARD, dice=[DODGE, DODGE])
    sam = sc.add("sam_sram", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(2, 1))
    sc.add("martine_gale", side=1, at=(0, 0))
    sc.activate(sam)
    sc.move(sam, (1, 0), (2, 0))  # leaves Gege's zone, then Martine's: one roll each
    assert sc.xy(sam) == (2, 0) and sc.dice.remaining == 0


def test_without_the_tackle_zone_nobody_rolls() -> None:
    sc, sam = in_one_zone([], tackle_zone=False)
    sc.move(sam, (0, 1))
    assert sc.xy(sam) == (0, 1)
