"""Decisions of the heuristic AIs on hand-made positions, and their contract with the engine: legal
answers, an untouched state, determinism, no crash on any shipped board."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.objective import ObjectiveAI
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.registry import canonical_ai, get_ai, list_ais
from krosbalance.content.registry import list_characters
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.engine.legal import CAST, END, MOVE, Action
from krosbalance.engine.view import MatchView
from krosbalance.play import play_match
from krosbalance.rulesets.arena.kinds import BUY_GG
from krosbalance.testing.conformance import run_checked_match
from krosbalance.testing.scenario import Scenario

HEURISTICS = ("focus_fire", "kiter", "objective")
OPEN7 = "\n".join([" ".join(["."] * 7)] * 7)
BOX = list_characters(set="arena-box")  # the eight box Krosmasters, from the registry


def _activation(sc: Scenario, ai: HeuristicAI, fighter, limit: int = 30) -> list[Action]:
    """Let ``ai`` play one activation of ``fighter`` through the engine; return its actions."""
    sc.activate(fighter)
    view = MatchView(sc.state, fighter.side)
    actions = []
    for _ in range(limit):
        action = ai.choose_action(view)
        actions.append(action)
        if action.kind == END:
            break
        sc.do(fighter, action)
    return actions


def _casts(sc: Scenario, fighter, actions: list[Action]) -> list[tuple[str, int]]:
    return [(fighter.spells[a.spell].id, a.target) for a in actions if a.kind == CAST]


def test_registry_lists_the_heuristics_and_random() -> None:
    assert set(list_ais()) >= {"random", *map(canonical_ai, HEURISTICS)}  # focus_fire reads as focus-fire
    for name in HEURISTICS:
        assert get_ai(name)(np.random.default_rng(0)).name == name  # the AI's own name: its former id


def test_focus_fire_finishes_the_wounded_krosmaster() -> None:
    sc = Scenario(OPEN7, dice=[LOCK] * 40)
    bill = sc.add("bill_tell", 0, (0, 0))
    sc.add("anna_tommy", 1, (4, 0))
    oscar = sc.add("oscar_kass", 1, (0, 5), injuries=9)
    actions = _activation(sc, FocusFireAI(np.random.default_rng(0)), bill)
    casts = _casts(sc, bill, actions)
    assert casts and casts[0] == ("plaguing_arrow", oscar.cell if oscar.alive else sc.cell(0, 5))
    assert not oscar.alive


def test_kiter_shoots_then_ends_out_of_melee_reach() -> None:
    sc = Scenario(OPEN7, dice=[LOCK] * 40)
    bill = sc.add("bill_tell", 0, (3, 3))
    king = sc.add("king_of_the_gobballs", 1, (3, 0))
    actions = _activation(sc, KiterAI(np.random.default_rng(0)), bill)
    assert any(a.kind == CAST for a in actions)
    assert sc.board.distance[bill.cell][king.cell] > king.base_mp + 1  # the King cannot walk and hit


def test_queen_summons_a_tofu_next_to_the_target_before_to_fu_ti() -> None:
    sc = Scenario(OPEN7, dice=[LOCK] * 40)
    queen = sc.add("queen_of_the_tofus", 0, (3, 2))
    target = sc.add("kassius_kaos", 1, (3, 5))
    actions = _activation(sc, FocusFireAI(np.random.default_rng(0)), queen)
    casts = _casts(sc, queen, actions)
    ids = [c[0] for c in casts]
    assert ids == ["summon_tofu", "dan_to_fu"]
    tofu_cell = casts[0][1]
    assert target.cell in sc.board.neighbours[tofu_cell]
    assert casts[1][1] == target.cell


def test_bomber_detonates_a_bomb_among_enemies() -> None:
    sc = Scenario(OPEN7, dice=[LOCK] * 60)
    bad = sc.add("bad_aboum", 0, (3, 6))
    sc.add("oscar_kass", 1, (2, 2))
    sc.add("lil_healey", 1, (4, 2))
    actions = _activation(sc, FocusFireAI(np.random.default_rng(0)), bad)
    ids = [c[0] for c in _casts(sc, bad, actions)]
    assert "summon_water_bomb" in ids
    assert sum(f.injuries for f in sc.state.fighters if f.side == 1) > 0


def test_objective_buys_gg_on_a_demon_cell() -> None:
    sc = Scenario(". . D . .\n. . . . .\n. . . . .", dice=[LOCK] * 20)
    anna = sc.add("anna_tommy", 0, (1, 2))  # 3 cells from the Demon cell: exactly her MP
    sc.add("lil_healey", 1, (4, 2))
    sc.arena.kamas[0] = 9  # the Demon cell's own kama makes 10
    actions = _activation(sc, ObjectiveAI(np.random.default_rng(0)), anna)
    assert any(a.kind == BUY_GG for a in actions)
    assert sc.arena.gg[0] == 7 and sc.arena.wild_gg == 0


@pytest.mark.parametrize("name", HEURISTICS)
def test_tension_makes_a_double_only_when_ahead_without_wild_gg(name: str) -> None:
    sc = Scenario(OPEN7)
    sc.add("anna_tommy", 0, (0, 0))
    sc.add("bill_tell", 0, (1, 0))
    sc.add("oscar_kass", 1, (6, 6))
    ai = get_ai(name)(np.random.default_rng(0))
    view = MatchView(sc.state, 0)
    options = [(CRITICAL, CRITICAL), (CRITICAL, DODGE), (ARMOUR, CRITICAL), (ARMOUR, DODGE)]
    choice = ai.choose_tension(view, (4, 5), options)
    assert choice.faces[0] != choice.faces[1]  # wild GG still there
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [4, 2]
    choice = ai.choose_tension(view, (4, 5), options)
    assert choice.faces == (CRITICAL, CRITICAL)
    sc.arena.gg[:] = [2, 4]
    choice = ai.choose_tension(view, (4, 5), options)
    assert choice.faces[0] != choice.faces[1]
    own = {k.uid for k in view.krosmasters(0)}
    assert all(uid == -1 or uid in own for uid in choice.assigned)


@pytest.mark.parametrize("name", HEURISTICS)
def test_decisions_never_change_the_state_and_are_legal(name: str) -> None:
    rng = np.random.default_rng(11)
    for seed, opponent, board in ((1, "random", "arena-elemental"), (2, "kiter", "arena-pit")):
        order = rng.permutation(8)
        team0 = [BOX[i] for i in order[:4]]
        team1 = [BOX[i] for i in order[4:]]
        result = run_checked_match(team0, team1, board, seed, ai=(name, opponent), check_untouched=True)
        assert result.end_reason


@pytest.mark.parametrize("board", ["arena-pit", "bonta-1", "bonta-2", "frigost-1", "frigost-2"])
def test_heuristics_finish_matches_on_every_board(board: str) -> None:
    team0 = ["anna_tommy", "bad_aboum", "queen_of_the_tofus", "lil_healey"]
    team1 = ["bill_tell", "kassius_kaos", "king_of_the_gobballs", "oscar_kass"]
    run_checked_match(team0, team1, board, 3, ai=("focus_fire", "objective"))
    run_checked_match(team1, team0, board, 4, ai=("kiter", "focus_fire"))


def test_same_seed_same_match() -> None:
    team0 = ["anna_tommy", "bad_aboum", "queen_of_the_tofus", "lil_healey"]
    team1 = ["bill_tell", "kassius_kaos", "king_of_the_gobballs", "oscar_kass"]
    a = play_match(team0, team1, ai=("focus_fire", "kiter"), seed=5, record="full")
    b = play_match(team0, team1, ai=("focus_fire", "kiter"), seed=5, record="full")
    assert a.events == b.events and a.winner == b.winner


def test_moves_are_single_steps_toward_the_plan() -> None:
    sc = Scenario(OPEN7, dice=[LOCK] * 40)
    king = sc.add("king_of_the_gobballs", 0, (0, 6))
    sc.add("lil_healey", 1, (6, 0))
    actions = _activation(sc, FocusFireAI(np.random.default_rng(0)), king)
    moves = [a for a in actions if a.kind == MOVE]
    assert 1 <= len(moves) <= 3
    assert actions[-1].kind == END
