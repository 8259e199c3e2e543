"""Every declared ruleset option changes behaviour (issue 6): one probe per option in
``rulesets/arena/data/arena.toml``, played under the default and under another value, must give different
outcomes; a meta-test checks that the probes cover exactly the declared options and that the engine
code reads each of them."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from krosbalance.content.registry import default_registry, list_characters
from krosbalance.engine.dice import ARMOUR, CRITICAL, LOCK, ScriptedDice
from krosbalance.engine.legal import Action, legal_actions
from krosbalance.engine.match import run_to_end
from krosbalance.engine.view import MatchView
from krosbalance.errors import ContentError
from krosbalance.rulesets.arena.kinds import BUY_GG, BUY_REWARD
from krosbalance.rulesets.arena.options import DATA_FILE
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing import Scenario, ScriptedController

from ..engine.specs import character, spell

PACKAGE = Path(__file__).resolve().parents[2] / "krosbalance"
DECLARED = sorted(tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))["options"])

Probe = Callable[[dict[str, Any]], Any]


def _state(options: dict[str, Any], board: str = ". . .\n. . .") -> Scenario:
    return Scenario(board, options=options)


def _starting_gg(options):
    return tuple(_state(options).arena.gg)


def _wild_gg(options):
    return _state(options).arena.wild_gg


def _kama_reserve(options):
    return _state(options, "2 . .\n. . .").arena.kama_reserve


def _gg_price(options):
    sc = Scenario("D . .\n. . .", options=options)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.arena.kamas[0] = 10
    sc.activate(anna)
    return sc.can(anna, Action(BUY_GG))


def _first_turn_tension(options):
    sc = Scenario(". . .\n. . .", options=options, turn=0, dice=[ARMOUR, LOCK])
    sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    controller = ScriptedController(tension=sc.tension((ARMOUR, LOCK)))
    sc.play_turn(controller)
    return len(controller.raw_tension)


def _zero_gg_loses(options):
    sc = _state(options)
    sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.arena.gg[:] = [12, 0]  # the wild GG is still there
    sc.activate(king)
    return sc.state.finished


def _turn_limit_match(options) -> Scenario:
    sc = Scenario(". . . .\n. . . .", options=options, turn=0, dice=[ARMOUR, LOCK] * 200)
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 1))
    sc.arena.gg[:] = [7, 5]
    sc.arena.wild_gg = 0
    tension = [sc.tension((ARMOUR, LOCK))] * 100
    controllers = (ScriptedController(tension=tension), ScriptedController(tension=tension))
    views = (MatchView(sc.state, 0), MatchView(sc.state, 1))
    del anna, king
    run_to_end(sc.state, controllers, views)
    return sc


def _turn_limit(options):
    return _turn_limit_match(options).state.turn


def _turn_limit_result(options):
    state = _turn_limit_match({"turn_limit": 3, **options}).state
    return (state.winner, state.end_reason)


def _strict_corner_los(options):
    dart = character("darter", spells=(spell("dart", rmin=1, rmax=3, amount=1),))
    sc = Scenario(". T\nT .", options=options, specs=[dart])
    me = sc.add(dart, side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(1, 1))
    sc.activate(me)
    return sc.can_cast(me, "dart", (1, 1))  # the line squeezes between two trees at a corner


def _caster_in_own_area(options):
    quake = character("quaker", spells=(spell("quake", rmin=1, rmax=2, amount=1, area="cross"),))
    sc = Scenario(". . .\n. . .", options=options, dice=[LOCK, LOCK, LOCK, LOCK], specs=[quake])
    me = sc.add(quake, side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.activate(me)
    sc.cast(me, "quake", (1, 0))  # the Cross around (1, 0) covers the caster's cell
    return me.injuries


def _lock_block_ends_turn(options):
    sc = Scenario(". . .\n. . .", options=options, dice=[LOCK, ARMOUR, ARMOUR])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(1, 0))
    sc.activate(anna)
    sc.move(anna, (0, 1))  # King's Lock (2 dice) LOCK, ARMOUR: 1; Anna's Dodge ARMOUR: 0 -> blocked
    return anna.ap


def _bombs_unfazed(options):
    shove = character(
        "shover",
        spells=(
            spell(
                "shove", kind="special", ap=1, amount=0, range_type="line", effects=(("push", {"cells": 1}),)
            ),
        ),
    )
    sc = Scenario(". . . .\n. . . .", options=options, specs=[shove])
    me = sc.add(shove, side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(3, 1))
    bomb = sc.add("water_bomb", side=1, at=(1, 0), summoner=bad)
    sc.activate(me)
    sc.cast(me, "shove", (1, 0))
    return sc.xy(bomb)


def _bomb_armour_dice(options):
    sc = Scenario(". . . .\n. . . .", options=options, dice=[LOCK, ARMOUR, ARMOUR, LOCK])
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    bad = sc.add("bad_aboum", side=1, at=(3, 1))
    sc.add("water_bomb", side=1, at=(1, 0), summoner=bad)
    sc.activate(anna)
    sc.cast(anna, "assault", (1, 0))
    return sc.dice.remaining


def _simultaneous_zero_gg(options):
    sc = Scenario(". . .\n. . .", options=options, turn=1, dice=[ARMOUR, ARMOUR])
    sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.arena.wild_gg, sc.arena.gg[:], sc.arena.gg_removed = 0, [1, 1], 11
    sc.play_turn(ScriptedController(tension=sc.tension((ARMOUR, ARMOUR))))
    return sc.state.finished, sc.state.end_reason


def _scenery_match(options, board: str = ". B .", at: tuple[int, int] = (1, 0), dice=(CRITICAL,)):
    sc = Scenario(board, options=options, dice=list(dice))
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(2, 0))
    sc.activate(king)
    sc.cast(king, "gobbolob", at)
    return sc


def _scenery_destruction(options):
    return _scenery_match(options).state.scenery_injuries


def _scenery_hp(options):
    return _scenery_match({"scenery_destruction": True, **options}).state.bushes


def _scenery_loot(options):
    sc = _scenery_match(
        {"scenery_destruction": True, "scenery_hp": {"crate": 1, "bush": 6, "tree": 12}, **options}, ". C ."
    )
    return sc.arena.board_kamas[sc.cell(1, 0)]


def _scenery_hit_under_piece(options):
    sc = Scenario(". C .\n. . .", options={"scenery_destruction": True, **options}, dice=[CRITICAL, LOCK])
    king = sc.add("king_of_the_gobballs", side=0, at=(0, 0))
    sc.add("anna_tommy", side=1, at=(1, 0))
    sc.add("lil_healey", side=1, at=(2, 1))
    sc.activate(king)
    sc.cast(king, "gobbolob", (1, 0))  # Anna stands on the crate
    return sc.state.scenery_injuries


#: option -> (another value than the default, probe of an observable outcome)
def _shop(options, kamas=20) -> tuple[Scenario, Any]:
    sc = Scenario("D . .\n. . .", options=options)
    sc.open_market()
    buyer = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.arena.kamas[0] = kamas
    sc.activate(buyer)
    return sc, buyer


def _demonic_rewards(options):
    sc, buyer = _shop(options)
    return any(a.kind == BUY_REWARD for a in legal_actions(sc.state, buyer))


def _reward_prices(options):
    sc, buyer = _shop({"demonic_rewards": True, **options}, kamas=2)
    return any(a.kind == BUY_REWARD for a in legal_actions(sc.state, buyer))


def _reward_refill(options):
    sc, buyer = _shop({"demonic_rewards": True, **options})
    sc.buy_reward(buyer, 0, sc.arena.market.face_up[0][1].rank, buyer)
    return len(sc.arena.market.face_up)


def _reward_reveal(options):
    return len(_shop(options)[0].arena.market.face_up)


def _element_boost_waits(options):
    zap = spell("zap", element="fire", ap=3, amount=1)
    splash = spell("splash", element="water", ap=3, amount=1)
    caster = character("caster", spells=(zap, splash))
    dummy = character("target", hp=20)
    sc = Scenario(". . . .\n. . . .", options=options, dice=[ARMOUR, LOCK] * 2, specs=[caster, dummy])
    hero = sc.add(caster, side=0, at=(0, 0))
    target = sc.add(dummy, side=1, at=(2, 0))
    sc.hold(hero, "fire_boost")
    sc.activate(hero)
    sc.reveal(hero, "fire_boost")
    sc.cast(hero, "splash", (2, 0))
    sc.cast(hero, "zap", (2, 0))
    return target.injuries


def _start_rewards(options):
    rules = get_ruleset("arena", options)
    board = default_registry().load_board("arena-elemental")
    teams = tuple(
        [default_registry().load_character(n) for n in names]
        for names in (("anna_tommy", "bill_tell", "lil_healey", "bad_aboum"),) * 2
    )
    state = rules.setup(teams, board, ScriptedDice([]), np.random.default_rng(0), default_registry())
    controllers = tuple(
        ScriptedController(
            deployment=[c for c in range(board.n_cells) if (board.deploy[side] >> c) & 1][:4], edge=side
        )
        for side in (0, 1)
    )
    rules.deploy(state, controllers, (MatchView(state, 0), MatchView(state, 1)))
    return [[t.spec.id for f in state.timeline[side] for t in tokens_of(f)] for side in (0, 1)]


def _start_reward_prices(options):
    """The kamas each side holds once the held token is given (team A's price charged)."""
    from krosbalance.rulesets.arena.state import arena_state

    rules = get_ruleset("arena", {"start_rewards": [["xelor_style"], []], **options})
    board = default_registry().load_board("arena-elemental")
    teams = tuple(
        [default_registry().load_character(n) for n in names]
        for names in (("anna_tommy", "bill_tell", "lil_healey", "bad_aboum"),) * 2
    )
    state = rules.setup(teams, board, ScriptedDice([]), np.random.default_rng(0), default_registry())
    controllers = tuple(
        ScriptedController(
            deployment=[c for c in range(board.n_cells) if (board.deploy[side] >> c) & 1][:4], edge=side
        )
        for side in (0, 1)
    )
    rules.deploy(state, controllers, (MatchView(state, 0), MatchView(state, 1)))
    return list(arena_state(state).kamas), arena_state(state).kama_reserve


def _start_reward_gg_prices(options):
    """Each side's GG once the held token is given (team A's GG price given back to the box)."""
    from krosbalance.rulesets.arena.state import arena_state

    rules = get_ruleset("arena", {"start_rewards": [["xelor_style"], []], **options})
    board = default_registry().load_board("arena-elemental")
    teams = tuple(
        [default_registry().load_character(n) for n in names]
        for names in (("anna_tommy", "bill_tell", "lil_healey", "bad_aboum"),) * 2
    )
    state = rules.setup(teams, board, ScriptedDice([]), np.random.default_rng(0), default_registry())
    controllers = tuple(
        ScriptedController(
            deployment=[c for c in range(board.n_cells) if (board.deploy[side] >> c) & 1][:4], edge=side
        )
        for side in (0, 1)
    )
    rules.deploy(state, controllers, (MatchView(state, 0), MatchView(state, 1)))
    return list(arena_state(state).gg), arena_state(state).gg_removed


def _start_reward_holders(options):
    """Who holds the token held from the start: the controller's pick, or the named Krosmaster."""
    rules = get_ruleset("arena", {"start_rewards": [["xelor_style"], []], **options})
    board = default_registry().load_board("arena-elemental")
    teams = tuple(
        [default_registry().load_character(n) for n in names]
        for names in (("anna_tommy", "bill_tell", "lil_healey", "bad_aboum"),) * 2
    )
    state = rules.setup(teams, board, ScriptedDice([]), np.random.default_rng(0), default_registry())
    controllers = tuple(
        ScriptedController(
            deployment=[c for c in range(board.n_cells) if (board.deploy[side] >> c) & 1][:4], edge=side
        )
        for side in (0, 1)
    )
    rules.deploy(state, controllers, (MatchView(state, 0), MatchView(state, 1)))
    return [f.spec.id for f in state.timeline[0] if tokens_of(f)]


def _purchasable_rewards(options):
    """What side 0 may buy on a Demon cell with the market off: nothing, or the listed token."""
    from krosbalance.rulesets.arena.rewards import open_market, purchase_of

    sc = Scenario("D . .\n. . .", options=options)
    open_market(sc.state, sc.rules.options, default_registry().all_rewards(), np.random.default_rng(0))
    buyer = sc.add("anna_tommy", side=0, at=(0, 0))
    sc.add("king_of_the_gobballs", side=1, at=(2, 1))
    sc.arena.kamas[0] = 20
    sc.activate(buyer)
    market = sc.arena.market
    return sorted(
        market.face_up[purchase_of(a).visible][1].id
        for a in legal_actions(sc.state, buyer)
        if a.kind == BUY_REWARD
    )


def _four_player_state(options):
    return Scenario(". . .\n. . .", options={"mode": "free_for_all", **options}).arena


def _mode(options):
    sc = Scenario(". . .\n. . .", options=options)
    return sc.state.n_seats, sc.state.team_of, len(sc.arena.gg)


def _four_player_gg(options):
    return tuple(_four_player_state(options).gg)


def _four_player_wild_gg(options):
    return _four_player_state(options).wild_gg


def _team_level(options):
    return len(get_ruleset("arena", options).all_teams(list_characters(set="arena-box")))


def _four_player_team_level(options):
    return len(
        get_ruleset("arena", {"mode": "free_for_all", **options}).all_teams(list_characters(set="arena-box"))
    )


PROBES: dict[str, tuple[Any, Probe]] = {
    "mode": ("two_vs_two", _mode),
    "team_level": (8, _team_level),
    "four_player_team_level": (9, _four_player_team_level),
    "four_player_gg": (5, _four_player_gg),
    "four_player_wild_gg": (1, _four_player_wild_gg),
    "starting_gg": (3, _starting_gg),
    "wild_gg": (0, _wild_gg),
    "gg_price": (12, _gg_price),
    "kama_reserve": (10, _kama_reserve),
    "first_turn_tension": (True, _first_turn_tension),
    "zero_gg_loses": (True, _zero_gg_loses),
    "turn_limit": (7, _turn_limit),
    "turn_limit_result": ("gg", _turn_limit_result),
    "strict_corner_los": (True, _strict_corner_los),
    "caster_in_own_area": (False, _caster_in_own_area),
    "lock_block_ends_turn": (False, _lock_block_ends_turn),
    "bombs_unfazed": (True, _bombs_unfazed),
    "bomb_armour_dice": (0, _bomb_armour_dice),
    "simultaneous_zero_gg": ("play_on", _simultaneous_zero_gg),
    "scenery_destruction": (True, _scenery_destruction),
    "scenery_hp": ({"crate": 3, "bush": 1, "tree": 12}, _scenery_hp),
    "scenery_loot": ({"crate": 3, "bush": 2, "tree": 4}, _scenery_loot),
    "scenery_hit_under_piece": (True, _scenery_hit_under_piece),
    "demonic_rewards": (True, _demonic_rewards),
    "reward_prices": ({"granite": 2, "jade": 6, "gold": 12}, _reward_prices),
    "reward_refill": ("none", _reward_refill),
    "reward_reveal": ("staged", _reward_reveal),
    "element_boost_waits": (True, _element_boost_waits),
    "start_rewards": ([["xelor_style"], []], _start_rewards),
    "start_reward_prices": ([[6], []], _start_reward_prices),
    "start_reward_gg_prices": ([[2], []], _start_reward_gg_prices),
    "start_reward_holders": ([["bad_aboum"], []], _start_reward_holders),
    "purchasable_rewards": ([["xelor_style"], []], _purchasable_rewards),
}


def test_every_declared_option_has_a_behaviour_probe():
    assert sorted(PROBES) == DECLARED


@pytest.mark.parametrize("name", DECLARED)
def test_every_declared_option_is_read_by_the_engine(name: str):
    pattern = re.compile(rf"\b(?:opts|options)\.{name}\b")
    readers = [
        p
        for folder in ("engine", "rulesets")
        for p in (PACKAGE / folder).rglob("*.py")
        if pattern.search(p.read_text(encoding="utf-8"))
    ]
    assert readers, f"no engine or ruleset code reads option {name!r}"


@pytest.mark.parametrize("name", DECLARED)
def test_every_declared_option_changes_behaviour(name: str):
    value, probe = PROBES[name]
    default = getattr(get_ruleset("arena").options, name)
    assert value != default
    assert probe({}) != probe({name: value}), f"option {name}={value!r} changed nothing its probe sees"


def test_r_a51_a_held_token_s_price_goes_from_the_stock_to_the_reserve_as_a_debt():
    """The fair-price study's cost: the price leaves team A's stock (below zero: a debt) for the
    reserve, as a purchase pays the reserve (R-A51); kamas stay conserved."""
    (stocks, reserve), (paid, paid_reserve) = (
        _start_reward_prices({}),
        _start_reward_prices({"start_reward_prices": [[6], []]}),
    )
    assert stocks == [0, 0] and paid == [-6, 0] and paid_reserve == reserve + 6


def test_r_a26_a_held_token_s_gg_price_goes_back_to_the_box():
    (gg, removed), (paid, paid_removed) = (
        _start_reward_gg_prices({}),
        _start_reward_gg_prices({"start_reward_gg_prices": [[2], []]}),
    )
    assert paid == [gg[0] - 2, gg[1]] and paid_removed == removed + 2


def test_a_bad_start_reward_price_is_one_clear_line():
    with pytest.raises(ContentError) as info:
        _start_reward_prices({"start_reward_prices": [[-3], []]})
    assert info.value.field == "start_reward_prices" and "kamas >= 0" in info.value.reason


def test_r_a133_simultaneous_zero_gg_draw_or_play_on():
    assert _simultaneous_zero_gg({}) == (True, "gg_exhausted")
    assert _simultaneous_zero_gg({"simultaneous_zero_gg": "play_on"}) == (False, "")


@pytest.mark.parametrize(
    ("ruleset", "typo", "meant"),
    [
        ("arena", "turn_limt", "turn_limit"),
        ("blast", "team_sise", "team_size"),
        ("blast", "dice_face", "dice_faces"),
    ],
)
def test_an_unknown_option_suggests_the_near_names(ruleset: str, typo: str, meant: str) -> None:
    with pytest.raises(ContentError) as info:
        get_ruleset(ruleset, {typo: 1})
    assert info.value.field == typo
    assert info.value.reason.startswith(f"unknown ruleset option; did you mean '{meant}'")
    assert "; known: " in info.value.reason


def test_an_unknown_option_far_from_every_name_lists_them_only() -> None:
    with pytest.raises(ContentError) as info:
        get_ruleset("blast", {"qqqq": 1})
    assert "did you mean" not in info.value.reason and "team_size" in info.value.reason


def test_an_experiment_with_a_misspelt_option_is_told_the_near_name() -> None:
    from krosbalance.sim.experiment import check_experiment_text

    text = 'name = "t"\nmaster_seed = 1\nmatches_per_pairing = 1\n[teams]\nmode = "splits"\npool = { set = "arena-box" }\n'
    _, errors = check_experiment_text(text + "[options]\nturn_limt = 40\n")
    assert [e.field for e in errors] == ["options.turn_limt"]  # one problem, not a crash of the team check
    assert errors[0].reason.startswith("unknown ruleset option; did you mean 'turn_limit'")
