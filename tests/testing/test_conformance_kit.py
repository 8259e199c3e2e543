"""The conformance kit itself: legal teams, the checked match, and what it catches."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from krosbalance.ai.random_ai import RandomAI
from krosbalance.ai.registry import _AIS, register_ai
from krosbalance.content.registry import list_characters
from krosbalance.errors import TeamError
from krosbalance.play import play_match
from krosbalance.rulesets.arena import arena_state, validate_team
from krosbalance.testing.conformance import (
    CheckingController,
    all_legal_teams,
    battery_plan,
    first_difference,
    run_checked_match,
    snapshot,
)

TEAMS = (
    ("queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"),
    ("bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"),
)


def test_all_legal_teams_agrees_with_validate_team() -> None:
    pool = list_characters(set="arena-box")
    brute = set()
    for size in range(2, 9):
        for team in itertools.combinations_with_replacement(pool, size):
            try:
                validate_team(team)
            except TeamError:
                continue
            brute.add(team)
    teams = all_legal_teams(pool)
    assert set(teams) == brute
    assert len(teams) == len(brute) == 211  # 8 level-3 Krosmasters, 2 gold and 6 white names


def test_all_legal_teams_of_a_smaller_pool() -> None:
    teams = all_legal_teams(["anna_tommy", "bill_tell"])
    assert teams == [("anna_tommy", "anna_tommy", "bill_tell", "bill_tell")]


def test_checked_match_equals_the_unchecked_one() -> None:
    checked = run_checked_match(*TEAMS, "arena-pit", 5, record="full")
    plain = play_match(*TEAMS, board="arena-pit", seed=5, record="full")
    assert checked.events == plain.events, first_difference(checked.events, plain.events)
    assert [f.as_row() for f in checked.fighters] == [f.as_row() for f in plain.fighters]


class _MeddlingAI(RandomAI):
    """Heals its own side while deciding: exactly what an AI must never do."""

    name = "meddling"

    def choose_action(self, view):
        active = view._s.active
        if active is not None and active.injuries:
            active.injuries -= 1
        return super().choose_action(view)


class _CheatingAI(RandomAI):
    """Gives itself a GG while deciding: breaks conservation."""

    name = "cheating"

    def choose_action(self, view):
        if view.turn > 4:
            arena_state(view._s).gg[view.side] += 1
        return super().choose_action(view)


@pytest.fixture
def rogue_ais():
    register_ai("meddling", _MeddlingAI)
    register_ai("cheating", _CheatingAI)
    yield
    _AIS.pop("meddling", None)
    _AIS.pop("cheating", None)


def test_an_ai_that_changes_the_state_is_caught(rogue_ais) -> None:
    with pytest.raises(AssertionError, match="_MeddlingAI.choose_action changed the match state"):
        run_checked_match(*TEAMS, "arena-elemental", 1, ai="meddling", check_untouched=True)


def test_a_broken_invariant_names_the_replay(rogue_ais) -> None:
    with pytest.raises(AssertionError) as info:
        run_checked_match(*TEAMS, "arena-elemental", 1, ai=("cheating", "random"))
    message = str(info.value)
    assert "GG not conserved" in message
    assert "seed 1" in message and "arena-elemental" in message and "queen_of_the_tofus" in message


def test_checking_controller_counts_and_forwards() -> None:
    inner = RandomAI(np.random.default_rng(0))
    from krosbalance.play import prepare_match

    state, _, views = prepare_match(*TEAMS, seed=0)
    wrapper = CheckingController(inner, state)
    assert wrapper.name == "random" and wrapper.rng is inner.rng
    before = snapshot(state)
    wrapper.choose_tension(views[0], (0, 5), [(0, 0), (0, 1)])
    assert wrapper.checks == 1 and snapshot(state) == before


def test_battery_plan_is_stable() -> None:
    plan = battery_plan("arena-elemental", 3)
    assert plan == battery_plan("arena-elemental", 3)
    assert plan != battery_plan("arena-pit", 3)
    for team0, team1, _ in plan:
        validate_team(team0)
        validate_team(team1)
