"""R-D20-R-D25, R-D29, R-D40-R-D42: a duel turn — revealing a token, markers, blocking, picking up a
token, the combat rolls, the activation order and victory — with scripted dice."""

from __future__ import annotations

import dataclasses

import pytest

from krosbalance.content.specs import PowerSpec
from krosbalance.engine.dice import ARMOUR, CRITICAL, DODGE, LOCK
from krosbalance.engine.legal import CAST, Action
from krosbalance.engine.match import run_to_end
from krosbalance.engine.rules import MINUS_MP, PLUS_AP
from krosbalance.errors import IllegalActionError
from krosbalance.play import play_match, prepare_match
from krosbalance.testing.duel import DuelScenario, duel_pack, duel_registry
from tests.rulesets.duel.conftest import DuelPlayer, plain_krosmasters, spec

BOARD = ". X . . .\n. . . . .\n. . . . ."


def two_plain() -> tuple[str, str]:
    names = plain_krosmasters()
    return names[0], names[-1] if len(names) > 1 else names[0]


def token_with(sc: DuelScenario, **wanted: int) -> str:
    """A token of the set showing at least these bonuses (skips the test when none does)."""
    for token in sc.ds.token_set.tokens:
        if all(getattr(token, k) >= v for k, v in wanted.items()):
            return token.id
    pytest.skip(f"no Duel Token shows {wanted}")


# ---------------------------------------------------------------------------------------- R-D21
def test_r_d21_reveal_one_token_at_turn_start_its_bonuses_are_permanent() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, turn=0)
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(4, 2))
    first = sc.give_token(me, token_with(sc, mp=1))
    second = sc.give_token(me, token_with(sc, hp=1))
    player = DuelPlayer(reveals=[0])
    sc.play_turn(player)
    assert [c.token.id for c in player.reveal_seen[0]] == [first.id, second.id]
    assert sc.ds.shown[me.uid] == [first] and sc.ds.hidden[me.uid] == [second]  # one, and only one
    started = sc.events("character_turn_started")[0]
    assert started.mp == spec(a).mp + first.mp and started.ap == spec(a).ap + first.ap  # usable this turn
    assert (me.base_mp, me.hp, me.max_range_bonus) == (
        spec(a).mp + first.mp,
        spec(a).hp + first.hp,
        first.range,
    )
    assert sc.events("token_revealed")[0].token == first.id
    sc.new_turn(0)
    sc.play_turn(DuelPlayer(reveals=[-1]))  # declining keeps it face down; the first stays
    assert sc.ds.hidden[me.uid] == [second] and me.base_mp == spec(a).mp + first.mp


def test_r_d21_option_an_mp_ap_bonus_waits_for_the_end_of_the_turn() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, turn=0, options={"reveal_applies_this_turn": False})
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(4, 2))
    token = sc.give_token(me, token_with(sc, mp=1))
    sc.play_turn(DuelPlayer(reveals=[0]))
    assert sc.events("character_turn_started")[0].mp == spec(a).mp
    assert me.base_mp == spec(a).mp + token.mp and not sc.ds.pending  # counts from the turn's end


def test_r_d21_an_illegal_reveal_is_refused() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, turn=0)
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(4, 2))
    sc.give_token(me, sc.ds.piles[0][0].id)
    with pytest.raises(IllegalActionError):
        sc.play_turn(DuelPlayer(reveals=[5]))


# ---------------------------------------------------------------------------------------- R-D22
def test_r_d22_markers_alter_the_next_activation_then_are_discarded() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD)
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(4, 2))
    sc.rules.add_marker(sc.state, me, MINUS_MP, 1)
    sc.rules.add_marker(sc.state, me, PLUS_AP, 2)
    assert (me.mp, me.ap) == (0, 0)  # nothing acts until the activation
    sc.activate(me)
    assert (me.mp, me.ap) == (me.base_mp - 1, me.base_ap + 2)
    sc.end_turn()
    sc.new_turn(0)
    sc.activate(me)
    assert (me.mp, me.ap) == (me.base_mp, me.base_ap)


# ---------------------------------------------------------------------------------------- R-D24, R-D41
def test_r_d24_a_blocked_krosmaster_loses_all_its_mp_and_ap() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, dice=[LOCK, ARMOUR])
    me = sc.add(a, side=0, at=(1, 1))
    sc.add(b, side=1, at=(2, 1))
    sc.activate(me)
    sc.move(me, (0, 1))
    assert sc.xy(me) == (1, 1) and (me.mp, me.ap) == (0, 0) and me.blocked
    assert sc.dice.remaining == 0


def test_r_d24_dodge_at_least_equal_to_lock_walks_on() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, dice=[LOCK, DODGE])
    me = sc.add(a, side=0, at=(1, 1))
    sc.add(b, side=1, at=(2, 1))
    sc.activate(me)
    sc.move(me, (0, 1))
    assert sc.xy(me) == (0, 1) and me.mp == me.base_mp - 1 and me.ap == me.base_ap


def test_r_d41_each_adjacent_enemy_rolls_to_block() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, dice=[LOCK, DODGE, LOCK, ARMOUR], options={"figures": 2})
    me = sc.add(a, side=0, at=(1, 1))
    sc.add(b, side=1, at=(2, 1))
    sc.add(b, side=1, at=(1, 2))
    sc.activate(me)
    sc.move(me, (0, 1))
    locks = sc.events("lock_rolled")
    assert len(locks) == 2 and [e.blocked for e in locks] == [False, True]
    assert (me.mp, me.ap) == (0, 0)


# ---------------------------------------------------------------------------------------- R-D25
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_r_d25_worked_example_a_level_6_krosmaster_pays_7_to_10_ap(level: int) -> None:
    six = [n for n in duel_pack() if spec(n).level == 6]
    sc = DuelScenario(BOARD)
    me = sc.add(six[0], side=0, at=(1, 0))
    sc.add(six[-1], side=1, at=(4, 2))
    token = sc.put_token(sc.ds.piles[level - 1][0].id, (1, 0))
    cost = 6 + level
    assert cost in range(7, 11)
    sc.rules.add_marker(sc.state, me, PLUS_AP, max(0, cost - me.base_ap))
    sc.activate(me)
    ap = me.ap
    assert ap >= cost
    sc.pick(me)
    assert me.ap == ap - cost and sc.ds.hidden[me.uid] == [token] and 0 not in sc.ds.on_cells
    assert sc.events("token_picked")[0].ap == cost


def test_r_d25_pick_up_needs_the_ap_and_the_shared_cell() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD)
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(4, 2))
    token = sc.put_token(sc.ds.piles[0][0].id, (1, 0))
    sc.activate(me)
    assert not sc.can(me, sc.pick_action(me))  # not on its cell
    sc.move(me, (1, 0))
    me.ap = me.level + token.level - 1
    assert not sc.can(me, sc.pick_action(me))
    me.ap += 1
    assert sc.can(me, sc.pick_action(me)) and sc.rules.action_name(sc.pick_action(me).kind) == "pick_token"


# ---------------------------------------------------------------------------------------- R-D29
def test_r_d29_injuries_are_base_plus_criticals_minus_armour() -> None:
    a, b = two_plain()
    caster, target = spec(a), spec(b)
    melee = [
        (i, s)
        for i, s in enumerate(caster.spells)
        if s.kind == "attack"
        and s.range_type == "melee"
        and not s.effects
        and s.element not in {p.params.get("element") for p in target.powers}
    ]
    if not melee:
        pytest.skip("no plain melee attack to test with")
    index, spell = melee[0]
    sc = DuelScenario(BOARD, dice=[CRITICAL, ARMOUR])
    me = sc.add(a, side=0, at=(1, 1))
    them = sc.add(b, side=1, at=(2, 1))
    sc.activate(me)
    sc.do(me, Action(CAST, index, them.cell))
    assert them.injuries == min(spell.amount + 1 - 1, them.hp)
    assert sc.dice.remaining == 0


# ---------------------------------------------------------------------------------------- R-D40
def test_r_d40_the_first_krosmaster_then_the_second() -> None:
    names = sorted(duel_pack()[:2], key=lambda n: -spec(n).initiative)
    if spec(names[0]).initiative == spec(names[1]).initiative:
        pytest.skip("equal Initiative")
    sc = DuelScenario(BOARD, turn=0, options={"figures": 2})
    low = sc.add(names[1], side=0, at=(0, 0))
    high = sc.add(names[0], side=0, at=(0, 2))
    sc.add(names[0], side=1, at=(4, 2))
    sc.play_turn(DuelPlayer())
    assert [e.uid for e in sc.events("character_turn_started")] == [high.uid, low.uid]


# ---------------------------------------------------------------------------------------- R-D42
def test_r_d42_ko_of_every_opposing_krosmaster_wins() -> None:
    a, b = two_plain()
    attack = next(
        (i, s) for i, s in enumerate(spec(a).spells) if s.kind == "attack" and s.range_type == "melee"
    )
    sc = DuelScenario(BOARD, dice=[CRITICAL, ARMOUR] * 2, options={"figures": 2})
    me = sc.add(a, side=0, at=(1, 1))
    one = sc.add(b, side=1, at=(2, 1), injuries=spec(b).hp - 1)
    two = sc.add(b, side=1, at=(1, 2), injuries=spec(b).hp - 1)
    sc.activate(me)
    sc.do(me, Action(CAST, attack[0], one.cell))
    assert not one.alive and not sc.state.finished  # one Krosmaster of two left: play on
    me.ap = me.base_ap
    me.turn_uses.clear()
    sc.do(me, Action(CAST, attack[0], two.cell))
    assert sc.state.finished and sc.state.winner == 0 and sc.state.end_reason == "last_standing"


def test_turn_limit_is_a_draw_or_goes_to_the_hp_left() -> None:
    a, b = duel_pack()[0], duel_pack()[-1]
    drawn = play_match([a], [b], board="duel-workshop", ruleset="duel", seed=1, options={"turn_limit": 1})
    assert (drawn.end_reason, drawn.winner) == ("turn_limit", None)
    decided = 0
    for seed in range(6):
        state, controllers, views = prepare_match(
            [a],
            [b],
            board="duel-workshop",
            ruleset="duel",
            seed=seed,
            ai="duel_brawler",
            options={"turn_limit": 2, "turn_limit_result": "hp"},
            registry=duel_registry(),
        )
        run_to_end(state, controllers, views)
        if state.end_reason != "turn_limit":
            continue
        left = [sum(f.hp - f.injuries for f in team if f.alive) for team in state.timeline]
        assert state.winner == (None if left[0] == left[1] else int(left[1] > left[0]))
        decided += 1
    assert decided


def test_no_punch_unless_the_option_gives_it() -> None:
    a, _ = two_plain()
    sc = DuelScenario(BOARD)
    me = sc.add(a, side=0, at=(0, 0))
    assert [s.id for s in me.spells] == [s.id for s in spec(a).spells]
    sc2 = DuelScenario(BOARD, options={"punch": True})
    assert sc2.add(a, side=0, at=(0, 0)).spells[-1].id == "punch"


# ---------------------------------------------------------------------------------------- R-D20, R-D23, R-D32
def test_r_d20_players_alternate_turns_first_player_first() -> None:
    a, b = two_plain()
    sc = DuelScenario(BOARD, turn=0)
    mine = sc.add(a, side=0, at=(0, 0))
    theirs = sc.add(b, side=1, at=(4, 2))
    for expected in (0, 1, 0, 1):
        assert sc.state.active_side == expected
        sc.play_turn(DuelPlayer())
    started = [e.uid for e in sc.events("character_turn_started")]
    assert started == [mine.uid, theirs.uid, mine.uid, theirs.uid]


def test_r_d23_a_step_costs_1_mp_and_needs_a_free_adjacent_cell() -> None:
    a, b = two_plain()
    sc = DuelScenario(". B . .\n. . . .")
    me = sc.add(a, side=0, at=(0, 0))
    sc.add(b, side=1, at=(3, 1))
    sc.activate(me)
    assert not sc.can_move(me, (1, 0))  # a window is an obstacle (R-D6)
    assert not sc.can_move(me, (1, 1))  # never diagonally (R-D27)
    sc.move(me, (0, 1))
    assert me.mp == me.base_mp - 1


def test_r_d32_a_lock_power_rolls_two_dice() -> None:
    a, b = two_plain()
    locker = dataclasses.replace(spec(b), id="test_locker", name="Test Locker", powers=(PowerSpec("lock"),))
    sc = DuelScenario(BOARD, dice=[ARMOUR, LOCK, ARMOUR])
    me = sc.add(a, side=0, at=(1, 1))
    sc.add(locker, side=1, at=(2, 1))
    sc.activate(me)
    sc.move(me, (0, 1))  # Lock: 1 success of two dice; Dodge: none
    assert sc.events("lock_rolled")[0].lock == 1 and me.blocked and sc.dice.remaining == 0


# ---------------------------------------------------------------------------------------- R-D35
def test_r_d35_personal_spells_are_not_affected_by_unfazed() -> None:
    """Duel Pack, Powers: "Personal spells are not affected by Unfazed." An Unfazed Krosmaster's own
    personal "+2 AP" spell gives him his markers; an enemy's spell still does not (R-A106)."""
    from tests.engine.specs import spell as make_spell

    a, b = two_plain()
    rage = make_spell(
        "rage",
        kind="special",
        range_type="personal",
        rmin=0,
        rmax=0,
        ap=1,
        effects=(("plus_ap", {"amount": 2}),),
    )
    slow = make_spell("slow", kind="special", rmin=1, rmax=3, ap=1, effects=(("minus_mp", {"amount": 1}),))
    rock = dataclasses.replace(
        spec(a), id="test_rock", name="Test Rock", powers=(PowerSpec("unfazed"),), spells=(rage, slow)
    )
    sc = DuelScenario(BOARD)
    me = sc.add(rock, side=0, at=(1, 1))
    them = sc.add(dataclasses.replace(rock, id="test_rock_2", name="Test Rock 2"), side=1, at=(3, 1))
    sc.activate(me)
    sc.do(me, Action(CAST, 0, me.cell))
    assert me.plus_ap == 2  # personal: Unfazed does not stop it
    sc.do(me, Action(CAST, 1, them.cell))
    assert them.minus_mp == 0  # cast on an Unfazed enemy: ignored
    assert sc.dice.remaining == 0


# ---------------------------------------------------------------------------------------- R-D32
@pytest.mark.parametrize(
    ("neutral_critical_power", "dice", "injuries"),
    [(True, [CRITICAL, CRITICAL, LOCK], 1 + 2), (False, [CRITICAL, LOCK], 1 + 1)],
)
def test_r_d32_the_critical_power_on_a_neutral_spell(
    neutral_critical_power: bool, dice: list[int], injuries: int
) -> None:
    """Duel Pack, Powers: "Critical Hit: roll an extra die when rolling for critical hit" and "0 to
    2 successes", no exception (``neutral_critical_power = true``, the default); ``false`` keeps
    Arena's single die for a neutral spell (R-A79). Either way the target rolls one Armour die."""
    from krosbalance.rulesets.duel.checks import critical_dice
    from tests.engine.specs import spell as make_spell

    a, b = two_plain()
    jab = make_spell("jab", element="neutral", rmin=1, rmax=1, ap=2, amount=1)
    striker = dataclasses.replace(
        spec(a), id="test_striker", name="Test Striker", powers=(PowerSpec("critical"),), spells=(jab,)
    )
    sc = DuelScenario(BOARD, dice=dice, options={"neutral_critical_power": neutral_critical_power})
    me = sc.add(striker, side=0, at=(1, 1))
    them = sc.add(b, side=1, at=(2, 1))
    sc.activate(me)
    sc.do(me, Action(CAST, 0, them.cell))
    rolled = [len(e.faces) for e in sc.events("dice_rolled") if e.roll == "critical"]
    assert rolled == [2 if neutral_critical_power else 1]
    assert them.injuries == injuries and sc.dice.remaining == 0
    assert critical_dice(me, jab, sc.duel.opts) == rolled[0]  # the AIs' expectation reads the same rule
