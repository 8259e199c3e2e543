"""The four-player search (``lookahead-4p``): every other seat replies in its rollouts, each by its
own fork of the model; its leaf scores a partnership against the others; with two players it is the
two-player lookahead with the same knobs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from krosbalance.ai import lookahead as lookahead_module
from krosbalance.ai.evaluation import WIN_SCORE, evaluate_sides
from krosbalance.ai.lookahead import LookaheadAI
from krosbalance.ai.registry import ai_problem, get_ai, register_ai, unregister_ai
from krosbalance.ai.skilled import Kiter2AI
from krosbalance.content.registry import list_characters
from krosbalance.engine.state import KROSMASTER
from krosbalance.engine.turn import game_turn
from krosbalance.play import play_match, prepare_match
from krosbalance.rulesets.registry import get_ruleset

BOX = sorted(list_characters(set="arena-box"))


def _teams(mode: str, pick: int = 0) -> list[list[str]]:
    legal = get_ruleset("arena", {"mode": mode}).all_teams(BOX)
    return [list(legal[(pick + 11 * seat) % len(legal)]) for seat in range(4)]


def _four_state(mode: str, turns: int = 6):  # type: ignore[no-untyped-def]
    state, controllers, views = prepare_match(
        *_teams(mode), board="arena-pit", ai="kiter", seed=5, options={"mode": mode}
    )
    for _ in range(turns):
        side = state.active_side
        game_turn(state, controllers[side], views[side])
    return state


def test_the_four_player_search_plays_four_seats_and_the_others_still_refuse() -> None:
    assert not ai_problem("lookahead-4p", "arena", 4)
    assert ai_problem("lookahead-fast", "arena", 4) and ai_problem("mcts-race", "arena", 4)
    ai = get_ai("lookahead-4p")(np.random.default_rng(0))
    assert isinstance(ai, LookaheadAI) and ai.four_players and ai.against == "max"


def test_in_two_versus_two_the_leaf_is_one_partnership_against_the_other_whatever_against() -> None:
    state = _four_state("two_vs_two")
    values = {against: evaluate_sides(state, 0, None, against) for against in ("sum", "mean", "max")}
    assert len(set(values.values())) == 1, values
    # partners see the same position
    assert evaluate_sides(state, 2, None) == pytest.approx(values["sum"])
    assert evaluate_sides(state, 1, None) != pytest.approx(values["sum"])


@pytest.mark.parametrize("against", ["sum", "mean", "max"])
def test_in_a_free_for_all_hurt_enemies_are_worth_more_and_a_hurt_self_less(against: str) -> None:
    def value(hurt: int) -> float:  # hurt: 0 nobody, 1 every enemy Krosmaster, 2 our own
        state = _four_state("free_for_all")
        for f in state.fighters:
            if f.alive and f.kind == KROSMASTER and f.cell >= 0 and (f.side != 0) == (hurt == 1) and hurt:
                f.injuries += 1
        return evaluate_sides(state, 0, None, against, kama_worth=0.0, threats=False)

    assert value(2) < value(0) < value(1)


def test_a_decided_four_player_match_is_won_by_a_partnership() -> None:
    state = _four_state("two_vs_two")
    state.finished, state.winner = True, 1
    assert evaluate_sides(state, 1, None) == WIN_SCORE == evaluate_sides(state, 3, None)
    assert evaluate_sides(state, 0, None) == -WIN_SCORE
    state.winner = None
    assert evaluate_sides(state, 2, None) == 0.0


def _play(ai: LookaheadAI, teams: list[list[str]], seats: tuple[str, ...], **kwargs):  # type: ignore[no-untyped-def]
    """A match with ``ai`` in the seats named ``me`` (registered for the match only)."""
    register_ai("me", lambda rng: ai, tier="search", rulesets=LookaheadAI.rulesets, two_players_only=False)
    try:
        return play_match(*teams, ai=seats, engine="reference", **kwargs)
    finally:
        unregister_ai("me")


def test_every_other_seat_replies_each_by_its_own_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rollout plays the three other seats' turns (never the search's own seat again), forking the
    model once per seat, and the search spends its counted budget."""
    played: list[tuple[int, int]] = []
    real = lookahead_module.play_turn

    def spy(state, controller):  # type: ignore[no-untyped-def]
        played.append((state.active_side, id(controller)))
        real(state, controller)

    monkeypatch.setattr(lookahead_module, "play_turn", spy)
    ai = LookaheadAI(np.random.default_rng(3), candidates=3, dice_sets=2, base=Kiter2AI, four_players=True)
    teams = _teams("free_for_all")
    _play(
        ai,
        teams,
        ("me", "kiter", "kiter", "kiter"),
        board="arena-pit",
        seed=11,
        options={"mode": "free_for_all", "turn_limit": 8},
    )
    assert ai.searches > 0 and ai.rollouts % 2 == 0 and 4 * ai.searches <= ai.rollouts <= 6 * ai.searches
    assert played and all(seat != 0 for seat, _ in played)
    # per rollout (three replies in a row at most), one model per seat: distinct controllers
    for k in range(0, len(played) - 2, 3):
        chunk = played[k : k + 3]
        if len({s for s, _ in chunk}) == 3:
            assert len({c for _, c in chunk}) == 3


def test_with_two_players_the_four_player_flag_changes_nothing() -> None:
    """Two-player decisions unchanged: the flag is not read with two seats."""
    teams = [BOX[:4], BOX[4:]]

    def run(four: bool) -> list[str]:
        ai = LookaheadAI(
            np.random.default_rng(9), candidates=3, dice_sets=1, four_players=four, against="max"
        )
        result = _play(ai, teams, ("me", "kiter"), seed=21, options={"turn_limit": 6}, record="full")
        return [repr(e) for e in result.events]

    assert run(True) == run(False)


def test_in_a_free_for_all_own_worth_weighs_own_times_and_in_two_versus_two_not_at_all() -> None:
    ffa = _four_state("free_for_all")
    base = evaluate_sides(ffa, 0, None, "max", kama_worth=0.0, threats=False)
    heavier = evaluate_sides(ffa, 0, None, "max", kama_worth=0.0, threats=False, own=1.5)
    assert heavier > base  # our material is positive: it now weighs more
    pair = _four_state("two_vs_two")
    assert evaluate_sides(pair, 0, None, own=1.5) == evaluate_sides(pair, 0, None)


def test_in_a_free_for_all_a_rollout_plays_ffa_rounds_of_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ffa_rounds=2``: the three other seats, the search's own seat (a fork of the base), the three
    others again; ``ffa_dice_sets`` dice sets per plan."""
    played: list[tuple[int, int]] = []
    real = lookahead_module.play_turn

    def spy(state, controller):  # type: ignore[no-untyped-def]
        played.append((state.active_side, id(controller)))
        real(state, controller)

    monkeypatch.setattr(lookahead_module, "play_turn", spy)
    ai = LookaheadAI(
        np.random.default_rng(3),
        candidates=2,
        dice_sets=4,
        base=Kiter2AI,
        four_players=True,
        ffa_rounds=2,
        ffa_dice_sets=1,
    )
    _play(
        ai,
        _teams("free_for_all"),
        ("me", "kiter", "kiter", "kiter"),
        board="arena-pit",
        seed=11,
        options={"mode": "free_for_all", "turn_limit": 8},
    )
    assert ai.searches > 0 and ai.searches <= ai.rollouts <= 2 * ai.searches  # one dice set a plan
    assert any(seat == 0 for seat, _ in played)  # the search's own seat between the rounds
    with pytest.raises(ValueError, match="ffa_rounds"):
        LookaheadAI(np.random.default_rng(0), ffa_rounds=0)


def test_in_two_versus_two_the_free_for_all_knobs_change_nothing() -> None:
    teams = _teams("two_vs_two")

    def run(**knobs: Any) -> list[str]:
        ai = LookaheadAI(np.random.default_rng(9), candidates=2, dice_sets=1, four_players=True, **knobs)
        result = _play(
            ai,
            teams,
            ("me", "kiter", "kiter", "kiter"),
            board="arena-pit",
            seed=21,
            options={"mode": "two_vs_two", "turn_limit": 6},
            record="full",
        )
        return [repr(e) for e in result.events]

    assert run() == run(ffa_rounds=2, ffa_dice_sets=3, ffa_own=2.0)
