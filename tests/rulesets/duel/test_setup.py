"""R-D14-R-D19, R-D36-R-D39: teams, first player, duel level, the Duel Token draft (plain and
tactical), deployment and the tokens put on duel cells."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from krosbalance.errors import ContentError, IllegalActionError, TeamError
from krosbalance.rulesets.duel import pregame
from krosbalance.rulesets.duel.state import duel_state
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.duel import duel_pack, duel_registry
from tests.rulesets.duel.conftest import DuelPlayer, krosmaster_of_level, set_up, spec


def pair() -> tuple[str, str]:
    """The two Duel Pack Krosmasters, higher Initiative first."""
    names = sorted(duel_pack()[:2], key=lambda n: -spec(n).initiative)
    return names[0], names[1]


def drafted(state) -> list:  # noqa: ANN001
    return [e for e in state.events if e.kind == "token_drafted"]


# ---------------------------------------------------------------------------------------- teams
def test_r_d14_a_team_is_one_krosmaster() -> None:
    rules = get_ruleset("duel")
    a, b = pair()
    assert [s.id for s in rules.validate_team([a], duel_registry())] == [a]
    with pytest.raises(TeamError, match="a duel team has 1"):
        rules.validate_team([a, b], duel_registry())
    with pytest.raises(TeamError, match="Krosmaster blast card"):
        rules.validate_team([duel_registry().list_characters("krosmaster", game="blast")[0]])
    with pytest.raises(TeamError, match="cannot duel"):
        rules.validate_team(["tofu"])


def test_r_d36_two_figures_each_and_the_first_krosmaster_has_the_higher_initiative() -> None:
    a, b = pair()
    rules = get_ruleset("duel", {"figures": 2})
    with pytest.raises(TeamError, match="R-D36"):
        rules.validate_team([a])
    with pytest.raises(TeamError, match="twice"):
        rules.validate_team([a, a])
    box = krosmaster_of_level(3)
    state, _, _ = set_up([b, a], [box, a], options={"figures": 2})
    for team in state.timeline:
        assert [f.spec.initiative for f in team] == sorted((f.spec.initiative for f in team), reverse=True)
    assert rules.legal_teams([a, b, box]) == sorted(tuple(sorted(t)) for t in [(a, b), (a, box), (b, box)])
    assert rules.team_splits([a, b, box, "bill_tell"])[0][0][0] == a


def test_figures_option_is_checked() -> None:
    with pytest.raises(ContentError, match="figures"):
        get_ruleset("duel", {"figures": 3})
    with pytest.raises(ContentError, match="draft"):
        get_ruleset("duel", {"draft": "auction"})


# ---------------------------------------------------------------------------------------- first player
def test_r_d14_the_higher_initiative_plays_first_and_a_tie_is_a_coin() -> None:
    a, b = pair()
    if spec(a).initiative == spec(b).initiative:
        pytest.skip("the Duel Pack figures have equal Initiative")
    for seed in range(4):
        assert set_up([b], [a], seed=seed)[0].first_player == 1
        assert set_up([a], [b], seed=seed)[0].first_player == 0
    coins = {set_up([a], [a], seed=seed)[0].first_player for seed in range(16)}
    assert coins == {0, 1}  # a mirror duel: the coin decides


def test_r_d37_team_initiative_total_then_highest_single_then_coin() -> None:
    base = spec(duel_pack()[0])

    def k(init: int):  # noqa: ANN202
        return dataclasses.replace(base, initiative=init)

    rng = np.random.default_rng(0)
    assert pregame.first_player(([k(5), k(5)], [k(9), k(2)]), rng) == 1  # total 10 < 11
    assert pregame.first_player(([k(6), k(4)], [k(9), k(1)]), rng) == 1  # 10 = 10, highest 9 > 6
    assert pregame.first_player(([k(9), k(1)], [k(6), k(4)]), rng) == 0
    coins = {pregame.first_player(([k(5), k(5)], [k(5), k(5)]), np.random.default_rng(s)) for s in range(16)}
    assert coins == {0, 1}


# ---------------------------------------------------------------------------------------- duel level
def test_r_d15_worked_example_two_level_6_figures_duel_at_level_8() -> None:
    a, b = pair()
    assert spec(a).level == spec(b).level == 6
    state, _, _ = set_up([a], [b])
    assert duel_state(state).duel_level == 8
    box = krosmaster_of_level(3)
    assert duel_state(set_up([box], [a])[0]).duel_level == 8  # 2 + the higher level


def test_r_d38_two_figures_duel_level_is_2_plus_the_higher_team_total() -> None:
    a, b = pair()
    box = krosmaster_of_level(3)
    state, _, _ = set_up([a, b], [box, a], options={"figures": 2})
    assert duel_state(state).duel_level == 2 + max(12, 3 + 6)


# ---------------------------------------------------------------------------------------- draft
def test_r_d16_worked_example_level_6_plus_tokens_worth_2_reaches_the_duel_level_8() -> None:
    """Alternate picks, first player first; a level-6 Krosmaster stops once 6 + token levels = 8,
    and is offered only levels that fit (``draft_overshoot`` off)."""
    a, b = pair()
    state, rules, views = set_up([a], [b])
    first = state.first_player
    players = [DuelPlayer(), DuelPlayer()]
    # each choice list is sorted by level: index 0 is a level-1 token, the last a level-2 one
    players[first].picks = [0, 0]  # two level-1 tokens
    players[1 - first].picks = [1]  # one level-2 token
    ds = duel_state(state)
    pregame.draft(state, ds, rules.opts, (players[0], players[1]), views)
    sides = [e.side for e in drafted(state)]
    assert sides == [first, 1 - first, first]
    for side in (0, 1):
        assert ds.team_levels(state, side) == 8  # "(6) + (2) = (8)"
        budget_seen = [budget for _, budget in players[side].draft_seen]
        assert all(c.level <= budget for choices, budget in players[side].draft_seen for c in choices)
        assert budget_seen[0] == 2
    assert ds.drafted[first] == 2 and ds.drafted[1 - first] == 1


def test_r_d16_at_most_3_tokens() -> None:
    low, high = krosmaster_of_level(3), pair()[0]
    state, rules, views = set_up([low], [high])  # duel level 8: the level-3 side has 5 levels to fill
    players = (DuelPlayer(picks=[0] * 5), DuelPlayer(picks=[1]))  # the other takes one level-2 token
    ds = duel_state(state)
    pregame.draft(state, ds, rules.opts, players, views)
    assert ds.drafted[0] == 3 and len(ds.hidden[state.timeline[0][0].uid]) == 3
    assert ds.team_levels(state, 0) == 3 + 3  # three level-1 tokens, under the duel level


def test_r_d16_overshoot_option_lets_a_pick_pass_the_duel_level() -> None:
    a, b = pair()
    state, rules, views = set_up([a], [b], options={"draft_overshoot": True})
    players = (DuelPlayer(picks=[-1]), DuelPlayer(picks=[-1]))
    players[0].picks = [len(pregame.draft_choices(duel_state(state), rules.opts, 2)) - 1]
    players[1].picks = list(players[0].picks)
    pregame.draft(state, duel_state(state), rules.opts, players, views)
    assert [e.level for e in drafted(state)] == [4, 4]  # each past 8 at once, kept, and stops
    assert duel_state(state).team_levels(state, 0) == 10


def test_r_d16_an_illegal_pick_is_refused() -> None:
    a, b = pair()
    state, rules, views = set_up([a], [b])
    players = (DuelPlayer(picks=[99]), DuelPlayer(picks=[99]))
    with pytest.raises(IllegalActionError):
        pregame.draft(state, duel_state(state), rules.opts, players, views)


def test_r_d17_tactical_option_four_piles_with_face_up_tops_refilled_from_their_pile() -> None:
    a, b = pair()
    state, rules, views = set_up([a], [b], options={"draft": "tactical"})
    ds = duel_state(state)
    assert all(t is not None and t.level == i + 1 for i, t in enumerate(ds.face_up))
    sizes = [len(p) for p in ds.piles]
    choices = pregame.draft_choices(ds, rules.opts, 2)
    assert [(c.level, c.token is not None) for c in choices] == [(1, True), (1, False), (2, True), (2, False)]
    shown = ds.face_up[1]
    players = (DuelPlayer(picks=[2]), DuelPlayer(picks=[2]))  # the face-up level-2 token, twice
    pregame.draft(state, ds, rules.opts, players, views)
    events = drafted(state)
    assert events[0].token == shown.id and events[0].face_up
    assert events[1].face_up and events[1].level == 2
    assert len(ds.piles[1]) == sizes[1] - 2 and ds.face_up[1] is not None  # refilled twice


def test_r_d16_two_figures_each_token_goes_on_the_chosen_card() -> None:
    a, b = pair()
    box = krosmaster_of_level(3)
    state, rules, views = set_up([a, box], [b, box], options={"figures": 2})
    ds = duel_state(state)
    second = state.timeline[0][1].uid
    players = (DuelPlayer(picks=[0, 0, 0], holders=[second] * 3), DuelPlayer())
    pregame.draft(state, ds, rules.opts, players, views)
    assert ds.hidden[second] and all(e.uid == second for e in drafted(state) if e.side == 0)


# ---------------------------------------------------------------------------------------- deployment
def test_r_d18_second_player_deploys_first_on_his_starting_cells() -> None:
    a, b = pair()
    state, rules, views = set_up([a], [b])
    players = (DuelPlayer(), DuelPlayer())
    pregame.deploy(state, players, views)
    second = 1 - state.first_player
    assert [side for what, side in DuelPlayer.log if what == "deploy"] == [second, state.first_player]
    for side in (0, 1):
        zone = state.board.deploy[side]
        assert all((zone >> c) & 1 for c in players[side].deploy_seen[0])
        assert (zone >> state.timeline[side][0].cell) & 1
    bad = (DuelPlayer(deployment=[0]), DuelPlayer(deployment=[0]))
    state, _, views = set_up([a], [b])
    with pytest.raises(IllegalActionError):
        pregame.deploy(state, bad, views)


def test_r_d19_each_player_puts_one_token_blind_on_a_duel_cell_first_player_first() -> None:
    a, b = pair()
    state, rules, views = set_up([a], [b])
    ds = duel_state(state)
    players = (DuelPlayer(), DuelPlayer())
    pregame.draft(state, ds, rules.opts, players, views)
    pregame.deploy(state, players, views)
    supply = sum(len(p) for p in ds.piles)
    DuelPlayer.log = []
    pregame.place_tokens(state, ds, rules.opts, players, views)
    assert [side for what, side in DuelPlayer.log] == [state.first_player, 1 - state.first_player]
    assert len(ds.on_cells) == 2 and sum(len(p) for p in ds.piles) == supply - 2
    assert all((ds.duel_cells >> c) & 1 for c in ds.on_cells)
    second_offer = players[1 - state.first_player].cells_seen[0][1]
    assert not set(second_offer) & set(players[state.first_player].cells_seen[0][1][:1])  # taken cell gone


def test_r_d39_two_figures_each_player_places_two_tokens() -> None:
    a, b = pair()
    box = krosmaster_of_level(3)
    state, rules, views = set_up([a, box], [b, box], options={"figures": 2})
    ds = duel_state(state)
    players = (DuelPlayer(), DuelPlayer())
    pregame.deploy(state, players, views)
    DuelPlayer.log = []
    pregame.place_tokens(state, ds, rules.opts, players, views)
    first = state.first_player
    assert [side for _, side in DuelPlayer.log] == [first, 1 - first, first, 1 - first]
    assert len(ds.on_cells) == 4


def test_a_board_without_duel_cells_is_refused() -> None:
    a, b = pair()
    with pytest.raises(ContentError, match="not a Duel Pack board"):
        set_up([a], [b], board="arena-pit")
