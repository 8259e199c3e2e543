"""R-B22, R-B23, R-B25, R-B29-R-B33: casting in Blast, and the combat roll with scripted dice."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import ARMOUR, CRIT_DODGE, CRITICAL, DODGE, DOFUS, LOCK
from krosbalance.testing.blast import BlastScenario

LINE = ". . . . . ."


def duel(dice: list[int], **options: object) -> tuple[BlastScenario, object, object]:
    sc = BlastScenario(LINE, dice=dice, options=dict(options))
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    gege = sc.add("gege_ronimo", side=1, at=(2, 0))
    sc.activate(martine)
    return sc, martine, gege


@pytest.mark.parametrize(
    ("face", "wounds"),
    [(CRITICAL, 2), (CRIT_DODGE, 2), (ARMOUR, 0), (LOCK, 1), (DODGE, 1), (DOFUS, 1)],
)
def test_r_b30_roulette_de_chat_example_basic_faces(face: int, wounds: int) -> None:
    """The rulebook's example: Roulette de chat, 1 damage, deals 2 on a +1 face, 0 on the -1 face
    and 1 on any other (first game: only three faces count)."""
    sc, martine, gege = duel([face], dice_faces="basic")
    sc.cast(martine, "roulette_de_chat", (2, 0))
    assert gege.injuries == wounds
    assert sc.dice.remaining == 0


def test_r_b33_advanced_faces_turn_the_dofus_into_a_critical() -> None:
    sc, martine, gege = duel([DOFUS], dice_faces="advanced")
    sc.cast(martine, "roulette_de_chat", (2, 0))
    assert gege.injuries == 2


def test_r_b23_every_spell_costs_one_ap_and_r_b22_needs_one_left() -> None:
    sc = BlastScenario(". . .\n. . .", dice=[LOCK])
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    gege = sc.add("gege_ronimo", side=1, at=(2, 0))
    sc.activate(martine)
    assert martine.ap == 2
    sc.cast(martine, "roulette_de_chat", (2, 0))
    assert (martine.ap, gege.injuries) == (1, 1)
    sc.cast(martine, "sac_a_puce", (1, 0))
    assert martine.ap == 0
    assert not any(sc.can_cast(martine, s.id, (1, 1)) for s in martine.spells)


def test_r_b22_a_spell_marked_once_per_turn() -> None:
    """`1/`: Sac a puce once per turn; the Pupuce's summon limit (maximum 1) holds across turns."""
    sc = BlastScenario(". . .\n. . .")
    martine = sc.add("martine_gale", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(2, 0))
    sc.activate(martine)
    sc.cast(martine, "sac_a_puce", (0, 1))
    assert not sc.can_cast(martine, "sac_a_puce", (1, 0))
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(martine)
    assert not sc.can_cast(martine, "sac_a_puce", (1, 0))  # maximum 1 Pupuce in play


def test_roulette_de_chat_next_cast_needs_a_different_target() -> None:
    sc = BlastScenario(". . . .\n. . . .", dice=[LOCK, LOCK])
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    gege = sc.add("gege_ronimo", side=1, at=(2, 0))
    sam = sc.add("sam_sram", side=1, at=(2, 1))
    sc.activate(martine)
    sc.cast(martine, "roulette_de_chat", (2, 0))
    assert not sc.can_cast(martine, "roulette_de_chat", (2, 0))
    assert sc.can_cast(martine, "roulette_de_chat", sc.xy(sam))
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(martine)
    assert not sc.can_cast(martine, "roulette_de_chat", (2, 0))  # "your next" cast, even a turn later
    assert gege.injuries == 1


def test_r_b24_line_of_sight_blocked_by_trees_and_fog_not_by_bushes() -> None:
    for row, sees in ((". B . .", True), (". T . .", False), (". . . .", True)):
        sc = BlastScenario(row + "\n. . . .")
        martine = sc.add("martine_gale", side=0, at=(0, 0))
        sc.add("gege_ronimo", side=1, at=(2, 0))
        sc.activate(martine)
        assert sc.can_cast(martine, "roulette_de_chat", (2, 0)) == sees
    sc = BlastScenario(". . . .\n. . . .")
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(2, 0))
    sc.tile("fog", (1, 0))
    sc.activate(martine)
    assert not sc.can_cast(martine, "roulette_de_chat", (2, 0))


def test_r_b29_peine_capitole_marker_needs_four_glyphs() -> None:
    board = "G G G G\n. . . .\n. . . ."
    for owned, ap_next in ((3, 2), (4, 1)):
        sc = BlastScenario(board, dice=[LOCK])
        sam = sc.add("sam_sram", side=0, at=(0, 1))
        gege = sc.add("gege_ronimo", side=1, at=(2, 1))
        sc.own(0, *[(x, 0) for x in range(owned)])
        sc.activate(sam)
        sc.cast(sam, "peine_capitole", (2, 1))
        assert gege.injuries == 2
        sc.end_turn()
        sc.new_turn(1)
        sc.activate(gege)
        assert gege.ap == ap_next


def test_relance_rerolls_a_minus_one_with_four_glyphs_once_per_turn() -> None:
    board = "G G G G\n. . . .\n. . . ."
    sc = BlastScenario(board, dice=[ARMOUR, CRITICAL, ARMOUR])
    martine = sc.add("martine_gale", side=0, at=(0, 1))
    gege = sc.add("gege_ronimo", side=1, at=(2, 1))
    sam = sc.add("sam_sram", side=1, at=(2, 2))
    sc.own(0, (0, 0), (1, 0), (2, 0), (3, 0))
    sc.activate(martine)
    sc.cast(martine, "roulette_de_chat", (2, 1))
    assert gege.injuries == 2  # -1 rerolled into +1
    sc.cast(martine, "roulette_de_chat", sc.xy(sam))
    assert sam.injuries == 0  # the second -1 stands
    assert sc.dice.remaining == 0


def test_brasier_adds_one_to_the_next_damaging_spell_only() -> None:
    sc = BlastScenario(LINE, dice=[LOCK], favors=("brasier", None))
    gege = sc.add("gege_ronimo", side=0, at=(0, 0))
    sam = sc.add("sam_sram", side=1, at=(3, 0))
    sc.activate(gege)
    sc.use_favor(gege, 0)
    assert gege.ap == 1  # the Dofus is with player 1: 1 AP
    sc.cast(gege, "pression", (3, 0))
    assert sam.injuries == 3
    assert sc.bs.spell_bonus == {}
