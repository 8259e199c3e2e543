"""R-B9, R-B17-R-B21: Krosmic Favors — the two slots, the cost, the Dofus token, the limits."""

from __future__ import annotations

from krosbalance.content.blast import blast_cards
from krosbalance.engine.legal import Action
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.blast.actions import USE_FAVOR
from krosbalance.testing.blast import BlastScenario
from krosbalance.testing.scenario import ScriptedController

BOARD = ". . . .\n. . . .\n. . . ."


def test_r_b17_a_favor_costs_one_ap_or_nothing_with_the_dofus_token() -> None:
    for dofus, ap_after in ((1, 1), (0, 2)):
        sc = BlastScenario(BOARD, favors=("rapidite", None), dofus=dofus)
        sam = sc.add("sam_sram", side=0, at=(0, 0))
        sc.add("gege_ronimo", side=1, at=(3, 2))
        sc.activate(sam)
        sc.use_favor(sam, 0)
        assert (sam.ap, sam.mp) == (ap_after, 6)  # +2 MP markers act at once (R-B26)


def test_r_b18_each_favor_once_per_turn_one_krosmaster_may_use_both() -> None:
    sc = BlastScenario(BOARD, favors=("rapidite", "soin"), dofus=0)
    sam = sc.add("sam_sram", side=0, at=(0, 0), injuries=3)
    arielle = sc.add("arielle_fleche", side=0, at=(0, 2))
    sc.add("gege_ronimo", side=1, at=(3, 2))
    sc.activate(sam)
    sc.use_favor(sam, 0)
    assert not sc.can(sam, sc.favor_action(0))
    sc.use_favor(sam, 1)
    assert sam.injuries == 1
    sc.end_turn()
    sc.activate(arielle)
    assert not sc.can(arielle, sc.favor_action(0)) and not sc.can(arielle, sc.favor_action(1))


def test_r_b18_each_krosmaster_may_use_one() -> None:
    sc = BlastScenario(BOARD, favors=("rapidite", "second_souffle"), dofus=0)
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    arielle = sc.add("arielle_fleche", side=0, at=(0, 2))
    sc.add("gege_ronimo", side=1, at=(3, 2))
    sc.activate(sam)
    sc.use_favor(sam, 0)
    sc.end_turn()
    sc.activate(arielle)
    sc.use_favor(arielle, 1)
    assert arielle.ap == 3


def test_r_b19_invocations_never_use_favors() -> None:
    sc = BlastScenario(BOARD, favors=("rapidite", None), dofus=0)
    martine = sc.add("martine_gale", side=0, at=(0, 0))
    pupuce = sc.add("pupuce", side=0, at=(1, 0), summoner=martine)
    sc.add("gege_ronimo", side=1, at=(3, 2))
    sc.activate(pupuce)
    assert not sc.can(pupuce, sc.favor_action(0))
    assert not any(a.kind == USE_FAVOR for a in MatchView(sc.state, 0).legal_actions())


def test_r_b9_the_new_favor_covers_the_slot_its_player_chooses() -> None:
    sc = BlastScenario(BOARD, favors=("rapidite", "soin"))
    sam = sc.add("sam_sram", side=0, at=(0, 0))
    sc.add("gege_ronimo", side=1, at=(3, 2))
    sc.bs.deck = [blast_cards().favor("brasier")]
    sc.bs.slot_used = [True, True]

    class Slot1(ScriptedController):
        def choose_favor_slot(self, view, favor, slots):  # type: ignore[no-untyped-def]
            assert [s.id if s else None for s in slots] == ["rapidite", "soin"]
            return 1

        def choose_next(self, view, candidates):  # type: ignore[no-untyped-def]
            return candidates[0].uid

    sc.play_turn(Slot1([(sam, Action(0))]))
    assert [s.id if s else None for s in sc.bs.slots] == ["rapidite", "brasier"]
    assert sc.bs.deck == []
    assert sc.bs.slot_used == [False, False]  # a new turn: each favor serves once again
    assert sc.state.end_reason == "glyph_draw"  # R-B3: the deck is empty at the end of the turn
