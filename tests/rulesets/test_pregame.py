"""Team choice (R-A17) and board and edge choice (R-A19): the pregame of krosbalance.rulesets.arena."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from krosbalance.ai.base import AI, card_value
from krosbalance.ai.random_ai import RandomAI
from krosbalance.board.board import Board
from krosbalance.content.registry import default_registry, list_characters
from krosbalance.engine.view import MatchView
from krosbalance.play import deal_teams, pick_board, prepare_match
from krosbalance.rulesets.arena import (
    choose_board,
    choose_edges,
    deploy,
    draft,
    draft_splits_evenly,
    random_deal,
    validate_team,
)
from krosbalance.testing import ScriptedController

from .test_teams import _setup

BOX = list_characters(set="arena-box")  # the eight box Krosmasters, from the registry


class Recorder:
    """A drafting player that logs what it was offered and takes the card its rule says."""

    def __init__(self, name: int, log: list, pick=lambda visible: 0) -> None:
        self.name, self.log, self.pick = name, log, pick

    def choose_draft(self, visible, own, opponent):
        self.log.append((self.name, [s.id for s in visible], len(own), len(opponent)))
        return self.pick(visible)

    def choose_board(self, boards, own, opponent):
        self.log.append((self.name, "board", len(boards)))
        return len(boards) - 1


def _specs(ids):
    registry = default_registry()
    return [registry.load_character(i) for i in ids]


@pytest.mark.parametrize("seed", range(6))
def test_r_a17_the_draft_step_by_step(seed: int):
    """Seed L2170-L2178: two cards face up; a random player takes one of them and a card is turned up;
    then each player in turn (the other first) takes two consecutive cards from the two visible ones,
    refilling, until the deck is used up; the last card goes to the player who chose first."""
    assert len(BOX) == 8
    log: list = []
    players = (Recorder(0, log), Recorder(1, log))
    hands = draft(_specs(BOX), players, np.random.default_rng(seed))
    first = log[0][0]
    other = 1 - first
    assert [who for who, *_ in log] == [first, other, other, first, first, other, other]
    assert all(len(visible) == 2 for _, visible, *_ in log)  # always a choice between two cards
    assert [(own, opp) for _, _, own, opp in log] == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3)]
    assert len(hands[0]) == len(hands[1]) == 4
    assert Counter(s.id for s in hands[0] + hands[1]) == Counter(BOX)
    taken = {who: [] for who in (0, 1)}
    for who, visible, *_ in log:
        taken[who].append(visible[0])
    assert [s.id for s in hands[other]] == taken[other]
    assert [s.id for s in hands[first]][:3] == taken[first]  # plus the last card, given
    # the card left over is the one never offered-and-taken
    for team in hands:
        validate_team([s.id for s in team])


def test_r_a17_the_draft_follows_the_players_choices():
    log: list = []
    greedy = (Recorder(0, log, pick=lambda v: 1), Recorder(1, log, pick=lambda v: 1))
    lazy = (Recorder(0, [], pick=lambda v: 0), Recorder(1, [], pick=lambda v: 0))
    a = draft(_specs(BOX), greedy, np.random.default_rng(3))
    b = draft(_specs(BOX), lazy, np.random.default_rng(3))
    assert [s.id for s in a[0]] != [s.id for s in b[0]]


def test_r_a17_the_draft_needs_a_deck_it_splits_evenly():
    assert draft_splits_evenly(8) and draft_splits_evenly(4) and not draft_splits_evenly(6)
    with pytest.raises(Exception, match="multiple of 4"):
        draft(_specs(BOX[:6]), (Recorder(0, []), Recorder(1, [])), np.random.default_rng(0))


def test_r_a17_random_deal_gives_half_the_cards_to_each_player():
    hands = random_deal(BOX, np.random.default_rng(1))
    assert len(hands[0]) == len(hands[1]) == 4 and Counter(hands[0] + hands[1]) == Counter(BOX)
    deals = {tuple(sorted(random_deal(BOX, np.random.default_rng(s))[0])) for s in range(30)}
    assert len(deals) > 10  # it is random


def test_r_a17_deal_teams_is_seeded_and_lists_teams_in_pool_order():
    for mode in ("random_deal", "draft"):
        a = deal_teams(mode, BOX, ("focus_fire", "random"), 99)
        assert a == deal_teams(mode, BOX, ("focus_fire", "random"), 99)
        assert Counter(a[0] + a[1]) == Counter(BOX)
        assert all(list(t) == [c for c in BOX if c in t] for t in a)
    draws = {deal_teams("draft", BOX, ("random", "random"), s) for s in range(12)}
    assert len(draws) > 3


def test_r_a17_the_default_draft_pick_is_the_higher_card_value():
    specs = _specs(BOX)
    best = max(range(2), key=lambda i: (card_value(specs[i]), -i))
    ai = AI(np.random.default_rng(0))
    assert ai.choose_draft(specs[:2], [], []) == best


def test_r_a19_the_first_player_chooses_the_board():
    registry = default_registry()
    boards = [registry.load_board("arena-elemental"), registry.load_board("arena-pit")]
    teams = (_specs(BOX[:4]), _specs(BOX[4:]))
    for first in (0, 1):
        log: list = []
        players = (Recorder(0, log), Recorder(1, log))
        assert choose_board(boards, teams, players, first) == 1
        assert log == [(first, "board", 2)]


def test_r_a19_pick_board_asks_the_first_player_of_that_match():
    fast = ["anna_tommy", "queen_of_the_tofus", "bill_tell", "oscar_kass"]  # initiative 9+8+7+6
    slow = ["kassius_kaos", "bad_aboum", "king_of_the_gobballs", "lil_healey"]
    boards = ["arena-elemental", "test-scenery-6x6"]
    # the default AI picks by reach vs trees: the side that plays first decides, whichever side it is
    picks = {pick_board(boards, fast, slow, ai="focus_fire", seed=s) for s in range(3)}
    swapped = {pick_board(boards, slow, fast, ai="focus_fire", seed=s) for s in range(3)}
    assert len(picks) == 1 and picks == swapped
    assert pick_board(boards[:1], fast, slow, ai=("random", "random"), seed=0) == boards[0]


def test_r_a19_the_default_board_choice_follows_reach():
    open_board = Board.from_ascii(". . .\n. . .", id="open")
    wooded = Board.from_ascii(". T .\nT . T", id="wooded")
    ai = AI(np.random.default_rng(0))
    far = _specs(["bill_tell"])  # range 3-8
    near = _specs(["anna_tommy"])  # range 1-2
    assert ai.choose_board([wooded, open_board], far, near) == 1  # outranges: open lines of sight
    assert ai.choose_board([wooded, open_board], near, far) == 0  # outranged: cover


def test_r_a19_the_other_player_picks_the_edge_and_the_first_player_sits_opposite():
    ids = (
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
    )
    state = _setup(*ids)
    first = state.first_player
    board = state.board
    controllers = [ScriptedController(), ScriptedController()]
    controllers[1 - first] = ScriptedController(edge=first)  # he takes the zone the board lists for the first
    views = (MatchView(state, 0), MatchView(state, 1))
    choose_edges(state, tuple(controllers), views)
    assert state.edges[1 - first] == first and state.edges[first] == 1 - first
    zone_of = {
        side: [c for c in range(board.n_cells) if (board.deploy[state.edges[side]] >> c) & 1]
        for side in (0, 1)
    }
    controllers[0].deployment = zone_of[0][:4]
    controllers[1].deployment = zone_of[1][:4]
    deploy(state, tuple(controllers), views)
    for side in (0, 1):
        assert all((board.deploy[state.edges[side]] >> f.cell) & 1 for f in state.timeline[side])


def test_r_a19_an_edge_that_is_not_offered_is_refused():
    ids = (
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
    )
    state = _setup(*ids)
    controllers = (ScriptedController(edge=2), ScriptedController(edge=2))
    with pytest.raises(Exception, match="edge"):
        choose_edges(state, controllers, (MatchView(state, 0), MatchView(state, 1)))


def test_r_a19_every_match_asks_the_edge_of_the_player_who_is_not_first():
    state, controllers, views = prepare_match(
        ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "lil_healey"],
        ["queen_of_the_tofus", "bill_tell", "oscar_kass", "bad_aboum"],
        ai="random",
        seed=4,
    )
    assert sorted(state.edges) == [0, 1]
    for side in (0, 1):
        zone = state.board.deploy[state.edges[side]]
        assert all((zone >> f.cell) & 1 for f in state.timeline[side])
    assert isinstance(controllers[0], RandomAI)
