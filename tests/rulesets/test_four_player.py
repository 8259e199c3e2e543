"""Arena for four players (R-A150-R-A159): free-for-all and two versus two."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from krosbalance.content.registry import default_registry, list_characters
from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK, ScriptedDice
from krosbalance.engine.events import FULL
from krosbalance.engine.view import MatchView
from krosbalance.errors import TeamError
from krosbalance.play import play_match, prepare_match
from krosbalance.rulesets.arena.four_player import (
    SELF_KO_GG,
    TENSION_LOSS,
    TENSION_PASS,
    choose_by_policy,
)
from krosbalance.rulesets.arena.results import arena_stats
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.rulesets.arena.view import arena_view
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing import Scenario, ScriptedController

FFA = {"mode": "free_for_all"}
TWO_V_TWO = {"mode": "two_vs_two"}
BOX = list_characters(set="arena-box")
BOARD = """. . . . .
           . . . . .
           . . . . .
           . . . . ."""
#: one critical success, then no Armour success on two dice: enough to KO a piece one injury from KO
HIT = [CRITICAL, LOCK, LOCK]


def _spec(name: str, **changes):
    spec = default_registry().load_character(name)
    return dataclasses.replace(spec, **changes) if changes else spec


def _teams() -> list[list[str]]:
    """Four teams of two level-3 box Krosmasters (level sum 6, R-A150), every figure once."""
    three = [name for name in BOX if _spec(name).level == 3]
    assert len(three) >= 8
    return [three[2 * seat : 2 * seat + 2] for seat in range(4)]


def _ko(sc: Scenario, attacker, victim, at: tuple[int, int]) -> None:
    """``attacker`` (Anna Tommy) KOs ``victim``, standing next to it at ``at``, with Assault."""
    victim.injuries = victim.hp - 1
    sc.activate(attacker)
    sc.cast(attacker, "assault", at)


# ------------------------------------------------------------------------------- teams, seats
def test_r_a150_a_four_player_team_is_one_to_four_krosmasters_of_level_sum_six():
    rules = get_ruleset("arena", FFA)
    pair = _teams()[0]
    assert [s.id for s in rules.validate_team(pair)] == pair
    with pytest.raises(TeamError, match="level sum 3; it must be exactly 6 \\(R-A150\\)"):
        rules.validate_team(pair[:1])
    with pytest.raises(TeamError, match="level sum 12"):
        rules.validate_team(BOX[:4])
    with pytest.raises(TeamError, match="1 to 4"):
        rules.validate_team([])
    # the two-player rule is unchanged (R-A146)
    assert len(get_ruleset("arena").validate_team(BOX[:4])) == 4


def test_r_a150_r_a146_other_level_totals_are_house_rules_in_the_options():
    """Players may agree on other totals: ``four_player_team_level`` and ``team_level``."""
    three = [name for name in BOX if _spec(name).level == 3]
    rules = get_ruleset("arena", {**FFA, "four_player_team_level": 9})
    assert len(rules.validate_team(three[:3])) == 3
    with pytest.raises(TeamError, match="must be exactly 9 \\(R-A150\\)"):
        rules.validate_team(three[:2])
    assert all(sum(_spec(n).level for n in team) == 9 for team in rules.all_teams(sorted(set(BOX))))
    small = get_ruleset("arena", {"team_level": 6})
    assert len(small.validate_team(three[:2])) == 2
    with pytest.raises(TeamError, match="must be exactly 6 \\(R-A146\\)"):
        small.validate_team(BOX[:4])
    assert all(sum(_spec(n).level for n in a + b) == 12 for a, b in small.team_splits(three[:4]))


def test_r_a152_four_players_field_a_team_each_and_a_match_needs_four_teams():
    teams = _teams()
    result = play_match(*teams, ai="random", seed=3, options={**FFA, "turn_limit": 40})
    assert result.teams == tuple(tuple(t) for t in teams)
    assert result.partnerships == (0, 1, 2, 3)
    with pytest.raises(TeamError, match="seats 4 players"):
        play_match(*teams[:2], ai="random", options=FFA)
    with pytest.raises(TeamError, match="seats 2 players"):
        play_match(*teams, ai="random")


def test_r_a151_r_a153_play_order_by_initiative_sum_then_the_highest_single_initiative():
    rules = get_ruleset("arena", FFA)
    anna = _spec("anna_tommy")
    teams = [
        [_spec("anna_tommy", initiative=5), _spec("bill_tell", initiative=5)],  # 10: [5, 5]
        [_spec("anna_tommy", initiative=9), _spec("bill_tell", initiative=3)],  # 12
        [_spec("anna_tommy", initiative=8), _spec("bill_tell", initiative=2)],  # 10: [8, 2]
        [dataclasses.replace(anna, initiative=1), _spec("bill_tell", initiative=1)],  # 2
    ]
    order = rules.play_order(teams, np.random.default_rng(0))
    assert order == (1, 2, 0, 3)  # R-A151: [8, 2] beats [5, 5] on the highest single Initiative


def test_r_a151_a_full_initiative_tie_is_a_coin_toss():
    rules = get_ruleset("arena", FFA)
    same = [_spec("anna_tommy"), _spec("bill_tell")]
    orders = {rules.play_order([same] * 4, np.random.default_rng(seed)) for seed in range(40)}
    assert len(orders) > 4 and all(sorted(order) == [0, 1, 2, 3] for order in orders)


def test_r_a159_two_vs_two_play_order_alternates_the_partnerships():
    rules = get_ruleset("arena", TWO_V_TWO)
    assert rules.partnerships() == (0, 1, 0, 1)
    teams = [
        [_spec("anna_tommy", initiative=2), _spec("bill_tell", initiative=2)],  # team A, 4
        [_spec("anna_tommy", initiative=9), _spec("bill_tell", initiative=9)],  # team B, 18
        [_spec("anna_tommy", initiative=1), _spec("bill_tell", initiative=1)],  # team A, 2
        [_spec("anna_tommy", initiative=3), _spec("bill_tell", initiative=3)],  # team B, 6
    ]
    # player 1: the highest sum (seat 1); player 3: his ally (seat 3); player 2: the higher of the
    # other partnership (seat 0), player 4: his ally (seat 2)
    assert rules.play_order(teams, np.random.default_rng(0)) == (1, 0, 3, 2)


def test_r_a153_turns_follow_the_play_order_and_skip_a_player_without_krosmasters():
    teams = _teams()
    state, controllers, views = prepare_match(*teams, ai="random", seed=5, options=FFA, record="full")
    order = state.play_order
    assert state.first_player == order[0] == state.active_side
    rules = state.ruleset
    assert [rules.next_player(state, seat) for seat in order] == [*order[1:], order[0]]
    for fighter in state.timeline[order[1]]:
        fighter.alive = False
    assert rules.next_player(state, order[0]) == order[2]


# ------------------------------------------------------------------------------- pregame
class _Picker:
    """A pregame player that records being asked and picks the last board."""

    def __init__(self, log: list[int], seat: int) -> None:
        self.log, self.seat = log, seat

    def choose_board(self, boards, own, opponent) -> int:
        self.log.append(self.seat)
        assert len(opponent) == 6  # three opponents' two Krosmasters each
        return len(boards) - 1

    def choose_draft(self, visible, own, opponent) -> int:
        return 0


def test_r_a154_player_four_chooses_the_board():
    rules = get_ruleset("arena", FFA)
    teams = [[_spec(n) for n in team] for team in _teams()]
    boards = [default_registry().load_board(b) for b in ("arena-elemental", "arena-pit")]
    log: list[int] = []
    order = (2, 0, 3, 1)
    players = [_Picker(log, seat) for seat in range(4)]
    assert rules.choose_board(boards, teams, players, order) == 1
    assert log == [1]  # the last in play order


def test_r_a154_r_a156_player_one_orients_the_board_and_all_deploy_clockwise_in_play_order():
    teams = _teams()
    rules = get_ruleset("arena", FFA)
    specs = [rules.validate_team(team) for team in teams]
    board = default_registry().load_board("arena-elemental")
    state = rules.setup(specs, board, ScriptedDice([]), np.random.default_rng(1), default_registry(), FULL)
    order = state.play_order
    controllers = [ScriptedController(edge=1) for _ in range(4)]  # player 1 picks the 2nd zone: left
    for seat in range(4):
        zone_cells = [
            c for c in range(board.n_cells) if (board.deploy[[2, 1, 3, 0][order.index(seat)]] >> c) & 1
        ]
        controllers[seat].deployment = zone_cells[:2]
    views = [MatchView(state, seat) for seat in range(4)]
    rules.deploy(state, controllers, views)
    clockwise = (0, 2, 1, 3)
    assert [state.edges[seat] for seat in order] == [clockwise[(1 + k) % 4] for k in range(4)]
    for seat in range(4):
        zone = board.deploy[state.edges[seat]]
        assert all((zone >> f.cell) & 1 for f in state.timeline[seat])


def test_r_a156_a_board_without_four_zones_cannot_seat_four_players():
    teams = _teams()
    with pytest.raises(TeamError, match="start zones"):
        play_match(*teams, board="blast-a", ai="random", options=FFA)


# ------------------------------------------------------------------------------- GG
def test_r_a155_three_wild_gg_and_three_gg_each():
    sc = Scenario(BOARD, options=FFA)
    assert sc.arena.gg == [3, 3, 3, 3] and sc.arena.wild_gg == 3 and sc.arena.kamas == [0, 0, 0, 0]


def _four(dice=HIT, options=FFA) -> tuple[Scenario, list]:
    """Anna (seat 0) next to the King (seat 1); seats 2 and 3 stand apart."""
    sc = Scenario(BOARD, dice=list(dice) * 3, options=options)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    other = sc.add("bill_tell", side=1, at=(4, 3))
    third = sc.add("lil_healey", side=2, at=(0, 3))
    fourth = sc.add("oscar_kass", side=3, at=(4, 0))
    return sc, [anna, king, other, third, fourth]


def test_r_a155_a_ko_gives_its_level_to_the_player_who_made_it_wild_gg_first():
    sc, (anna, king, *_) = _four()
    _ko(sc, anna, king, (2, 1))
    assert not king.alive
    # level 3: one wild GG (R-A129), then two from the KO'd Krosmaster's player; nobody else pays
    assert sc.arena.gg == [6, 1, 3, 3] and sc.arena.wild_gg == 2
    assert arena_stats(anna).gg_won == 3 and not sc.state.finished


def test_r_a155_whoever_kos_a_players_last_krosmaster_takes_all_his_gg():
    sc, (anna, king, other, *_) = _four()
    other.alive = False  # seat 1's other Krosmaster is already gone
    sc.arena.gg[:] = [3, 5, 3, 3]
    _ko(sc, anna, king, (2, 1))
    # 1 wild + 2 from seat 1 for the level, then seat 1's remaining 3 GG
    assert sc.arena.gg == [9, 0, 3, 3]
    assert [e.origin for e in sc.events("gg_changed")] == ["wild", "opponent", "last_krosmaster"]
    assert not sc.state.finished  # seats 0, 2 and 3 still have Krosmasters and the wild GG remain


def test_r_a155_a_self_ko_gives_its_level_to_an_opponent_of_the_players_choice():
    sc = Scenario(BOARD, dice=HIT * 3, options=FFA)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    own = sc.add("bill_tell", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 3))
    sc.add("lil_healey", side=2, at=(0, 3))
    sc.add("oscar_kass", side=3, at=(4, 0))
    chooser = ScriptedController(players=[2])
    sc.seat_players([chooser, ScriptedController(), ScriptedController(), ScriptedController()])
    _ko(sc, anna, own, (2, 1))
    assert chooser.players_offered == [(SELF_KO_GG, [1, 2, 3])]
    assert sc.arena.gg == [1, 3, 6, 3] and sc.arena.wild_gg == 2  # the wild GG, then two from seat 0
    assert anna.stats.kills == 0


def test_r_a155_without_players_attached_a_self_ko_follows_the_default_policy():
    sc = Scenario(BOARD, dice=HIT * 3, options=FFA)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    own = sc.add("bill_tell", side=0, at=(2, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 3))
    sc.add("lil_healey", side=2, at=(0, 3))
    sc.add("oscar_kass", side=3, at=(4, 0))
    sc.arena.gg[:] = [3, 4, 1, 2]
    _ko(sc, anna, own, (2, 1))
    assert sc.arena.gg[2] == 4  # the weakest opponent received the GG


def test_r_a155_a_player_with_no_gg_plays_on_while_he_has_figures():
    sc, (anna, king, *_) = _four()
    sc.arena.gg[:] = [3, 0, 3, 3]
    sc.arena.wild_gg = 0
    sc.activate(anna)
    sc.end_turn()
    assert not sc.state.finished and sc.state.ruleset.next_player(sc.state, 0) == 1


# ------------------------------------------------------------------------------- tension
def test_r_a157_a_tension_double_the_active_player_picks_one_opponent_who_picks_another():
    sc, _ = _four(dice=[ARMOUR, ARMOUR])
    active = ScriptedController(tension=sc.tension((ARMOUR, ARMOUR)), players=[2])
    victim = ScriptedController(players=[0])
    sc.seat_players([active, ScriptedController(), victim, ScriptedController()])
    sc.play_turn(active)
    assert active.players_offered == [(TENSION_LOSS, [1, 2, 3])]
    assert victim.players_offered == [(TENSION_PASS, [0, 3, 1])]  # the active player, then in play order
    assert sc.arena.gg == [2, 3, 2, 3] and sc.arena.gg_removed == 2


def test_r_a157_the_default_policy_hurts_the_leader_and_never_a_partner():
    gg, order = [3, 5, 4, 1], (0, 1, 2, 3)
    assert choose_by_policy(gg, (0, 1, 2, 3), order, 0, TENSION_LOSS, [1, 2, 3]) == 0  # seat 1 leads
    assert choose_by_policy([3, 1, 4, 1], (0, 1, 2, 3), order, 0, TENSION_LOSS, [1, 2, 3]) == 1
    # two versus two: seat 2 is seat 0's partner, so seat 3 loses although seat 2 leads
    assert choose_by_policy([3, 1, 6, 2], (0, 1, 0, 1), order, 0, TENSION_PASS, [2, 3, 1]) == 1
    # ties go to the one who plays soonest
    assert choose_by_policy([3, 4, 4, 4], (0, 1, 2, 3), (0, 2, 3, 1), 0, TENSION_LOSS, [1, 2, 3]) == 1


def test_r_a155_the_default_policy_gives_a_self_ko_to_the_weakest_opponent():
    assert choose_by_policy([3, 5, 1, 2], (0, 1, 2, 3), (0, 1, 2, 3), 0, SELF_KO_GG, [1, 2, 3]) == 1
    # ties: the one who plays last after the giver
    assert choose_by_policy([3, 1, 2, 1], (0, 1, 2, 3), (0, 1, 2, 3), 0, SELF_KO_GG, [1, 2, 3]) == 2


# ------------------------------------------------------------------------------- victory
def test_r_a158_free_for_all_the_only_player_holding_gg_wins_once_no_wild_gg_remains():
    sc, (anna, king, *_) = _four()
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [3, 2, 0, 0]
    _ko(sc, anna, king, (2, 1))
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "gg"


def test_r_a158_two_vs_two_the_only_partnership_holding_gg_wins():
    sc, (anna, king, *_) = _four(options=TWO_V_TWO)
    assert sc.state.team_of == (0, 1, 0, 1)
    sc.arena.wild_gg = 0
    sc.arena.gg[:] = [1, 2, 0, 0]  # seat 3 (partner of seat 1) holds none
    _ko(sc, anna, king, (2, 1))
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "gg"


def test_r_a158_two_vs_two_a_partnership_alone_with_figures_wins():
    sc, (anna, king, other, third, fourth) = _four(options=TWO_V_TWO)
    fourth.alive = False
    other.alive = False
    _ko(sc, anna, king, (2, 1))  # seat 1's last Krosmaster; seat 3 has none: partnership 1 is out
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "last_standing"


def test_r_a158_allies_are_not_enemies_in_two_vs_two():
    sc, (anna, king, other, third, fourth) = _four(options=TWO_V_TWO)
    ally = sc.add("queen_of_the_tofus", side=2, at=(1, 2))
    view = MatchView(sc.state, 0)
    assert {f.uid for f in view.allies()} == {anna.uid, third.uid, ally.uid}
    assert {f.uid for f in view.enemies()} == {king.uid, other.uid, fourth.uid}
    assert view.opponents() == [1, 3]


def test_r_a42_r_a158_in_two_vs_two_a_partner_never_rolls_lock():
    """Only opposing characters roll Lock (seed: "ogni personaggio avversario adiacente"); a
    partner is an ally (R-A158), so leaving a cell next to his Krosmaster asks for no roll."""
    sc = Scenario(BOARD, dice=[], options=TWO_V_TWO)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 3))
    partner = sc.add("queen_of_the_tofus", side=2, at=(0, 1))
    sc.add("oscar_kass", side=3, at=(4, 0))
    assert partner.team == anna.team and partner.side != anna.side
    sc.activate(anna)
    sc.move(anna, (1, 2))  # a scripted die asked for would raise: the dice script is empty
    assert sc.events("lock_rolled") == [] and sc.xy(anna) == (1, 2)


def test_r_a42_r_a158_in_two_vs_two_the_opponents_still_lock():
    sc, (anna, king, *_) = _four(dice=[LOCK, ARMOUR], options=TWO_V_TWO)
    sc.add("queen_of_the_tofus", side=2, at=(0, 1))  # a partner beside her: no roll of his own
    sc.activate(anna)
    sc.move(anna, (1, 2))
    (roll,) = sc.events("lock_rolled")
    assert roll.locker == king.uid and roll.blocked and sc.xy(anna) == (1, 1)


def test_r_a42_in_a_free_for_all_every_other_player_locks():
    sc, (anna, king, *_) = _four(dice=[ARMOUR, ARMOUR, ARMOUR, ARMOUR], options=FFA)
    rival = sc.add("queen_of_the_tofus", side=2, at=(0, 1))
    sc.activate(anna)
    sc.move(anna, (1, 2))
    assert sorted(e.locker for e in sc.events("lock_rolled")) == sorted([king.uid, rival.uid])


# ------------------------------------------------------------------------------- whole matches
@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
@pytest.mark.parametrize("ai", ["random", "focus_fire"])
def test_four_player_matches_end_and_replay_identically(mode: str, ai: str):
    teams = _teams()
    first = play_match(*teams, ai=ai, seed=7, options={"mode": mode}, record="full")
    again = play_match(*teams, ai=ai, seed=7, options={"mode": mode}, record="full")
    assert first.end_reason and first.turns > 0
    assert [repr(e) for e in first.events] == [repr(e) for e in again.events]
    assert first.winner is None or first.winner in first.partnerships


def test_the_search_tier_plays_two_players_only_and_says_so():
    from krosbalance.errors import ContentError

    with pytest.raises(ContentError, match="two-player matches only.*AIs for 4 players: .*focus-fire"):
        play_match(*_teams(), ai="lookahead-fast", options=FFA)


# ------------------------------------------------------------------------------- conformance
FOUR_PLAYER_BOARDS = ("arena-elemental", "arena-pit", "bonta-1")


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
@pytest.mark.parametrize("ai", ["random", "focus_fire", "kiter", "objective"])
def test_conformance_four_players_invariants_every_step_every_match_ends(mode: str, ai: str):
    """R-A150-R-A159 as a battery: random box tables, the state checked before every decision and
    unchanged by it, every match ends, and a checked match replays its unchecked log."""
    from krosbalance.testing.conformance import first_difference, run_checked_match

    rules = get_ruleset("arena", {"mode": mode})
    legal = rules.all_teams(sorted(set(BOX)))
    rng = np.random.default_rng(17)
    for match in range(6):
        teams = [list(legal[int(i)]) for i in rng.integers(0, len(legal), size=4)]
        board = FOUR_PLAYER_BOARDS[match % len(FOUR_PLAYER_BOARDS)]
        options = {"mode": mode, "turn_limit": 320}
        checked = run_checked_match(
            *teams[:2],
            board,
            match,
            ai=ai,
            options=options,
            record="full",
            check_untouched=True,
            more_teams=teams[2:],
        )
        plain = play_match(*teams, board=board, seed=match, ai=ai, options=options, record="full")
        assert checked.end_reason and checked.events[-1].kind == "match_ended"
        assert checked.events == plain.events, first_difference(checked.events, plain.events)


# ------------------------------------------------------------------------------- whom the AIs attack
def _attack_choice(ai_name: str, gg: list[int], options=FFA) -> int:
    """The seat whose King Kassius Kaos (seat 0) attacks first when two equal Kings one injury from KO
    stand next to him, one of seat 1 and one of seat 2, with the players holding ``gg``."""
    from krosbalance.ai.registry import get_ai
    from krosbalance.engine.legal import CAST, END

    sc = Scenario(BOARD, dice=[LOCK] * 60, options=options)
    attacker = sc.add("kassius_kaos", side=0, at=(2, 1))
    kings = {
        1: sc.add("king_of_the_gobballs", side=1, at=(1, 1)),
        2: sc.add("king_of_the_gobballs", side=2, at=(3, 1)),
    }
    sc.add("oscar_kass", side=3, at=(4, 3))
    for king in kings.values():
        king.injuries = king.hp - 1  # either KO is one hit away: its worth decides
    sc.arena.gg[:] = gg
    sc.arena.wild_gg = 0
    ai = get_ai(ai_name, "arena", 4)(np.random.default_rng(0))
    sc.activate(attacker)
    view = MatchView(sc.state, 0)
    for _ in range(20):
        action = ai.choose_action(view)
        if action.kind == END:
            break
        if action.kind == CAST:
            return next(seat for seat, king in kings.items() if king.cell == action.target)
        sc.do(attacker, action)
    raise AssertionError(f"{ai_name} did not attack")


@pytest.mark.parametrize("ai", ["focus_fire", "kiter", "objective"])
def test_r_a155_the_heuristics_attack_the_leader_whose_ko_takes_his_gg(ai: str):
    """Policy: a KO takes its level from the victim's player (R-A155), so of two equal KOs the
    heuristics take the one of the player who leads (``ai.scoring.kill_value``: the score swing
    against the strongest other partnership), whichever side of the attacker he stands."""
    assert _attack_choice(ai, [3, 6, 1, 2]) == 1
    assert _attack_choice(ai, [3, 1, 6, 2]) == 2


@pytest.mark.parametrize("ai", ["focus_fire", "kiter", "objective"])
def test_r_a158_in_two_vs_two_the_heuristics_never_attack_a_partner(ai: str):
    """Seat 2 is seat 0's partner: its King is never a target, even when seat 2 leads."""
    assert _attack_choice(ai, [3, 1, 6, 2], options=TWO_V_TWO) == 1


def test_r_a158_in_two_vs_two_pandawa_style_carries_a_partners_krosmaster():
    """Pandawa Style moves "an ally" (seed L2961-L2966); a partner's Krosmaster is one (R-A158), as
    the effect itself (``carry_ally``) already agreed, so the reveal offers it."""
    sc = Scenario(BOARD, dice=[], options=TWO_V_TWO)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 3))
    partner = sc.add("queen_of_the_tofus", side=2, at=(0, 1))
    sc.add("oscar_kass", side=3, at=(4, 0))
    sc.hold(anna, "pandawa_style")
    sc.activate(anna)
    beside = list(sc.state.board.neighbours[anna.cell]).index(partner.cell)
    assert sc.can_reveal(anna, "pandawa_style", beside, (1, 3))
    sc.reveal(anna, "pandawa_style", beside, (1, 3))
    assert sc.xy(partner) == (1, 3)


def test_r_a51_r_a158_a_secret_reward_is_hidden_from_the_opponents_only():
    """A random purchase is secret from "il tuo avversario" (R-A51): in two versus two the partner
    sees it (R-A158), the opponents see only a face-down token."""
    sc = Scenario(BOARD, dice=[], options=TWO_V_TWO)
    anna = sc.add("anna_tommy", side=0, at=(1, 1))
    sc.add("king_of_the_gobballs", side=1, at=(4, 3))
    sc.add("queen_of_the_tofus", side=2, at=(0, 1))
    sc.add("oscar_kass", side=3, at=(4, 0))
    sc.hold(anna, "pandawa_style")
    assert tokens_of(anna)[0].secret
    seen = {}
    for seat in range(4):
        view = MatchView(sc.state, seat)
        seen[seat] = arena_view(view).reward_tokens(view.fighter(anna.uid))
    assert [None if t is None else t.id for t in seen[0]] == ["pandawa_style"]
    assert [None if t is None else t.id for t in seen[2]] == ["pandawa_style"]
    assert seen[1] == [None] and seen[3] == [None]


class _SeatAI:
    """A pregame player named after its seat (the AI name ``seat<n>``) that records being asked."""

    def __init__(self, log: list[str], name: str, opponents: int) -> None:
        self.log, self.name, self.opponents = log, name, opponents

    def choose_board(self, boards, own, opponent) -> int:
        self.log.append(self.name)
        assert len(opponent) == self.opponents  # the other partnerships' Krosmasters only
        return len(boards) - 1

    def choose_draft(self, visible, own, opponent) -> int:
        return 0


@pytest.mark.parametrize(("options", "opponents"), [(FFA, 6), (TWO_V_TWO, 4)])
def test_r_a154_pick_board_asks_player_four_of_that_match(monkeypatch, options, opponents):
    """``play.pick_board`` plays R-A154 (it refused four teams): player 4 of the match, the last in
    the play order ``prepare_match`` decides on the same seed, chooses; in two versus two his
    opponents are the other partnership, not his partner. Seeded: same seed, same board."""
    from krosbalance import play

    teams = _teams()
    boards = ["arena-elemental", "arena-pit"]
    rules = get_ruleset("arena", options)
    log: list[str] = []
    real_get_ai = play.get_ai

    def seat_ai(name: str, ruleset: str | None = None, seats: int = 2):
        if not name.startswith("seat"):
            return real_get_ai(name, ruleset, seats)
        return lambda rng: _SeatAI(log, name, opponents)

    monkeypatch.setattr(play, "get_ai", seat_ai)
    for seed in range(4):
        order = prepare_match(*teams, ai="random", seed=seed, ruleset=rules)[0].play_order
        log.clear()
        names = tuple(f"seat{s}" for s in range(4))
        board = play.pick_board(boards, *teams, ai=names, seed=seed, ruleset=rules)
        assert board == boards[-1] and log == [f"seat{order[-1]}"]
    monkeypatch.setattr(play, "get_ai", real_get_ai)
    picks = [play.pick_board(boards, *teams, ai="kiter", seed=s, options=options) for s in range(3)]
    assert picks == [play.pick_board(boards, *teams, ai="kiter", seed=s, ruleset=rules) for s in range(3)]


@pytest.mark.parametrize("mode", ["free_for_all", "two_vs_two"])
def test_r_a152_the_reward_studys_per_side_lists_are_refused_at_four_seats(mode: str):
    """``purchasable_rewards`` and the other per-side reward options list two sides; at four seats
    they once reached ``may_buy`` for seat 2 and ended in an IndexError. Refused in one line now."""
    from krosbalance.errors import ContentError

    with pytest.raises(ContentError, match="purchasable_rewards.*one entry per side of a two-player match"):
        play_match(*_teams(), options={"mode": mode, "purchasable_rewards": [["xelor_style"], []]})
    with pytest.raises(ContentError, match="start_rewards"):
        get_ruleset("arena", {"mode": mode, "start_rewards": [[], ["xelor_style"]]})
