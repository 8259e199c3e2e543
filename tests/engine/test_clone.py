"""The fast state copy: it covers every slot, shares only immutable data, and play on the copy never
touches the original (nor differs from play on a deep copy)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from krosbalance.ai.registry import get_ai
from krosbalance.content.registry import list_characters
from krosbalance.engine import clone as clone_mod
from krosbalance.engine.clone import clone_state
from krosbalance.engine.dice import SeededDice
from krosbalance.engine.match import run_to_end
from krosbalance.engine.rules import MatchRules, RulesetState
from krosbalance.engine.state import Fighter, MatchState
from krosbalance.engine.turn import game_turn
from krosbalance.engine.view import MatchView
from krosbalance.play import prepare_match
from krosbalance.rulesets.arena.market import RewardMarket
from krosbalance.rulesets.arena.tokens import HeldToken, RewardCard, RewardMods, tokens_of
from krosbalance.rulesets.arena.view import arena_view
from krosbalance.testing.scenario import Scenario
from krosbalance.tools.builds import BLAST_BOARD, BLAST_OPTIONS, blast_splits

from .specs import TRAP, TRAPPER

BOX = list_characters(set="arena-box")  # the eight box Krosmasters, from the registry

STATE_GROUPS = (
    clone_mod.STATE_SHARED,
    clone_mod.STATE_VALUES,
    clone_mod.STATE_REMAPPED,
    clone_mod.STATE_CONTAINERS,
    clone_mod.STATE_REPLACED,
)
FIGHTER_GROUPS = (
    clone_mod.FIGHTER_SHARED,
    clone_mod.FIGHTER_VALUES,
    clone_mod.FIGHTER_CONTAINERS,
    clone_mod.FIGHTER_REMAPPED,
)


REWARDS = {"demonic_rewards": True}


def _mid_game(
    seed: int, turns: int = 6, ai: str = "focus_fire", options: dict[str, Any] | None = None
) -> MatchState:
    state, controllers, views = prepare_match(
        BOX[:4], BOX[4:], ai=ai, seed=seed, record="full", options=options
    )
    for _ in range(turns):
        if state.finished:
            break
        side = state.active_side
        game_turn(state, controllers[side], views[side])
    return state


def slot_names(cls: type) -> list[str]:
    """Every slot of a class and its bases (``__slots__``)."""
    return [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]


def _slots(obj: object) -> list[str]:
    return slot_names(type(obj))


def _ref(value: Any) -> Any:
    """A fighter by uid, the ruleset's state slot by slot, containers element-wise: what must be
    equal between a state and its copy."""
    if isinstance(value, Fighter):
        return ("fighter", value.uid)
    if isinstance(value, MatchRules):  # a deep copy rebuilds the ruleset object from its options
        return ("ruleset", value.describe())
    if isinstance(value, (RulesetState, RewardMarket, RewardMods, RewardCard)):
        return (type(value).__name__,) + tuple(_ref(getattr(value, name)) for name in _slots(value))
    if isinstance(value, HeldToken):
        return ("token", value.spec.id, value.face_up, value.bought_turn, value.seen)
    if isinstance(value, dict):
        return {k: _ref(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(_ref(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def snapshot(state: MatchState) -> tuple[Any, ...]:
    """Every slot of the state and of its fighters (dice, recording level, events and the attached
    players aside),
    fighters by uid."""
    fields = tuple(
        _ref(getattr(state, name))
        for name in slot_names(MatchState)
        if name not in ("dice", "events", "record", "players")
    )
    fighters = tuple(
        tuple(_ref(getattr(f, name)) for name in slot_names(Fighter) if name != "stats") + (repr(f.stats),)
        for f in state.fighters
    )
    return fields + fighters


def _play_out(state: MatchState, seed: int) -> None:
    ai = get_ai("focus_fire")
    controllers = (ai(np.random.default_rng(seed)), ai(np.random.default_rng(seed + 1)))
    run_to_end(state, controllers, (MatchView(state, 0), MatchView(state, 1)))


def test_every_slot_of_the_state_and_of_a_fighter_is_copied_on_purpose() -> None:
    state_fields = [name for group in STATE_GROUPS for name in group]
    fighter_fields = [name for group in FIGHTER_GROUPS for name in group]
    assert sorted(state_fields) == sorted(slot_names(MatchState)), (
        "clone.py must list every MatchState slot once"
    )
    assert sorted(fighter_fields) == sorted(slot_names(Fighter)), "clone.py must list every Fighter slot once"


@pytest.mark.parametrize(("seed", "options"), [(1, None), (2, None), (3, None), (8, REWARDS), (9, REWARDS)])
def test_copy_equals_the_original_and_shares_only_immutable_data(
    seed: int, options: dict[str, Any] | None
) -> None:
    state = _mid_game(seed, options=options)
    copy_ = clone_state(state, SeededDice(np.random.default_rng(0)), keep_stats=True)
    assert snapshot(copy_) == snapshot(state)
    for name in clone_mod.STATE_SHARED:
        assert getattr(copy_, name) is getattr(state, name)
    for name in clone_mod.STATE_CONTAINERS:
        assert getattr(copy_, name) is not getattr(state, name)
    assert _slots(state.rules), "the ruleset's state has slots to compare"
    for name in _slots(state.rules):  # the ruleset's containers (Arena's GG and kamas) are copies
        value = getattr(state.rules, name)
        if isinstance(value, (list, dict, set)):
            assert getattr(copy_.rules, name) is not value
    market = getattr(state.rules, "market", None)
    if options:  # the reward market and its piles are copies
        assert market is not None and getattr(copy_.rules, "market", None) is not market
        assert all(a is not b for a, b in zip(copy_.rules.market.piles, market.piles, strict=True))  # type: ignore[attr-defined]
    originals = {id(f) for f in state.fighters}
    for f, c in zip(state.fighters, copy_.fighters, strict=True):
        assert c is not f
        for name in clone_mod.FIGHTER_CONTAINERS:
            assert getattr(f, name) is None or getattr(c, name) is not getattr(f, name)
        assert not {id(t) for t in tokens_of(c)} & {id(t) for t in tokens_of(f)}
        assert c.stats.damage_dealt is not f.stats.damage_dealt
        assert all(id(t) not in originals for t in c.summons)
        assert c.summoner is None or id(c.summoner) not in originals
    for cells in (
        copy_.by_cell,
        copy_.timeline[0],
        copy_.timeline[1],
        copy_.pending_bombs,
        copy_.pending_kos,
    ):
        assert all(p is None or id(p) not in originals for p in cells)
    assert copy_.record == 0 and copy_.events == []


@pytest.mark.parametrize(("seed", "options"), [(4, None), (5, None), (10, REWARDS)])
def test_play_on_the_copy_never_touches_the_original(seed: int, options: dict[str, Any] | None) -> None:
    state = _mid_game(seed, options=options)
    before = snapshot(state)
    events = list(state.events)
    copy_ = clone_state(state, SeededDice(np.random.default_rng(seed)))
    _play_out(copy_, seed)
    assert copy_.finished
    assert snapshot(copy_) != before  # the snapshot sees play
    assert snapshot(state) == before
    assert state.events == events


@pytest.mark.parametrize(("seed", "options"), [(6, None), (7, None), (11, REWARDS)])
def test_play_on_the_copy_is_play_on_an_independent_replay(seed: int, options: dict[str, Any] | None) -> None:
    """The copy plays on exactly as a state rebuilt from nothing would: the same match replayed from
    its seed to the same point (a deep copy cannot serve: compiled classes do not deepcopy)."""
    state = _mid_game(seed, turns=3, options=options)
    deep = _mid_game(seed, turns=3, options=options)
    assert deep is not state and snapshot(deep) == snapshot(state)
    deep.dice = SeededDice(np.random.default_rng(99))
    deep.record, deep.events = 0, []
    fast = clone_state(state, SeededDice(np.random.default_rng(99)), keep_stats=True)
    _play_out(deep, seed)
    _play_out(fast, seed)
    assert snapshot(fast) == snapshot(deep)


def test_view_copy_hides_the_opponents_traps_and_never_the_match_dice() -> None:
    sc = Scenario(". . . . . .", dice=[], specs=[TRAP, TRAPPER])
    mine = sc.add(TRAPPER, side=0, at=(0, 0))
    theirs = sc.add(TRAPPER, side=1, at=(5, 0))
    sc.add(TRAP, side=0, at=(1, 0), summoner=mine)
    sc.add(TRAP, side=1, at=(4, 0), summoner=theirs)
    dice = SeededDice(np.random.default_rng(1))
    seen_by_0 = MatchView(sc.state, 0).clone_state(dice)
    assert seen_by_0.dice is dice and seen_by_0.dice is not sc.state.dice
    assert [t.side for t in seen_by_0.traps.values()] == [0]
    assert [t.side for t in MatchView(sc.state, 1).clone_state(dice).traps.values()] == [1]
    assert len(sc.state.traps) == 2


def _mid_blast(seed: int, turns: int = 4) -> MatchState:
    team0, team1 = blast_splits()[seed % len(blast_splits())]
    state, controllers, views = prepare_match(
        team0,
        team1,
        board=BLAST_BOARD,
        ai="blast_glyph",
        seed=seed,
        record="full",
        ruleset="blast",
        options=BLAST_OPTIONS,
    )
    for _ in range(turns):
        if state.finished:
            break
        side = state.active_side
        game_turn(state, controllers[side], views[side])
    return state


def _play_out_blast(state: MatchState, seed: int) -> None:
    ai = get_ai("blast_glyph")
    controllers = (ai(np.random.default_rng(seed)), ai(np.random.default_rng(seed + 1)))
    run_to_end(state, controllers, (MatchView(state, 0), MatchView(state, 1)))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_blast_state_copies_whole_and_plays_on_like_an_independent_replay(seed: int) -> None:
    """Blast's holdings (glyphs, tiles, favors, challenges, per-turn limits) and its fighters' slots
    (``banned_targets``) go through ``BlastState.copy`` and ``clone_state`` like Arena's."""
    state = _mid_blast(seed)
    assert type(state.rules).__name__ == "BlastState" and not state.finished
    copy_ = clone_state(state, SeededDice(np.random.default_rng(0)), keep_stats=True)
    assert snapshot(copy_) == snapshot(state)
    for name in _slots(state.rules):
        value = getattr(state.rules, name)
        if isinstance(value, (list, dict, set)):
            assert getattr(copy_.rules, name) is not value, name
    for f, c in zip(state.fighters, copy_.fighters, strict=True):
        assert c.banned_targets == f.banned_targets and c.banned_targets is not f.banned_targets
    deep = _mid_blast(seed)
    deep.dice = SeededDice(np.random.default_rng(99))
    deep.record, deep.events = 0, []
    fast = clone_state(state, SeededDice(np.random.default_rng(99)), keep_stats=True)
    before = snapshot(state)
    _play_out_blast(deep, seed)
    _play_out_blast(fast, seed)
    assert fast.finished and snapshot(fast) == snapshot(deep)
    assert snapshot(state) == before


def test_view_copy_deals_the_rewards_this_side_has_not_seen_again() -> None:
    """R-A51, R-A52: a copy made for side 0 keeps its own tokens and every face-up one, but the market
    piles and side 1's face-down tokens are dealt again among themselves (rank and count kept): a
    search never learns the pile order or the enemy's hand, and the unseen tokens stay the same."""
    sc = Scenario(". . . . . .\n. . . . . .", options=REWARDS)
    mine = sc.add("anna_tommy", side=0, at=(0, 0))
    theirs = sc.add("bill_tell", side=1, at=(5, 0))
    market = sc.open_market(seed=5)
    sc.hold(mine, "fire_boost")
    sc.hold(theirs, "xelor_style")
    sc.hold(theirs, "iop_style")
    sc.activate(theirs)
    sc.reveal(theirs, "iop_style")
    before = snapshot(sc.state)
    view = MatchView(sc.state, 0)
    copy_ = view.clone_state(SeededDice(np.random.default_rng(1)))
    assert snapshot(sc.state) == before  # the match is untouched
    copied = copy_.rules.market  # type: ignore[attr-defined]
    mine_c = next(f for f in copy_.fighters if f.uid == mine.uid)
    theirs_c = next(f for f in copy_.fighters if f.uid == theirs.uid)
    assert [(t.spec.id, t.face_up) for t in tokens_of(mine_c)] == [
        (t.spec.id, t.face_up) for t in tokens_of(mine)
    ]
    assert [t.face_up for t in tokens_of(theirs_c)] == [t.face_up for t in tokens_of(theirs)]
    assert [t.spec.rank for t in tokens_of(theirs_c)] == [t.spec.rank for t in tokens_of(theirs)]
    assert [t.spec.id for t in tokens_of(theirs_c) if t.face_up] == ["iop_style"]
    assert copied.face_up == market.face_up
    assert [len(p) for p in copied.piles] == [len(p) for p in market.piles]
    copy_view = MatchView(copy_, 0)
    for rank in range(3):
        assert arena_view(copy_view).unseen_rewards(rank) == arena_view(view).unseen_rewards(rank)
    assert copied.piles != market.piles  # dealt again, not the real order
