"""The ruleset seam: the registry by name, and every engine hook driven by a registered toy ruleset
(``tests/rulesets/toy.py``) — the spell cost model, the activation order decided by the player,
extra actions, on-enter cells, extra sight blockers, marker timing, the combat roll, the leaving
check, KOs, victory at the end of a turn, and the typed per-ruleset state copied with the state."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from krosbalance.engine import legal
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK, SeededDice
from krosbalance.engine.legal import EXTRA, Action, legal_actions
from krosbalance.engine.match import summarise
from krosbalance.engine.outcome import end_match
from krosbalance.engine.rules import MatchRules
from krosbalance.engine.view import MatchView
from krosbalance.errors import ContentError
from krosbalance.play import play_match
from krosbalance.rulesets import get_ruleset, list_rulesets, register_ruleset
from krosbalance.rulesets.arena import ArenaRuleset, ArenaState, arena_state
from krosbalance.rulesets.arena.actions import BUY_GG as ARENA_BUY_GG
from krosbalance.rulesets.arena.actions import PICK_KAMA as ARENA_PICK_KAMA
from krosbalance.rulesets.arena.kinds import BUY_GG, BUY_REWARD, PICK_KAMA, REVEAL_REWARD
from krosbalance.rulesets.arena.view import ArenaView, arena_view
from krosbalance.rulesets.registry import _RULESETS
from krosbalance.testing import Scenario, ScriptedController

from ..engine.specs import character, spell
from .toy import DEFAULTS as TOY_DEFAULTS
from .toy import RALLY, ToyCharge, ToyRuleset, toy, toy_factory

TEAM0 = ["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"]
TEAM1 = ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]


@pytest.fixture
def toy_rules():
    """Register the toy ruleset with glyphs on (2, 0) and (3, 0) and fog on (1, 2) of a 4x3 board."""
    glyphs = 1 << 2 | 1 << 3
    fog = 1 << (2 * 4 + 1)
    register_ruleset("toy", toy_factory(glyphs, fog))
    yield
    _RULESETS.pop("toy", None)


BOARD = """. . . .
           . . . .
           . . . ."""


def _toy_scene(dice=()):
    sc = Scenario(BOARD, dice=dice, ruleset="toy")
    anna = sc.add("anna_tommy", side=0, at=(0, 0))
    king = sc.add("king_of_the_gobballs", side=1, at=(3, 2))
    return sc, anna, king


# ------------------------------------------------------------------------------------ the registry


def test_arena_is_registered_by_name_and_builds_with_options():
    assert "arena" in list_rulesets()
    rules = get_ruleset("arena", {"turn_limit": 60})
    assert isinstance(rules, ArenaRuleset) and isinstance(rules, MatchRules)
    assert rules.options.turn_limit == 60 and rules.describe() == "arena[turn_limit=60]"
    assert get_ruleset("arena").describe() == "arena"


UNKNOWN = [name for name in ("blast", "duel", "checkers", "") if name not in list_rulesets()]


@pytest.mark.parametrize("name", UNKNOWN)
def test_an_unknown_ruleset_is_a_one_line_error_not_arena(name):
    with pytest.raises(
        ContentError, match=rf"unknown ruleset .*; known: {', '.join(list_rulesets())}$"
    ) as info:
        get_ruleset(name)
    assert "\n" not in str(info.value)
    with pytest.raises(ContentError, match="unknown ruleset"):
        play_match(TEAM0, TEAM1, ruleset=name)


def test_arena_action_kinds_come_from_the_engines_extra_range_and_the_engine_names_none():
    assert (PICK_KAMA, BUY_GG) == (ARENA_PICK_KAMA, ARENA_BUY_GG) == (EXTRA, EXTRA + 1)
    assert (BUY_REWARD, REVEAL_REWARD) == (EXTRA + 2, EXTRA + 3)
    for name in ("PICK_KAMA", "BUY_GG", "BUY_REWARD", "REVEAL_REWARD"):
        assert not hasattr(legal, name)


def test_arena_state_is_typed_owned_by_the_ruleset_and_copies_deeply():
    sc = Scenario("2 D .\n. . .")
    arena = arena_state(sc.state)
    assert isinstance(arena, ArenaState) and sc.state.rules is arena
    twin = arena.copy()
    twin.gg[0] += 3
    twin.board_kamas[0] -= 1
    twin.kamas[1] += 5
    assert arena.gg == [6, 6] and arena.board_kamas[0] == 2 and arena.kamas == [0, 0]
    assert (twin.wild_gg, twin.kama_reserve, twin.gg_price) == (arena.wild_gg, arena.kama_reserve, 10)


def test_arena_holdings_are_read_through_the_ruleset_view_and_the_view_names_the_ruleset():
    sc = Scenario("2 D .\n. . .")
    view = MatchView(sc.state, 0)
    assert view.ruleset == "arena"
    arena = arena_view(view)
    assert isinstance(arena, ArenaView) and view.ruleset_view() is arena  # made once per view
    assert (arena.gg, arena.wild_gg, arena.kamas, arena.gg_price) == ((6, 6), 1, (0, 0), 10)
    assert arena.kamas_at(0) == 2 and arena.kama_cells() == [0, 1]
    assert not arena.rewards_in_play and arena.reward_prices() == (0, 0, 0)
    for name in ("gg", "wild_gg", "kamas", "gg_price", "kamas_at", "kama_cells", "reward_tokens"):
        assert not hasattr(view, name)  # the engine's view names no Arena holding


# ------------------------------------------------------------------------------- the toy's hooks


def test_spell_cost_model_is_resolved_at_spawn(toy_rules):
    sc, anna, king = _toy_scene()
    assert all(s.ap_cost == 1 and s.mp_cost == 0 and s.injury_cost == 0 for s in anna.spells)
    assert "punch" not in {s.id for s in anna.spells}  # the punch is Arena's
    assert "punch" in {s.id for s in Scenario(BOARD).add("anna_tommy", 0, (0, 0)).spells}


def test_extra_action_is_listed_checked_performed_and_named(toy_rules):
    sc, anna, king = _toy_scene()
    sc.activate(anna)
    assert Action(RALLY) in legal_actions(sc.state, anna)
    assert Action(RALLY + 1) not in legal_actions(sc.state, anna)  # Arena's BUY_GG kind means nothing here
    assert not sc.can(anna, Action(RALLY + 1))
    mp, ap = anna.mp, anna.ap
    sc.do(anna, Action(RALLY))
    assert (anna.mp, anna.ap) == (mp + 1, ap - 1)  # the marker acted at once: own activation
    assert Action(RALLY).describe(anna, sc.rules) == "rally"
    anna.ap = 0
    assert not sc.can(anna, Action(RALLY))


def test_markers_wait_when_not_acting(toy_rules):
    sc, anna, king = _toy_scene()
    sc.rules.add_marker(sc.state, king, 0, 2)  # PLUS_MP, outside the king's activation
    assert king.plus_mp == 2 and king.mp == 0


def test_on_enter_captures_glyphs_by_walking_and_clears_fog(toy_rules):
    sc, anna, king = _toy_scene()
    fog = sc.cell(1, 2)
    assert sc.state.fixed_sight >> fog & 1 and sc.state.sight_blockers >> fog & 1
    assert not MatchView(sc.state, 0).has_los(sc.cell(0, 2), sc.cell(2, 2))
    sc.activate(anna)
    sc.move(anna, (1, 0), (2, 0))
    assert toy(sc.state).owner == {sc.cell(2, 0): 0}
    sc.move(anna, (2, 1))
    sc.end_turn()
    sc.new_turn(1)
    sc.activate(king)
    sc.move(king, (2, 2), (1, 2))  # onto the fog: it clears
    assert not sc.state.fixed_sight >> fog & 1 and sc.state.sight_blockers >> fog & 1  # the king blocks
    sc.move(king, (0, 2))
    assert not sc.state.sight_blockers >> fog & 1
    assert [(cell, how) for _, cell, how in toy(sc.state).entered] == [(sc.cell(2, 0), "walk"), (fog, "walk")]


def test_on_enter_runs_for_each_glyph_a_push_crosses(toy_rules):
    shover = character(
        "shover",
        spells=(spell("shove", range_type="melee", rmin=1, rmax=1, effects=(("push", {"cells": 3}),)),),
    )
    sc = Scenario(BOARD, dice=[DODGE], ruleset="toy", specs=[shover])
    caster = sc.add(shover, side=1, at=(0, 0))
    anna = sc.add("anna_tommy", side=0, at=(1, 0))
    sc.activate(caster)
    sc.cast(caster, "shove", (1, 0))
    assert sc.xy(anna) == (3, 0)
    assert [(cell, how) for _, cell, how in toy(sc.state).entered] == [(2, "push"), (3, "push")]
    assert toy(sc.state).owner == {2: 0, 3: 0}
    assert [e.how for e in sc.events("moved")] == ["push", "push"]


STRIKER = character("striker", mp=3, ap=6, spells=(spell("zap", amount=2, rmin=1, rmax=3),))


def test_combat_roll_is_the_rulesets(toy_rules):
    sc = Scenario(BOARD, dice=[CRITICAL, ARMOUR, DODGE], ruleset="toy", specs=[STRIKER])
    striker = sc.add(STRIKER, side=0, at=(0, 1))
    bill = sc.add("bill_tell", side=1, at=(3, 1))  # 6 HP
    sc.activate(striker)
    sc.cast(striker, "zap", (3, 1))  # 2 printed, +1 (Critical)
    assert bill.injuries == 3
    sc.cast(striker, "zap", (3, 1))  # -1 (Armour)
    assert bill.injuries == 4
    sc.cast(striker, "zap", (3, 1))  # +0 (Dodge)
    assert bill.injuries == 6 and not bill.alive
    assert sc.dice.remaining == 0
    assert [e.roll for e in sc.events("dice_rolled")] == ["combat"] * 3
    assert striker.ap == 3  # every spell cost 1 AP


def test_spell_bonus_is_the_rulesets_from_its_per_piece_data_copied_with_the_state(toy_rules):
    sc = Scenario(BOARD, dice=[LOCK, LOCK], ruleset="toy", specs=[STRIKER])
    striker = sc.add(STRIKER, side=0, at=(0, 1))
    bill = sc.add("bill_tell", side=1, at=(3, 1))  # 6 HP
    striker.extra = ToyCharge(2)
    copy = clone_state(sc.state, SeededDice(np.random.default_rng(0)))
    twin = copy.fighters[striker.uid].extra
    assert isinstance(twin, ToyCharge) and twin is not striker.extra and twin.damage == 2
    zap = striker.spells[0]
    assert sc.state.ruleset.spell_bonus(sc.state, striker, zap, False) == (2, False)  # a peek
    sc.activate(striker)
    sc.cast(striker, "zap", (3, 1))  # 2 printed + 2 charge, no combat bonus
    assert bill.injuries == 4 and striker.extra is None  # used up by the cast
    sc.cast(striker, "zap", (3, 1))
    assert bill.injuries == 6


def test_the_default_hooks_add_nothing_to_a_cast_and_declare_no_result_column():
    sc = Scenario(BOARD, specs=[STRIKER])
    striker = sc.add(STRIKER, side=0, at=(0, 1))
    bare = MatchRules("bare", "1", TOY_DEFAULTS, {})
    assert bare.spell_bonus(sc.state, striker, striker.spells[0], True) == (0, False)
    assert bare.result_columns == () and bare.fighter_columns == ()
    assert bare.fighter_values(sc.state, striker) == {}


def test_the_rulesets_result_columns_are_declared_and_filled(toy_rules):
    sc, anna, king = _toy_scene()
    sc.activate(anna)
    sc.move(anna, (1, 0), (2, 0))  # captures a glyph
    end_match(sc.state, 0, "test")
    result = summarise(sc.state, seed=0)
    assert [c.name for c in sc.state.ruleset.result_columns] == ["glyphs", "kos"]
    assert result.values == {"glyphs": (1, 0), "kos": 0}
    by_uid = {f.uid: f.values for f in result.fighters}
    assert by_uid[anna.uid] == {"entered": 1} and by_uid[king.uid] == {"entered": 0}


def test_no_lock_under_the_toy_leaving_check(toy_rules):
    sc, anna, king = _toy_scene(dice=[])
    bill = sc.add("bill_tell", side=1, at=(1, 0))
    sc.activate(anna)
    sc.move(anna, (0, 1))  # adjacent enemy, no roll asked (the dice script is empty)
    assert sc.xy(anna) == (0, 1) and bill.alive


def test_kos_and_victory_are_the_rulesets(toy_rules):
    sc = Scenario(BOARD, dice=[LOCK], ruleset="toy", specs=[STRIKER])
    striker = sc.add(STRIKER, side=0, at=(0, 1))
    king = sc.add("king_of_the_gobballs", side=1, at=(2, 1), injuries=0)
    king.injuries = king.hp - 1
    sc.activate(striker)
    sc.cast(striker, "zap", (2, 1))
    assert toy(sc.state).kos == [king.uid]
    assert sc.state.finished and (sc.state.winner, sc.state.end_reason) == (0, "ko")


class _Chooser(ScriptedController):
    """Scripted actions, and the order the toy ruleset asks for (its own decision)."""

    def __init__(self, order, **kwargs):
        super().__init__(**kwargs)
        self.order = list(order)
        self.offered = []

    def choose_next(self, view, candidates):
        self.offered.append([c.uid for c in candidates])
        return self.order.pop(0).uid


def test_the_player_chooses_the_activation_order_and_the_turn_end_checks_glyphs(toy_rules):
    sc, anna, king = _toy_scene()
    bill = sc.add("bill_tell", side=0, at=(1, 1))  # initiative 7: after Anna (9) on a Timeline
    moves = [(bill, sc.move_action(cell)) for cell in ((2, 1), (2, 0), (3, 0))]
    controller = _Chooser([bill, anna], actions=moves)
    sc.play_turn(controller)
    assert controller.offered == [[anna.uid, bill.uid], [anna.uid]]
    assert controller.done
    assert toy(sc.state).owner == {2: 0, 3: 0}
    assert sc.state.finished and (sc.state.winner, sc.state.end_reason) == (0, "glyphs")


def test_the_toy_state_copies(toy_rules):
    sc, anna, king = _toy_scene()
    state = toy(sc.state)
    state.owner[2] = 1
    twin = state.copy()
    twin.owner[3] = 0
    twin.kos.append(9)
    assert state.owner == {2: 1} and state.kos == []
    assert isinstance(sc.rules, ToyRuleset)


def test_experiments_and_match_specs_name_their_ruleset_through_the_registry():
    from krosbalance.sim.experiment import MatchSpec, check_experiment_text
    from krosbalance.sim.match import play_spec

    unknown = UNKNOWN[0]
    text = f'name = "x"\nmaster_seed = 1\nmatches_per_pairing = 1\nruleset = "{unknown}"\n'
    text += '[teams]\nmode = "mirror"\nlist = [["anna_tommy", "bill_tell", "lil_healey", "oscar_kass"]]\n'
    experiment, errors = check_experiment_text(text)
    assert experiment is None
    known = ", ".join(list_rulesets())
    assert [(e.field, e.reason) for e in errors] == [
        ("ruleset", f"unknown ruleset {unknown!r}; known: {known}")
    ]
    spec = MatchSpec(
        0, "x", 0, 0, False, 1, tuple(TEAM0), tuple(TEAM1), "random", "random", "arena-pit", unknown, "{}"
    )
    with pytest.raises(ContentError, match=f"unknown ruleset {unknown!r}"):
        play_spec(spec)
    assert play_spec(replace(spec, ruleset="arena")).turns > 0
