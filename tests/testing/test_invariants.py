"""check_invariants accepts real match states and names each kind of corruption precisely."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from krosbalance.content.registry import default_registry
from krosbalance.engine.pieces import place, spawn
from krosbalance.engine.state import MatchState
from krosbalance.engine.turn import game_turn
from krosbalance.play import prepare_match
from krosbalance.rulesets.arena import arena_state
from krosbalance.rulesets.arena.invariants import expected_gg_total, expected_kama_total
from krosbalance.testing.invariants import check_invariants

TEAMS = (
    ("queen_of_the_tofus", "king_of_the_gobballs", "bad_aboum", "anna_tommy"),
    ("bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"),
)


def midgame(turns: int = 6, seed: int = 1) -> MatchState:
    state, controllers, views = prepare_match(*TEAMS, board="arena-elemental", seed=seed)
    for _ in range(turns):
        if state.finished:
            break
        game_turn(state, controllers[state.active_side], views[state.active_side])
    check_invariants(state)
    return state


def piece(state: MatchState, index: int = 0):
    return [f for f in state.fighters if f.alive and f.cell >= 0 and f.kind == "krosmaster"][index]


def free_cell(state: MatchState) -> int:
    walls = state.obstacles
    return next(c for c in range(state.board.n_cells) if not (walls >> c) & 1 and c not in state.traps)


def test_a_fresh_and_a_played_state_pass() -> None:
    state, _, _ = prepare_match(*TEAMS, seed=2)
    check_invariants(state)
    assert expected_gg_total(state.ruleset.opts) == 13
    assert expected_kama_total(state, state.ruleset.opts) == 54
    midgame(12, seed=3)


def _move_onto_tree(s: MatchState) -> None:
    f = piece(s)
    s.by_cell[f.cell] = None
    f.cell = (s.trees & -s.trees).bit_length() - 1
    s.by_cell[f.cell] = f


def _two_on_one_cell(s: MatchState) -> None:
    a, b = piece(s, 0), piece(s, 1)
    s.by_cell[b.cell] = None
    b.cell = a.cell


def _ko_still_on_board(s: MatchState) -> None:
    piece(s).alive = False


def _summon_of_ko(s: MatchState) -> None:
    king = next(f for f in s.fighters if f.spec.id == "king_of_the_gobballs")
    token = spawn(s, default_registry().load_character("gobball"), king.side, king, "summon_gobball")
    place(s, token, free_cell(s))
    king.alive = False
    s.by_cell[king.cell] = None
    s.obstacles &= ~(1 << king.cell)
    s.sight_blockers &= ~(1 << king.cell)
    king.cell = -1


def _set(attr: str, value) -> Callable[[MatchState], None]:
    return lambda s: setattr(piece(s), attr, value)


CORRUPTIONS: dict[str, tuple[Callable[[MatchState], None], str]] = {
    "injuries-over-hp": (lambda s: setattr(piece(s), "injuries", piece(s).hp + 1), "injuries for"),
    "negative-injuries": (_set("injuries", -1), "-1 injuries"),
    "injuries-equal-hp": (lambda s: setattr(piece(s), "injuries", piece(s).hp), "but is not KO"),
    "negative-ap": (_set("ap", -1), "negative MP/AP"),
    "negative-mp": (_set("mp", -2), "negative MP/AP"),
    "negative-marker": (_set("minus_ap", -1), "minus_ap markers"),
    "two-on-a-cell": (_two_on_one_cell, "two pieces on cell"),
    "by-cell-stale": (lambda s: s.by_cell.__setitem__(free_cell(s), piece(s)), "by_cell["),
    "obstacle-bit": (lambda s: setattr(s, "obstacles", s.obstacles | 1 << free_cell(s)), "obstacles mask"),
    "obstacle-lost": (lambda s: setattr(s, "obstacles", s.obstacles & ~(1 << piece(s).cell)), "obstacles"),
    "sight-bit": (
        lambda s: setattr(s, "sight_blockers", s.sight_blockers & ~(1 << piece(s).cell)),
        "sight_blockers mask",
    ),
    "gg-created": (lambda s: arena_state(s).gg.__setitem__(0, arena_state(s).gg[0] + 1), "GG not conserved"),
    "gg-lost": (lambda s: setattr(arena_state(s), "wild_gg", 0), "GG not conserved"),
    "gg-negative": (lambda s: arena_state(s).gg.__setitem__(1, -1), "negative GG"),
    "kama-created": (
        lambda s: arena_state(s).kamas.__setitem__(1, arena_state(s).kamas[1] + 1),
        "kamas not conserved",
    ),
    "kama-lost": (
        lambda s: setattr(arena_state(s), "kama_reserve", arena_state(s).kama_reserve - 1),
        "kamas not conserved",
    ),
    "fog-in-arena": (lambda s: setattr(s, "fixed_sight", s.fixed_sight | 1 << free_cell(s)), "sight"),
    "ko-on-board": (_ko_still_on_board, "KO'd piece"),
    "summon-of-ko": (_summon_of_ko, "its summoner"),
    "on-a-tree": (_move_onto_tree, "a tree or bush"),
    "past-turn-limit": (lambda s: setattr(s, "turn", s.opts.turn_limit + 1), "past the turn limit"),
    "tree-vanished": (lambda s: setattr(s, "trees", s.trees & (s.trees - 1)), "trees changed"),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_each_corruption_is_caught_and_named(name: str) -> None:
    corrupt, expected = CORRUPTIONS[name]
    state = midgame()
    corrupt(state)
    with pytest.raises(AssertionError) as info:
        check_invariants(state)
    message = str(info.value)
    assert expected in message, message
    assert message.startswith("invariant broken at turn ")
