"""A fast copy of a match state, for AIs that look ahead by playing on copies.

:func:`clone_state` copies a :class:`~krosbalance.engine.state.MatchState` and its fighters field by
field, without ``copy.deepcopy``: immutable data (the board, the ruleset, specs, spells, frozensets)
is shared; everything play mutates (fighters, cell tables, per-turn uses, counters) is new, with
every reference between fighters (summoner, summons, the KO credit, Timelines, the active fighter,
cell and trap tables, pending bombs and KOs) pointing into the copy; the ruleset's own state
(``state.rules``: Arena's GG and kamas, and the Demonic Reward market) is copied by its ``copy()``
(``engine.rules.RulesetState``), and so is the ruleset's per-piece data (``Fighter.extra``,
``engine.rules.PieceState``).
Play on the copy never touches the original.

The copy gets the dice it is given (never the match's: an AI must not see the match dice) and an
empty event log at the recording level asked for (none by default: a lookahead does not read logs).
``hide_traps_of`` removes one side's traps, which its opponent cannot see (R-A116).

Both classes are built by their constructors (a compiled class always runs ``__init__``; the
state's takes the copied ruleset state instead of asking the ruleset for a new one), then every slot
is overwritten. Every slot of ``MatchState`` and ``Fighter`` is listed below under how it is copied;
a test checks the lists against the classes' slots so a new field cannot be forgotten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.results import FighterStats
from krosbalance.engine.state import Fighter, MatchState

if TYPE_CHECKING:
    from krosbalance.engine.dice import Dice

#: how each ``MatchState`` slot is copied
STATE_SHARED: tuple[str, ...] = ("board", "ruleset", "opts")  # immutable
STATE_VALUES: tuple[str, ...] = (  # ints, bools, strs, None, frozen masks
    "obstacles",
    "sight_blockers",
    "trees",
    "bushes",
    "crates",
    "fixed_sight",
    "enter_cells",
    "turn",
    "active_side",
    "first_player",
    "winner",
    "end_reason",
    "finished",
    "unsettled",
    "invisible",
    "next_uid",
    "n_seats",
    "team_of",
    "play_order",
)
STATE_REMAPPED: tuple[str, ...] = (
    "fighters",
    "by_cell",
    "traps",
    "timeline",
    "active",
    "pending_bombs",
    "pending_kos",
    "lock_holders",
)
#: copied: new containers with the same values (``rules`` by ``RulesetState.copy``)
STATE_CONTAINERS: tuple[str, ...] = ("rules", "scenery_injuries", "summon_specs", "edges")
#: given by the caller / fresh (a copy has no players attached)
STATE_REPLACED: tuple[str, ...] = ("dice", "record", "events", "players")

#: how each ``Fighter`` slot is copied
FIGHTER_SHARED: tuple[str, ...] = (  # immutable
    "spec",
    "spells",
    "resist",
    "immune",
    "forbidden_kinds",
    "forbidden_powers",
)
FIGHTER_VALUES: tuple[str, ...] = (
    "uid",
    "side",
    "team",
    "cell",
    "injuries",
    "hp",
    "base_mp",
    "base_ap",
    "mp",
    "ap",
    "kind",
    "level",
    "alive",
    "summon_spell",
    "plus_mp",
    "minus_mp",
    "plus_ap",
    "minus_ap",
    "range_bonus",
    "blocked",
    "placed_turn",
    "acting",
    "max_range_bonus",
)
#: copied (``extra``, the ruleset's per-piece data, by ``PieceState.copy``)
FIGHTER_CONTAINERS: tuple[str, ...] = (
    "powers",
    "inspired",
    "turn_uses",
    "game_uses",
    "stats",
    "extra",
    "banned_targets",
)
FIGHTER_REMAPPED: tuple[str, ...] = ("summoner", "summons", "ko_by")


def _copy_stats(stats: FighterStats) -> FighterStats:
    return FighterStats(
        stats.damage_dealt.copy(),
        stats.damage_taken.copy(),
        stats.heals_given,
        stats.heals_received,
        stats.kills,
        stats.knocked_out,
        stats.turns_alive,
        stats.spells_cast,
        stats.moves,
        stats.times_blocked,
        None if stats.extra is None else stats.extra.copy(),
    )


def _copy_fighter(f: Fighter, keep_stats: bool) -> Fighter:
    # Built by the constructor (compiled classes always run __init__), then every slot overwritten.
    c = Fighter(f.uid, f.spec, f.side, f.spells, None, f.summon_spell, f.team)
    c.cell = f.cell
    c.injuries = f.injuries
    c.hp = f.hp
    c.base_mp = f.base_mp
    c.base_ap = f.base_ap
    c.mp = f.mp
    c.ap = f.ap
    c.kind = f.kind
    c.level = f.level
    c.alive = f.alive
    c.powers = set(f.powers)
    c.inspired = set(f.inspired)
    c.resist = f.resist
    c.immune = f.immune
    # summoner, summons and ko_by are remapped by clone_state; the constructor left them empty
    c.plus_mp = f.plus_mp
    c.minus_mp = f.minus_mp
    c.plus_ap = f.plus_ap
    c.minus_ap = f.minus_ap
    c.turn_uses = dict(f.turn_uses)
    c.game_uses = set(f.game_uses)
    c.range_bonus = f.range_bonus
    c.blocked = f.blocked
    c.placed_turn = f.placed_turn
    if keep_stats:  # else the constructor's zeroed counters
        c.stats = _copy_stats(f.stats)
    c.acting = f.acting
    c.banned_targets = dict(f.banned_targets)
    if f.extra is not None:  # the ruleset's per-piece data (the constructor left none)
        c.extra = f.extra.copy()
    c.max_range_bonus = f.max_range_bonus
    c.forbidden_kinds = f.forbidden_kinds
    c.forbidden_powers = f.forbidden_powers
    return c


def clone_state(
    state: MatchState,
    dice: Dice,
    *,
    record: int = 0,
    keep_stats: bool = True,
    viewer_team: int | None = None,
) -> MatchState:
    """A copy of ``state`` that plays with ``dice``; see the module docstring.

    Args:
        state: the state to copy (left untouched).
        dice: the copy's dice.
        record: event recording level of the copy (its log starts empty).
        keep_stats: copy the per-fighter counters (False gives zeroed counters: cheaper, for
            lookahead that never reads them).
        viewer_team: the partnership the copy is made for: the traps of every other partnership
            are left out of the copy (they cannot see them, R-A116).
    """
    fighters = state.fighters
    copies = [_copy_fighter(f, keep_stats) for f in fighters]
    by_uid: dict[int, Fighter] = {f.uid: c for f, c in zip(fighters, copies, strict=True)}
    for f, c in zip(fighters, copies, strict=True):
        if f.summoner is not None:
            c.summoner = by_uid[f.summoner.uid]
        if f.summons:
            c.summons = [by_uid[t.uid] for t in f.summons]
        if f.ko_by is not None:
            c.ko_by = by_uid[f.ko_by.uid]

    # the constructor shares board, ruleset and opts and takes the ruleset's state copy as it is
    new = MatchState(state.board, state.ruleset, dice, record, state.rules.copy(), state.team_of)
    new.fighters = copies
    new.by_cell = [None if p is None else by_uid[p.uid] for p in state.by_cell]
    new.obstacles = state.obstacles
    new.sight_blockers = state.sight_blockers
    new.trees = state.trees
    new.bushes = state.bushes
    new.crates = state.crates
    new.fixed_sight = state.fixed_sight
    new.enter_cells = state.enter_cells
    new.traps = {cell: by_uid[t.uid] for cell, t in state.traps.items()}
    new.turn = state.turn
    new.active_side = state.active_side
    new.first_player = state.first_player
    new.play_order = state.play_order
    new.timeline = [[by_uid[f.uid] for f in line] for line in state.timeline]
    new.active = None if state.active is None else by_uid[state.active.uid]
    new.winner = state.winner
    new.end_reason = state.end_reason
    new.finished = state.finished
    new.scenery_injuries = dict(state.scenery_injuries)
    new.pending_bombs = [by_uid[b.uid] for b in state.pending_bombs]
    new.pending_kos = [by_uid[k.uid] for k in state.pending_kos]
    new.unsettled = state.unsettled
    new.invisible = state.invisible
    new.edges = list(state.edges)
    new.next_uid = state.next_uid
    new.summon_specs = dict(state.summon_specs)
    new.lock_holders = [by_uid[f.uid] for f in state.lock_holders]
    if viewer_team is not None and new.traps:
        for cell, trap in list(new.traps.items()):
            if trap.team != viewer_team:
                del new.traps[cell]
                trap.cell = -1
                trap.alive = False
    return new
