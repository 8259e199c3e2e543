"""What one planning pass of the heuristic planner reads many times, and the walking helpers.

A :class:`_Context` is built once per pass (see :mod:`krosbalance.ai.planner`) so the inner loops
read plain ints, tuples and dicts instead of calling view properties: the view's live masks, the
targets as tuples, the castable spells with their effect flags and range tables, and caches of values
that do not depend on the casting cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from krosbalance.ai import scoring
from krosbalance.ai.scoring import geometry
from krosbalance.content.specs import SpellSpec
from krosbalance.engine.view import FighterView, MatchView

#: a spell the cast search may pick: (index, spell, AP cost, kind, limited, needs line of sight,
#: moves its target, swaps with it, moves the caster)
Castable = tuple[int, SpellSpec, int, str, bool, bool, bool, bool, bool]
#: a ``Castable`` with its range table for one range bonus (per origin cell, the cells it reaches)
CastEntry = tuple[int, SpellSpec, int, str, bool, bool, bool, bool, bool, list[int] | tuple[int, ...]]
#: cached attack values: ("bomb", spell id, bomb uid) or (spell id, target uid, HP left, extra bonus)
ValueKey = tuple[str, str, int] | tuple[str, int, int, int]


class _Context:
    """What one planning pass reads many times: masks, threat, targets, per-spell tables.

    Built once per pass so the inner loops read plain ints, tuples and dicts instead of calling view
    properties: the live masks of the view, the targets as (cell, uid, view) tuples, the castable
    spells with their effect flags, and lazily filled caches of values that do not depend on the
    casting cell (heals, summons, hit odds)."""

    __slots__ = (
        "view",
        "me",
        "side",
        "board",
        "geo",
        "blockers",
        "obstacles",
        "threat",
        "enemies",
        "allies",
        "bombs",
        "risk",
        "enemy_kros",
        "enemy_kros_mask",
        "blasts",
        "near_enemies",
        "my_reach",
        "my_worry",
        "support_bonus",
        "values",
        "me_cell",
        "me_uid",
        "crates",
        "targets",
        "target_mask",
        "castable",
        "my_tokens",
        "summon_ranks",
        "heals",
        "hurts",
        "econ_mask",
        "lockers",
        "objective",
        "nearest_kros",
        "bomb_values",
        "hp_left",
        "strike",
        "hold",
        "is_krosmaster",
        "occupied",
        "plain",
        "by_bonus",
    )

    def __init__(self, view: MatchView, me: FighterView, threat: list[float]) -> None:
        self.view = view
        self.me = me
        side = self.side = me.side
        board = self.board = view.board
        self.geo = geometry(board)
        everyone = view.fighters()
        self.me_cell = me_cell = me.cell
        self.me_uid = me.uid
        self.blockers = view.sight_blockers & ~(1 << me_cell)
        self.obstacles = view.obstacles
        self.occupied = self.obstacles & ~(1 << me_cell)  # where a summon cannot go (we will move)
        self.crates = view.crates
        self.threat = threat
        enemies: list[FighterView] = []
        allies: list[FighterView] = []
        bombs: list[FighterView] = []
        for f in everyone:
            if f.is_character:
                (allies if f.side == side else enemies).append(f)
            if f.kind == "bomb":
                bombs.append(f)
        self.enemies = enemies
        self.allies = allies
        self.bombs = bombs
        self.enemy_kros = [f.cell for f in enemies if f.is_krosmaster]
        kros_mask = 0
        for c in self.enemy_kros:
            kros_mask |= 1 << c
        self.enemy_kros_mask = kros_mask
        self.nearest_kros = self.geo.nearest(kros_mask) if kros_mask else []
        self.targets = [(f.cell, f.uid, f, f.kind == "bomb") for f in enemies + bombs]
        target_mask = 0
        for t, _, _, _ in self.targets:
            target_mask |= 1 << t
        self.target_mask = target_mask
        self.risk: dict[int, float] = {}
        self.blasts: dict[int, float] = {}
        square = board.square_mask
        near = 0
        lockers = 0
        for enemy in enemies:
            near |= square[enemy.cell]
            if not enemy.has("tiny"):
                lockers |= board.neighbour_mask[enemy.cell]
        self.near_enemies = near
        self.lockers = lockers  # cells next to an enemy that may lock (block_chance is 0 elsewhere)
        self.my_reach = _reach(me)
        self.hp_left = me.remaining_hp
        self.strike = me.base_mp + self.my_reach
        self.hold = max(2, self.my_reach)  # the range a kiter holds at
        self.is_krosmaster = me.is_krosmaster
        self.my_worry = scoring.kill_value(view, me) if me.is_krosmaster else 0.3
        self.support_bonus = 0
        self.values: dict[ValueKey, float] = {}
        if not me.is_krosmaster and me.summoner is not None:
            summoner = next((a for a in allies if a.uid == me.summoner), None)
            self.support_bonus = _bonus_for(summoner, me.character)
        # the spells the greedy cast search may pick (costs, limits and kinds checked once)
        ap = me.ap
        castable: list[Castable] = []
        for index, spell in enumerate(me.spells):
            cost = spell.ap_cost
            if cost > ap or cost == 0 or spell.mp_cost or spell.injury_cost:
                continue
            limited = spell.limit != "unlimited"
            if limited and me.spell_used(spell):
                continue
            kind = spell.kind
            if kind == "summon":
                if not spell.summons:
                    continue
            elif kind != "attack" and kind != "heal":
                continue
            kinds = {e.kind for e in spell.effects}
            castable.append(
                (
                    index,
                    spell,
                    cost,
                    kind,
                    limited,
                    spell.needs_los,
                    "push" in kinds or "attract" in kinds,
                    "swap_places" in kinds,
                    "retreat" in kinds or "approach" in kinds,
                )
            )
        self.castable = castable
        self.by_bonus: dict[int, list[CastEntry]] = {}
        self.plain: dict[tuple[int, int], float] = {}
        self.bomb_values: dict[int, float] = {}
        tokens: dict[str, int] = {}
        for token in view.summons_of(me):
            tokens[token.character] = tokens.get(token.character, 0) + 1
        self.my_tokens = tokens
        self.summon_ranks: dict[tuple[str, bool], list[tuple[int, float]]] = {}
        self.heals: dict[tuple[int, int], float] = {}
        self.hurts: dict[tuple[int, int], float] = {}
        self.econ_mask = 0  # cells where _economy_value may be non-zero
        if me.is_krosmaster:
            econ = board.demon_cells
            for c in view.kama_cells():
                econ |= 1 << c
            self.econ_mask = econ
        self.objective: tuple[list[int], list[int]] | None = None

    def castable_with(self, bonus: int) -> list[CastEntry]:
        """``castable`` with each spell's range table for this range bonus appended."""
        entries = self.by_bonus.get(bonus)
        if entries is None:
            geo = self.geo
            entries = self.by_bonus[bonus] = [
                (*e, geo.spell_table(e[1], 0 if e[3] == "summon" else bonus)) for e in self.castable
            ]
        return entries

    def blast(self, cell: int) -> float:
        """Worth to us of a bomb exploding on ``cell`` (our fighter counted where it stands now)."""
        value = self.blasts.get(cell)
        if value is None:
            value = self.blasts[cell] = scoring.explosion_value(self.view, cell, self.side, self.me_cell)
        return value

    def block(self, cell: int) -> float:
        risk = self.risk.get(cell)
        if risk is None:
            locked = (self.lockers >> cell) & 1
            risk = self.risk[cell] = scoring.block_chance(self.view, self.me, cell) if locked else 0.0
        return risk


# ---------------------------------------------------------------------------------- helpers
def _reach(fighter: FighterView) -> int:
    """The longest max range among the fighter's attack spells (1 for melee, 0 with none)."""
    best = 0
    for spell in fighter.spells:
        if spell.kind == "attack" and spell.ap_cost:
            best = max(best, 1 if spell.range_type == "melee" else spell.range_max)
    return best


def _bonus_for(summoner: FighterView | None, summon: str) -> int:
    """Damage a summoner's spells gain per adjacent token of ``summon`` (To Fu Ti, Gobbolob)."""
    if summoner is None:
        return 0
    return max(
        (
            e.params["damage"]
            for spell in summoner.spells
            for e in spell.effects
            if e.kind == "bonus_per_adjacent_summon" and e.params["summon"] == summon
        ),
        default=0,
    )


def _path(board_neighbours: Sequence[Sequence[int]], reach: dict[int, int], dest: int) -> list[int]:
    """Cells from the start to ``dest`` along decreasing BFS cost (start excluded, dest included)."""
    path = [dest]
    cur = dest
    while reach[cur] > 1:
        cost = reach[cur] - 1
        for n in board_neighbours[cur]:
            if reach.get(n) == cost:
                cur = n
                break
        else:
            break
        path.append(cur)
    path.reverse()
    return path


def _path_risks(ctx: _Context, reach: dict[int, int]) -> dict[int, float]:
    """Per reachable cell, the chance of being blocked somewhere on the way (every cell left may
    lock), along the path ``_path`` walks: each cell's chance extends its BFS parent's. Only cells
    next to an enemy may block, so a walk that passes none is free."""
    lockers = ctx.lockers
    reach_mask = 0
    for cell in reach:
        reach_mask |= 1 << cell
    if not reach_mask & lockers:
        return dict.fromkeys(reach, 0.0)
    neighbours = ctx.board.neighbours
    block = ctx.block
    risks: dict[int, float] = {}
    free_at: dict[int, float] = {}
    start_free = 1.0 - block(ctx.me_cell)
    for cell, cost in reach.items():  # BFS order: a parent comes before its children
        if cost == 0:
            risks[cell] = 0.0
            continue
        if cost == 1:
            free = start_free
        else:
            parent = cell
            for n in neighbours[cell]:
                if reach.get(n) == cost - 1:
                    parent = n
                    break
            free = free_at[parent]
            if (lockers >> parent) & 1:
                free *= 1.0 - block(parent)
        free_at[cell] = free
        risks[cell] = 1.0 - free
    return risks
