"""R-B2, R-B3, R-B9-R-B12, R-B26: a whole Blast player turn, markers, and the end of the game."""

from __future__ import annotations

from typing import Any

from krosbalance.content.blast import blast_cards
from krosbalance.engine.dice import ARMOUR, LOCK
from krosbalance.engine.legal import END, Action
from krosbalance.testing.blast import BlastScenario
from krosbalance.testing.scenario import ScriptedController

BOARD = "G . . .\n. . . .\n. . . G"


class Recorder(ScriptedController):
    """A scripted Blast player that records who it was asked to pick next, and picks from a list."""

    def __init__(self, order: list[Any], actions: list[Any] | None = None) -> None:
        super().__init__(actions or [])
        self.order = [f.uid for f in order]
        self.asked: list[list[int]] = []

    def choose_favor_slot(self, view: Any, favor: Any, slots: Any) -> int:
        return 0

    def choose_next(self, view: Any, candidates: Any) -> int:
        uids = [c.uid for c in candidates]
        self.asked.append(uids)
        return next(uid for uid in self.order if uid in uids)


def test_r_b10_r_b11_krosmasters_in_the_players_order_then_all_invocations() -> None:
    sc = BlastScenario(BOARD, options={"tackle_zone": False}, turn=2)
    sam = sc.add("sam_sram", side=0, at=(1, 0))
    martine = sc.add("martine_gale", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(3, 1))
    sc.bs.deck = [blast_cards().favor("soin")] * 3
    player = Recorder([martine, sam], [(martine, sc.cast_action(martine, "sac_a_puce", (0, 1)))])
    sc.play_turn(player)
    started = [e.uid for e in sc.events("character_turn_started")]  # type: ignore[attr-defined]
    pupuce = next(f for f in sc.state.fighters if f.spec.id == "pupuce")
    assert started == [martine.uid, sam.uid, pupuce.uid]  # the Pupuce acts after both Krosmasters
    assert player.asked[0] == sorted([sam.uid, martine.uid])


def test_r_b26_markers_act_at_once_in_the_own_activation_and_wait_otherwise() -> None:
    board = "G G G G\n. . . .\n. . . ."
    sc = BlastScenario(board, dice=[LOCK, LOCK])
    sam = sc.add("sam_sram", side=0, at=(0, 1))
    gege = sc.add("gege_ronimo", side=1, at=(2, 1))
    sc.own(0, (0, 0), (1, 0), (2, 0), (3, 0))
    sc.activate(sam)
    sc.cast(sam, "peine_capitole", (2, 1))  # 4 glyphs: a -1 AP marker on Gege, not acting now
    assert (gege.ap, gege.minus_ap) == (0, 1)
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(gege)
    assert (gege.ap, gege.minus_ap) == (1, 0)  # it acted at the start and is gone
    sc2 = BlastScenario(". . . .\n. . . .", favors=("rapidite", None), dofus=0)
    sam2 = sc2.add("sam_sram", side=0, at=(0, 0))
    sc2.add("gege_ronimo", side=1, at=(3, 1))
    sc2.activate(sam2)
    sc2.use_favor(sam2, 0)
    assert (sam2.mp, sam2.plus_mp) == (6, 0)  # at once, nothing left for later
    sc2.end_turn()
    assert sam2.mp == 0


def test_r_b2_one_krosmaster_ko_of_two_ends_the_game() -> None:
    sc = BlastScenario(". . . .\n. . . .", dice=[LOCK])
    gege = sc.add("gege_ronimo", side=0, at=(0, 0))
    sc.add("martine_gale", side=0, at=(0, 1))
    sam = sc.add("sam_sram", side=1, at=(3, 0), injuries=10)
    sc.add("arielle_fleche", side=1, at=(3, 1))
    sc.activate(gege)
    sc.cast(gege, "pression", (3, 0))
    assert not sam.alive
    assert (sc.state.finished, sc.state.winner, sc.state.end_reason) == (True, 0, "ko")


def test_r_b3_glyph_majority_after_the_last_favor_or_a_draw() -> None:
    for owned, winner, reason in (((1, 0), 0, "glyphs"), ((1, 1), None, "glyph_draw")):
        sc = BlastScenario(BOARD, turn=9)
        sam = sc.add("sam_sram", side=0, at=(1, 0))
        sc.add("gege_ronimo", side=1, at=(2, 2))
        sc.bs.deck = [blast_cards().favor("soin")]
        if owned[0]:
            sc.own(0, (0, 0))
        if owned[1]:
            sc.own(1, (3, 2))
        sc.play_turn(Recorder([sam], [(sam, Action(END))]))
        assert (sc.state.winner, sc.state.end_reason) == (winner, reason)
        assert sc.state.turn == 10


def test_r_b3_no_end_while_favors_are_left() -> None:
    sc = BlastScenario(BOARD, turn=7)
    sam = sc.add("sam_sram", side=0, at=(1, 0))
    sc.add("gege_ronimo", side=1, at=(2, 2))
    sc.bs.deck = [blast_cards().favor("soin")] * 2
    sc.own(0, (0, 0))
    sc.play_turn(Recorder([sam]))
    assert not sc.state.finished and len(sc.bs.deck) == 1


def test_r_b30_a_minus_one_never_heals() -> None:
    sc = BlastScenario(". . . .", dice=[ARMOUR])
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    gege = sc.add("gege_ronimo", side=1, at=(2, 0), injuries=3)
    sc.activate(martine)
    sc.cast(martine, "roulette_de_chat", (2, 0))
    assert gege.injuries == 3
