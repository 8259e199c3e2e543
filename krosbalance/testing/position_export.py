"""A reference position as plain data, as the native core rebuilds it (the scenario kit on both
engines: :mod:`krosbalance.testing.scenario_core`).

:func:`export_position` writes every fighter's cell, injuries, AP, MP, markers, powers, spells and
uses; the dice still scripted; and the ruleset's own state under its name (:data:`RULESET_PARTS`):
Arena's GG, kamas, market and reward cards; the Duel Pack's duel level, token supply, tokens on
duel cells and on the cards; Blast's glyphs, tiles, Dofus token, favors, challenges and per-turn
limits. Plain ints, strings, lists and dicts, so the core builds the same position and hands its
own back in the same form. :func:`plain` turns events and results into the same plain form, and
:func:`differences` lists where two such positions differ, for a divergence's message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from krosbalance.content.blast_keywords import BLAST_POWER_KEYWORDS
from krosbalance.rulesets.arena.results import ArenaStats
from krosbalance.rulesets.arena.state import ArenaState
from krosbalance.rulesets.arena.tokens import RewardCard
from krosbalance.rulesets.blast.state import BlastState
from krosbalance.rulesets.duel.state import DuelState

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


#: the summon tags of pieces a Blast favor or bonus brought (``favor:<id>``, ``bonus:<i>``,
#: rulesets/blast/bonus.py): they name the source, never a spell (no spell's summon limit counts
#: them, engine/legal.py), and the core keeps no tag for them (it counts them by id, R-B27)
_BONUS_TAGS = ("favor:", "bonus:")


def _fighter(f: Fighter) -> dict[str, Any]:
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
        # Blast's card powers are read from the card (``spec.powers``), in the core from its own
        # table (``BlastPower``): never the engine's set, so not the position's
        "powers": _names(p for p in f.powers if p not in BLAST_POWER_KEYWORDS),
        "inspired": _names(f.inspired),
        "resist": _names(f.resist),
        "immune": _names(f.immune),
        "summoner": None if f.summoner is None else f.summoner.uid,
        "summon_spell": None
        if not f.summon_spell or f.summon_spell.startswith(_BONUS_TAGS)
        else f.summon_spell,
        "summons": [t.uid for t in f.summons],
        "plus_mp": f.plus_mp,
        "minus_mp": f.minus_mp,
        "plus_ap": f.plus_ap,
        "minus_ap": f.minus_ap,
        "turn_uses": sorted((k, n) for k, n in f.turn_uses.items() if n),
        "game_uses": _names(f.game_uses),
        "max_range_bonus": f.max_range_bonus,
        "forbidden_kinds": sorted(f.forbidden_kinds),
        "banned_targets": sorted(f.banned_targets.items()),
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


def _arena(state: MatchState, rules: Any) -> dict[str, Any]:
    return {
        "gg": list(rules.gg),
        "wild_gg": rules.wild_gg,
        "gg_removed": rules.gg_removed,
        "kamas": list(rules.kamas),
        "kama_reserve": rules.kama_reserve,
        "board_kamas": list(rules.board_kamas),
        "gg_price": rules.gg_price,
        "market": _market(rules.market),
    }


def _duel(state: MatchState, ds: Any) -> dict[str, Any]:
    """The Duel Pack's holdings (``rulesets.duel.state.DuelState``), tokens by id, cards by uid."""

    def ids(tokens: Sequence[Any]) -> list[str]:
        return [t.id for t in tokens]

    uids = range(len(state.fighters))
    return {
        "duel_cells": ds.duel_cells,
        "duel_level": ds.duel_level,
        "piles": [ids(pile) for pile in ds.piles],
        "face_up": [None if t is None else t.id for t in ds.face_up],
        "on_cells": sorted((cell, t.id) for cell, t in ds.on_cells.items()),
        "hidden": [ids(ds.hidden.get(uid, ())) for uid in uids],
        "shown": [ids(ds.shown.get(uid, ())) for uid in uids],
        "pending": [(uid, t.id) for uid, t in ds.pending],
        "placement_seed": ds.placement_seed,
        "drafted": list(ds.drafted),
        "picked": list(ds.picked),
        "revealed": list(ds.revealed),
        "start_tokens": [ids(tokens) for tokens in ds.start_tokens],
    }


def _blast(state: MatchState, bs: Any) -> dict[str, Any]:
    """Blast's holdings (``rulesets.blast.state.BlastState``), favors and challenges by id."""
    return {
        "glyph_cells": bs.glyph_cells,
        "owned": list(bs.owned),
        "tiles": [list(cells) for cells in bs.tiles],
        "dofus": bs.dofus,
        "deck": [f.id for f in bs.deck],
        "slots": [None if f is None else f.id for f in bs.slots],
        "slot_used": list(bs.slot_used),
        "challenges": [c.id for c in bs.challenges],
        "tiers": list(bs.tiers),
        "bonus_used": sorted(bs.bonus_used),
        "spell_bonus": sorted(bs.spell_bonus.items()),
        "rerolled": sorted(bs.rerolled),
        "peak": list(bs.peak),
        "tier_turn": [list(turns) for turns in bs.tier_turn],
        "bonus_uses": [list(uses) for uses in bs.bonus_uses],
        "favor_uses": list(bs.favor_uses),
        "captures": list(bs.captures),
        "enter_cells": state.enter_cells,
    }


#: each ruleset state the core rebuilds: the position's key for it and its export
RULESET_PARTS: dict[type, tuple[str, Callable[[MatchState, Any], dict[str, Any]]]] = {
    ArenaState: ("arena", _arena),
    DuelState: ("duel", _duel),
    BlastState: ("blast", _blast),
}


def export_position(state: MatchState, dice: Sequence[int] = ()) -> dict[str, Any]:
    """The reference's position as the core's ``scenario_step`` (``duel_scenario_step``,
    ``blast_scenario_step``) takes it and gives it back (``dice``: the faces still scripted)."""
    rules = state.rules
    part = RULESET_PARTS.get(type(rules))
    if part is None:
        raise Unmirrored(f"the ruleset's state is {type(rules).__name__} (not in the core)")
    key, export = part
    for what, present in (
        # Blast's glyphs and tiles are its own (its export); no other ruleset's cell is one
        ("cells with an on-enter rule", state.enter_cells and key != "blast"),
        ("an unsettled instant", state.pending_bombs or state.pending_kos or state.unsettled),
    ):
        if present:
            raise Unmirrored(f"the position holds {what} (not in the core)")
    if any(f.uid != i for i, f in enumerate(state.fighters)):
        raise Unmirrored("fighters whose uids are not their places")
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
        key: export(state, rules),
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
