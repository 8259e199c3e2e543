"""Team building, first player, Timeline and set-up (R-A17-R-A25, R-A146-R-A151)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from krosbalance.board.board import Board
from krosbalance.content.registry import default_registry, list_characters
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.events import FULL
from krosbalance.engine.view import MatchView
from krosbalance.errors import IllegalActionError, TeamError
from krosbalance.rulesets.arena import arena_state, deploy, first_player, setup, validate_team
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing import ScriptedController

BOX = list_characters(set="arena-box")  # the eight box Krosmasters, from the registry


def _spec(name):
    return default_registry().load_character(name)


def _with_initiative(name, initiative):
    return dataclasses.replace(_spec(name), initiative=initiative)


def test_r_a146_a_team_is_two_to_eight_krosmasters_of_level_sum_twelve():
    assert [s.id for s in validate_team(BOX[:4])] == BOX[:4]
    with pytest.raises(TeamError, match="level sum 9"):
        validate_team(BOX[:3])
    with pytest.raises(TeamError, match="level sum 15"):
        validate_team(BOX[:5])
    with pytest.raises(TeamError, match="2 to 8"):
        validate_team([])


def test_r_a146_summon_tokens_cannot_be_in_a_team():
    with pytest.raises(TeamError, match="token"):
        validate_team(["gobball", "anna_tommy", "bill_tell", "lil_healey"])


def test_r_a147_gold_names_once_white_names_at_most_twice():
    assert len(validate_team(["anna_tommy", "anna_tommy", "bill_tell", "bill_tell"])) == 4
    with pytest.raises(TeamError, match="at most 2"):
        validate_team(["anna_tommy", "anna_tommy", "anna_tommy", "bill_tell"])
    with pytest.raises(TeamError, match="at most 1"):
        validate_team(["king_of_the_gobballs", "king_of_the_gobballs", "anna_tommy", "bill_tell"])
    assert len(validate_team(["king_of_the_gobballs", "queen_of_the_tofus", "anna_tommy", "bill_tell"])) == 4


def test_r_a148_both_players_may_field_identical_teams():
    team = ["king_of_the_gobballs", "anna_tommy", "anna_tommy", "bill_tell"]
    assert validate_team(team) == validate_team(list(team))


@pytest.mark.parametrize(
    ("team0", "team1", "first"),
    [
        (["anna_tommy", "queen_of_the_tofus"], ["oscar_kass", "king_of_the_gobballs"], 0),  # 17 vs 8
        (["oscar_kass", "kassius_kaos"], ["anna_tommy", "bill_tell"], 1),  # 10 vs 16
        (  # WAKFU 9+4+2+1 = 16 vs STASI 8+7+6+3 = 24
            ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
            ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
            1,
        ),
    ],
)
def test_r_a18_higher_initiative_sum_plays_first_rulebook_examples(team0, team1, first):
    specs0, specs1 = [_spec(n) for n in team0], [_spec(n) for n in team1]
    assert first_player(specs0, specs1, np.random.default_rng(0)) == first


def test_r_a151_a_tie_compares_the_highest_initiatives_then_the_next():
    # 9 + 1 = 10 vs 6 + 4 = 10: the highest single initiative (9) wins
    tied0 = [_spec("anna_tommy"), _spec("lil_healey")]
    tied1 = [_spec("oscar_kass"), _spec("kassius_kaos")]
    assert first_player(tied0, tied1, np.random.default_rng(0)) == 0
    assert first_player(tied1, tied0, np.random.default_rng(0)) == 1
    # 5 + 3 + 2 vs 5 + 4 + 1: equal highest, the second highest decides
    a = [
        _with_initiative("anna_tommy", 5),
        _with_initiative("bill_tell", 3),
        _with_initiative("lil_healey", 2),
    ]
    b = [
        _with_initiative("anna_tommy", 5),
        _with_initiative("bill_tell", 4),
        _with_initiative("lil_healey", 1),
    ]
    assert first_player(a, b, np.random.default_rng(0)) == 1


def test_r_a151_a_perfect_tie_is_a_coin_toss():
    team = [_spec("anna_tommy"), _spec("lil_healey")]
    results = {first_player(team, list(team), np.random.default_rng(seed)) for seed in range(40)}
    assert results == {0, 1}


BOARD = """b b b b
           . . . .
           . . . .
           a a a a"""


def _setup(team0, team1, dice=()):
    board = Board.from_ascii(BOARD, id="deploy")
    registry = default_registry()
    specs = (validate_team(team0, registry), validate_team(team1, registry))
    return setup(
        specs,
        board,
        get_ruleset("arena"),
        ScriptedDice(list(dice)),
        np.random.default_rng(0),
        registry,
        FULL,
    )


def test_r_a20_timeline_in_decreasing_initiative_ties_keep_the_given_order():
    state = _setup(
        ["lil_healey", "anna_tommy", "bad_aboum", "bill_tell"],
        ["bill_tell", "bill_tell", "king_of_the_gobballs", "queen_of_the_tofus"],
    )
    assert [f.spec.id for f in state.timeline[0]] == ["anna_tommy", "bill_tell", "bad_aboum", "lil_healey"]
    ids1 = [(f.spec.id, f.uid) for f in state.timeline[1]]
    assert [i for i, _ in ids1] == ["queen_of_the_tofus", "bill_tell", "bill_tell", "king_of_the_gobballs"]
    assert ids1[1][1] < ids1[2][1]  # the two equal Bill Tells keep the order they were given in


def test_r_a18_r_a24_setup_decides_the_first_player_and_gives_six_gg_each_plus_the_wild_gg():
    state = _setup(
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
    )
    assert state.first_player == 1 and state.active_side == 1
    arena = arena_state(state)
    assert arena.gg == [6, 6] and arena.wild_gg == 1 and arena.kamas == [0, 0]
    assert set(state.summon_specs) == {"gobball", "tofu", "water_bomb"}


def test_r_a25_the_first_player_deploys_first_on_his_own_deployment_cells():
    state = _setup(
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
    )
    board = state.board
    order = []

    class Recording(ScriptedController):
        def choose_deployment(self, view, fighters, cells):
            order.append((view.side, sorted(cells)))
            return super().choose_deployment(view, fighters, cells)

    zone0 = [board.cell(x, 3) for x in range(4)]
    zone1 = [board.cell(x, 0) for x in range(4)]
    controllers = (Recording(deployment=zone0[::-1]), Recording(deployment=zone1))
    deploy(state, controllers, (MatchView(state, 0), MatchView(state, 1)))
    assert order == [(1, zone1), (0, zone0)]
    assert [f.cell for f in state.timeline[1]] == zone1
    assert [f.cell for f in state.timeline[0]] == zone0[::-1]


def test_r_a25_deploying_outside_the_own_zone_is_refused():
    state = _setup(
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
    )
    board = state.board
    wrong = [board.cell(x, 2) for x in range(4)]
    zone1 = [board.cell(x, 0) for x in range(4)]
    controllers = (ScriptedController(deployment=wrong), ScriptedController(deployment=zone1))
    with pytest.raises(IllegalActionError):
        deploy(state, controllers, (MatchView(state, 0), MatchView(state, 1)))
    same = [board.cell(0, 0)] * 4
    state2 = _setup(
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
    )
    with pytest.raises(IllegalActionError):
        deploy(
            state2,
            (ScriptedController(), ScriptedController(deployment=same)),
            (MatchView(state2, 0), MatchView(state2, 1)),
        )


def test_r_a25_not_enough_deployment_cells_is_a_team_error():
    board = Board.from_ascii(
        """b b b .
                               . . . .
                               a a a a""",
        id="small",
    )
    registry = default_registry()
    specs = (validate_team(BOX[:4], registry), validate_team(BOX[4:], registry))
    state = setup(specs, board, get_ruleset("arena"), ScriptedDice([]), np.random.default_rng(0), registry)
    assert state.first_player == 0  # 23 vs 17: deploys on his 4 cells, then player 1 has only 3
    zone0 = [board.cell(x, 2) for x in range(4)]
    with pytest.raises(TeamError, match="3 free deployment cells"):
        deploy(
            state,
            (ScriptedController(deployment=zone0), ScriptedController()),
            (MatchView(state, 0), MatchView(state, 1)),
        )


def test_r_a146_r_a147_a_split_pool_is_bounded_by_the_team_rule_not_by_its_length():
    """Issue 36: ``team_splits`` walked every count of every name and sorted the rest of the pool for
    each candidate team, so ``validate`` of a 60,000-name ``splits`` pool (975 KB) ran past 150 s.
    A split gives each figure to one of two teams of at most 8 (R-A146) of level sum 12, with at most
    two copies of a white name each (R-A147): what cannot be split is answered by counting."""
    import time

    from krosbalance.rulesets.arena.teams import legal_teams, split_problem, team_splits

    cards = {name: _spec(name) for name in BOX}
    pool = [BOX[i % len(BOX)] for i in range(60_000)]
    start = time.perf_counter()
    assert team_splits(pool, cards) == []
    teams = legal_teams(pool, cards)  # a name is taken at most as often as a team may hold it
    assert time.perf_counter() - start < 1.5
    assert teams == legal_teams(BOX + [n for n in BOX if cards[n].colour == "white"], cards)
    assert split_problem(pool, cards) == (
        "it has 60000 figures; a split gives each to one of two teams of 2 to 8 (R-A146), so it needs 4 to 16"
    )
    assert split_problem(BOX[:3] * 2, cards).startswith("its levels sum to 18; two teams of level sum 12")
    assert split_problem(BOX, cards) == ""
    # the box's eight split as they always did: 35 splits, each unordered once, every one legal
    box = team_splits(BOX, cards)
    assert len(box) == len({frozenset((a, b)) for a, b in box}) == 35
    assert all(BOX[0] in a and sorted(a + b) == sorted(BOX) for a, b in box)


def test_r_a147_a_pool_with_more_copies_than_two_teams_may_hold_has_no_split():
    @dataclasses.dataclass(frozen=True)
    class Card:
        id: str
        name: str
        level: int
        colour: str

    cards = {"w": Card("w", "W", 2, "white"), "g": Card("g", "G", 6, "gold")}
    assert split_problem_of(["w"] * 6 + ["g", "g"], cards) == (
        "it holds 6 copies of W (white name); two teams hold at most 4 (R-A147)"
    )


def split_problem_of(pool, cards):
    from krosbalance.rulesets.arena.teams import split_problem, team_splits

    assert team_splits(pool, cards) == []
    return split_problem(pool, cards)
