"""A reference position as plain data, as the native core rebuilds it (the scenario kit on both
engines: :mod:`krosbalance.testing.scenario_core`).

:func:`export_position` writes every fighter's cell, injuries, AP, MP, markers, powers, spells and
uses, tokens; GG, kamas and the market; the dice still scripted: plain ints, strings, lists and
dicts, so the core builds the same position and hands its own back in the same form. :func:`plain`
turns events and results into the same plain form, and :func:`differences` lists where two such
positions differ, for a divergence's message.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from krosbalance.rulesets.arena.results import ArenaStats
from krosbalance.rulesets.arena.state import ArenaState
from krosbalance.rulesets.arena.tokens import RewardCard

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter, MatchState


class Unmirrored(Exception):
    """What the core cannot rebuild or play; the reason stops the mirroring of one scenario."""


def _names(values: Any) -> list[str]:
    return sorted(str(v) for v in values)


def _card(fighter: Fighter) -> dict[str, Any] | None:
    extra = fighter.extra
    if extra is None:
        return None
    if not isinstance(extra, RewardCard):
        raise Unmirrored(f"{fighter!r} holds {type(extra).__name__} (not Arena's reward card)")
    mods = extra.mods
    return {
        "tokens": [(t.spec.id, t.face_up, t.bought_turn, t.seen) for t in extra.tokens],
        "mods": None
        if mods is None
        else {
            "damage": list(mods.damage),
            "melee": mods.melee,
            "melee_lifesteal": mods.melee_lifesteal,
            "next_spell": [tuple(n) for n in mods.next_spell],
            "next_elemental": mods.next_elemental,
        },
    }


_COUNTERS = (
    "kamas_collected",
    "gg_won",
    "rewards_bought",
    "rewards_revealed",
    "rewards_held",
    "rewards_used",
    "rewards_held_turns",
    "rewards_used_turns",
)


def _arena_counters(extra: Any) -> dict[str, Any]:
    """Arena's counters of a fighter (``rulesets.arena.results.ArenaStats``; none yet: zeros)."""
    if extra is None:
        extra = ArenaStats()
    return {name: list(v) if isinstance(v := getattr(extra, name), list) else v for name in _COUNTERS}


def _fighter(f: Fighter) -> dict[str, Any]:
    if f.banned_targets:
        raise Unmirrored(f"{f!r} has banned targets (not in the core)")
    s = f.stats
    return {
        "uid": f.uid,
        "spec": f.spec.id,
        "side": f.side,
        "team": f.team,
        "cell": f.cell,
        "injuries": f.injuries,
        "hp": f.hp,
        "base_mp": f.base_mp,
        "base_ap": f.base_ap,
        "mp": f.mp,
        "ap": f.ap,
        "level": f.level,
        "alive": f.alive,
        "spells": [spell.id for spell in f.spells],
        "powers": _names(f.powers),
        "inspired": _names(f.inspired),
        "resist": _names(f.resist),
        "immune": _names(f.immune),
        "summoner": None if f.summoner is None else f.summoner.uid,
        "summon_spell": f.summon_spell or None,
        "summons": [t.uid for t in f.summons],
        "plus_mp": f.plus_mp,
        "minus_mp": f.minus_mp,
        "plus_ap": f.plus_ap,
        "minus_ap": f.minus_ap,
        "turn_uses": sorted((k, n) for k, n in f.turn_uses.items() if n),
        "game_uses": _names(f.game_uses),
        "max_range_bonus": f.max_range_bonus,
        "forbidden_kinds": sorted(f.forbidden_kinds),
        "forbidden_powers": _names(f.forbidden_powers),
        "range_bonus": f.range_bonus,
        "blocked": f.blocked,
        "placed_turn": f.placed_turn,
        "acting": f.acting,
        "ko_by": None if f.ko_by is None else f.ko_by.uid,
        "stats": {
            "damage_dealt": list(s.damage_dealt),
            "damage_taken": list(s.damage_taken),
            "heals_given": s.heals_given,
            "heals_received": s.heals_received,
            "kills": s.kills,
            "knocked_out": s.knocked_out,
            "turns_alive": s.turns_alive,
            "spells_cast": s.spells_cast,
            "moves": s.moves,
            "times_blocked": s.times_blocked,
            **_arena_counters(s.extra),
        },
        "card": _card(f),
    }


def _market(market: Any) -> dict[str, Any] | None:
    if market is None:
        return None
    return {
        "piles": [[t.id for t in pile] for pile in market.piles],
        "face_up": [(pile, t.id) for pile, t in market.face_up],
        "box": [t.id for t in market.box],
        "hidden_box": [t.id for t in market.hidden_box],
        "prices": list(market.prices),
    }


def export_position(state: MatchState, dice: Sequence[int] = ()) -> dict[str, Any]:
    """The reference's position as the core's ``scenario_step`` takes it and gives it back
    (``dice``: the faces still scripted)."""
    for what, present in (
        ("cells with an on-enter rule", state.enter_cells),
        ("an unsettled instant", state.pending_bombs or state.pending_kos or state.unsettled),
    ):
        if present:
            raise Unmirrored(f"the position holds {what} (not in the core)")
    if any(f.uid != i for i, f in enumerate(state.fighters)):
        raise Unmirrored("fighters whose uids are not their places")
    rules = state.rules
    if not isinstance(rules, ArenaState):
        raise Unmirrored(f"the ruleset's state is {type(rules).__name__}, not Arena's")
    return {
        "record": state.record,
        "dice": list(dice),
        "obstacles": state.obstacles,
        "sight_blockers": state.sight_blockers,
        "trees": state.trees,
        "bushes": state.bushes,
        "crates": state.crates,
        "fixed_sight": state.fixed_sight,
        "invisible": state.invisible,
        "scenery_injuries": sorted((c, n) for c, n in state.scenery_injuries.items() if n),
        "turn": state.turn,
        "active_side": state.active_side,
        "first_player": state.first_player,
        "play_order": list(state.play_order),
        "team_of": list(state.team_of),
        "edges": list(state.edges),
        "timeline": [[f.uid for f in line] for line in state.timeline],
        "lock_holders": [f.uid for f in state.lock_holders],
        "active": None if state.active is None else state.active.uid,
        "winner": state.winner,
        "finished": state.finished,
        "end_reason": state.end_reason,
        "occupied": [(c, f.uid) for c, f in enumerate(state.by_cell) if f is not None],
        "traps": sorted((c, f.uid) for c, f in state.traps.items()),
        "fighters": [_fighter(f) for f in state.fighters],
        "arena": {
            "gg": list(rules.gg),
            "wild_gg": rules.wild_gg,
            "gg_removed": rules.gg_removed,
            "kamas": list(rules.kamas),
            "kama_reserve": rules.kama_reserve,
            "board_kamas": list(rules.board_kamas),
            "gg_price": rules.gg_price,
            "market": _market(rules.market),
        },
    }


def plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def differences(core: Any, reference: Any, path: str = "") -> Iterator[str]:
    """Where two plain positions differ, as ``path: core != reference`` lines."""
    if isinstance(core, dict) and isinstance(reference, dict):
        for key in sorted(set(core) | set(reference)):
            yield from differences(core.get(key), reference.get(key), f"{path}.{key}" if path else key)
    elif isinstance(core, list) and isinstance(reference, list) and len(core) == len(reference):
        for i, (a, b) in enumerate(zip(core, reference, strict=True)):
            yield from differences(a, b, f"{path}[{i}]")
    elif core != reference:
        yield f"{path}: core {core!r} != reference {reference!r}"
