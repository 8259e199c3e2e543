"""What one planning pass of the heuristic planner reads many times (the walks are :mod:`.walks`).

A :class:`_Context` is built once per pass (see :mod:`krosbalance.ai.planner`) so the inner loops
read plain ints, tuples and dicts instead of calling view properties: the view's live masks, the
targets as tuples, the castable spells with their effect flags and range tables, and caches of values
that do not depend on the casting cell.
"""

from __future__ import annotations

from typing import Final, final

from krosbalance.ai import board_masks, enemy_threat, scoring
from krosbalance.ai.board_masks import geometry
from krosbalance.ai.enemy_threat import ThreatMap
from krosbalance.ai.weights import Weights
from krosbalance.content.specs import SpellSpec
from krosbalance.engine.view import BLOCK_CHANCE, FighterView, MatchView
from krosbalance.rulesets.arena.kinds import BUY_GG, PICK_KAMA
from krosbalance.rulesets.arena.view import arena_view

#: a spell the cast search may pick: (index, spell, AP cost, kind, limited, needs line of sight,
#: moves its target, swaps with it, moves the caster)
Castable = tuple[int, SpellSpec, int, str, bool, bool, bool, bool, bool]


@final
class CastEntry:
    """A ``Castable`` with its range table for one range bonus (per origin cell, the cells it
    reaches), as the cast search reads it in its inner loop: a native class, whose fields compiled
    code reads in place where a tuple would be unpacked item by item."""

    __slots__ = (
        "index",
        "spell",
        "cost",
        "kind",
        "limited",
        "needs_los",
        "moves_target",
        "swaps",
        "moves_caster",
        "table",
    )

    def __init__(self, castable: Castable, table: list[int] | tuple[int, ...]) -> None:
        self.index: Final = castable[0]
        self.spell: Final = castable[1]
        self.cost: Final = castable[2]
        self.kind: Final = castable[3]
        self.limited: Final = castable[4]
        self.needs_los: Final = castable[5]
        self.moves_target: Final = castable[6]
        self.swaps: Final = castable[7]
        self.moves_caster: Final = castable[8]
        self.table: Final = table


@final
class Target:
    """A piece the cast search may attack (an enemy character or any bomb): its cell, uid, view and
    whether it is a bomb, read in place by compiled code."""

    __slots__ = ("cell", "uid", "piece", "bomb")

    def __init__(self, piece: FighterView) -> None:
        self.cell: Final = piece.cell
        self.uid: Final = piece.uid
        self.piece: Final = piece
        self.bomb: Final = piece.kind == "bomb"


#: cached attack values: ("bomb", spell id, bomb uid) or (spell id, target uid, HP left, extra bonus)
ValueKey = tuple[str, str, int] | tuple[str, int, int, int]


class _Context:
    """What one planning pass reads many times: masks, threat, targets, per-spell tables.

    Built once per pass so the inner loops read plain ints, tuples and dicts instead of calling view
    properties: the live masks of the view, the targets as (cell, uid, view) tuples, the castable
    spells with their effect flags, and lazily filled caches of values that do not depend on the
    casting cell (heals, summons, hit odds)."""

    __slots__ = (
        "may_pick",
        "may_buy",
        "no_swap_back",
        "view",
        "arena",
        "me",
        "side",
        "team",
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
        "boosts",
        "summon_worth",
        "castable",
        "my_tokens",
        "summon_ranks",
        "heals",
        "hurts",
        "econ_mask",
        "econ_cells",
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
        "melee",
        "safety",
        "bomb_cells",
        "bomb_danger",
        "pins",
        "strike_next",
        "engaged",
        "team_target",
        "team_value",
        "walks",
        "buy_pull",
        "nearest_demon",
        "screens",
        "denial",
    )

    def __init__(
        self,
        view: MatchView,
        me: FighterView,
        threat: ThreatMap,
        weights: Weights | None = None,
        team: tuple[int, float] = (-1, 0.0),
    ) -> None:
        w = weights or Weights()
        everyone = self._read_view(view, me, threat)
        enemies, allies, bombs = self._sort_pieces(everyone)
        self.risk: dict[int, float] = {}
        self.blasts: dict[int, float] = {}
        self._enemy_reach(enemies)
        self._read_figure(view, me, w)
        self._bombs_and_pins(me, enemies, bombs)
        self.team_target, self.team_value = team
        self.walks: dict[int, tuple[float, int]] = {}
        self._purchase_pull(view, me)
        self.screens: list[float] | None = None  # cover worth per cell, when first asked
        # per Demon cell, the opponent's next-turn purchase that ending there stops, when first
        # asked (positions.purchase_denial; only with ``Weights.deny``)
        self.denial: dict[int, float] | None = None
        self.support_bonus = 0
        self.values: dict[ValueKey, float] = {}
        if not me.is_krosmaster and me.summoner is not None:
            summoner = next((a for a in allies if a.uid == me.summoner), None)
            self.support_bonus = _bonus_for(summoner, me.character)
        # the spells the greedy cast search may pick (costs, limits and kinds checked once)
        self.castable = castable_spells(me)
        self._empty_caches(view, me)
        self._economy_cells(me)
        # per cell, distances to the nearest Demon cell and kama (positions.objective_distance)
        self.objective: tuple[list[int], list[int]] | None = None

    def _read_view(self, view: MatchView, me: FighterView, threat: ThreatMap) -> list[FighterView]:
        """The view's live masks and what this fighter may do; returns every fighter of the view."""
        # the cell a swap with an ally may not target: where this fighter stood before its last swap
        # this activation (swapping back restores the position for 2 AP: never worth it); -1: none
        self.no_swap_back = -1
        # restricted play (engine.restriction): whether it may pick up kamas and buy GG at all
        self.may_pick = me.may(PICK_KAMA)
        self.may_buy = me.may(BUY_GG)
        self.view = view
        self.arena = arena_view(view)  # Arena's holdings, read once per pass
        self.me = me
        self.side = me.side
        self.team = me.team
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
        return everyone

    def _sort_pieces(
        self, everyone: list[FighterView]
    ) -> tuple[list[FighterView], list[FighterView], list[FighterView]]:
        """The enemy and allied characters and the bombs, the enemy Krosmasters' cells and the
        targets of the cast search; returns (enemies, allies, bombs)."""
        my_team = self.team
        enemies: list[FighterView] = []
        allies: list[FighterView] = []
        bombs: list[FighterView] = []
        for f in everyone:
            if f.is_character:
                (allies if f.team == my_team else enemies).append(f)
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
        self.targets = [Target(f) for f in enemies + bombs]
        target_mask = 0
        for target in self.targets:
            target_mask |= 1 << target.cell
        self.target_mask = target_mask
        return enemies, allies, bombs

    def _enemy_reach(self, enemies: list[FighterView]) -> None:
        """The cells around the enemies (a bomb placed there blasts one), and those next to an enemy
        that may lock (block_chance is 0 elsewhere)."""
        board = self.board
        square = board.square_mask
        near = 0
        lockers = 0
        for enemy in enemies:
            near |= square[enemy.cell]
            if not enemy.has("tiny"):
                lockers |= board.neighbour_mask[enemy.cell]
        self.near_enemies = near
        self.lockers = lockers

    def _read_figure(self, view: MatchView, me: FighterView, w: Weights) -> None:
        """This fighter's reach, HP, strike range and worth, and how much its safety weighs."""
        self.my_reach = _reach(me)
        self.hp_left = me.remaining_hp
        self.strike = me.base_mp + self.my_reach
        self.hold = max(2, self.my_reach)  # the range a kiter holds at
        self.is_krosmaster = me.is_krosmaster
        self.my_worry = scoring.kill_value(view, me) if me.is_krosmaster else 0.3
        # melee figures fight up close whatever the personality: their danger weighs less and
        # standing next to an enemy (a pin, a strike next turn) is worth something
        self.melee = is_melee(me)
        self.safety = min(w.safety, w.melee_safety) if self.melee else w.safety

    def _bombs_and_pins(self, me: FighterView, enemies: list[FighterView], bombs: list[FighterView]) -> None:
        """The cells the bombs on the board will blast (R-A112, R-A114); for a melee figure, its
        damage next turn and the enemies it may pin (:func:`_pins`)."""
        board = self.board
        bomb_cells = 0
        for bomb in bombs:
            bomb_cells |= board.square_mask[bomb.cell]
        self.bomb_cells = bomb_cells
        self.bomb_danger: dict[int, float] = {}
        self.pins: list[tuple[int, float]] = []
        self.strike_next = 0.0
        self.engaged: dict[int, float] = {}
        if self.melee:
            self.strike_next = per_turn_damage(me)
            if not me.has("tiny"):
                self.pins = _pins(me, enemies)

    def _purchase_pull(self, view: MatchView, me: FighterView) -> None:
        """A GG the team can afford: what buying it is worth at today's score (R-A50), for the one
        buyer who goes (the Krosmaster fewest turns from a Demon cell, the healthiest on ties)."""
        board, arena, side = self.board, self.arena, self.side
        self.buy_pull = 0.0
        self.nearest_demon: list[int] = []
        if me.is_krosmaster and self.may_buy and board.demon_cells and arena.kamas[side] >= arena.gg_price:
            nearest = self.geo.nearest(board.demon_cells)
            buyer = min(
                (k for k in view.krosmasters(side) if k.alive and k.cell >= 0),
                key=lambda k: (-(-nearest[k.cell] // max(1, k.base_mp)), -k.remaining_hp, k.uid),
            )
            if buyer.uid == me.uid:
                self.buy_pull = scoring.GG_UNIT * scoring.gg_swing(view, side, 1) + 0.5
                self.nearest_demon = nearest

    def _empty_caches(self, view: MatchView, me: FighterView) -> None:
        """The caches the cast search fills as it goes (values that do not depend on the casting
        cell), and the summons this fighter already controls."""
        self.by_bonus: dict[int, list[CastEntry]] = {}
        self.plain: dict[int, float] = {}  # by spell index << 20 | target uid
        self.bomb_values: dict[int, float] = {}
        tokens: dict[str, int] = {}
        for token in view.summons_of(me):
            tokens[token.character] = tokens.get(token.character, 0) + 1
        self.my_tokens = tokens
        self.summon_ranks: dict[tuple[str, bool], list[tuple[int, float]]] = {}
        # per (spell index, summon): whether the spell gains damage per adjacent such summon; per
        # (summon, cell): the summon's worth there (cast_values.summon_value)
        self.boosts: dict[tuple[int, str], bool] = {}
        self.summon_worth: dict[tuple[str, int], float] = {}
        self.heals: dict[tuple[int, int], float] = {}
        self.hurts: dict[tuple[int, int], float] = {}

    def _economy_cells(self, me: FighterView) -> None:
        """The cells where ending is worth kamas or a GG (Demon cells, kamas on the board) to a
        Krosmaster allowed to buy or pick up: ``econ_mask``, and as a set ``econ_cells`` (a
        board-wide mask is a long integer, slow to test bit by bit)."""
        self.econ_mask = 0  # cells where _economy_value may be non-zero
        self.econ_cells: set[int] = set()
        if me.is_krosmaster:
            econ = self.board.demon_cells if self.may_buy else 0
            if self.may_pick:
                for c in self.arena.kama_cells():
                    econ |= 1 << c
            self.econ_mask = econ
            self.econ_cells = set(board_masks.iter_bits(econ))

    def castable_with(self, bonus: int) -> list[CastEntry]:
        """``castable`` with each spell's range table for this range bonus appended."""
        entries = self.by_bonus.get(bonus)
        if entries is None:
            geo = self.geo
            entries = self.by_bonus[bonus] = [
                CastEntry(e, geo.spell_table(e[1], 0 if e[3] == "summon" else bonus)) for e in self.castable
            ]
        return entries

    def blast(self, cell: int) -> float:
        """Worth to us of a bomb exploding on ``cell`` (our fighter counted where it stands now)."""
        value = self.blasts.get(cell)
        if value is None:
            value = self.blasts[cell] = scoring.explosion_value(self.view, cell, self.side, self.me_cell)
        return value

    def blast_danger(self, cell: int) -> float:
        """What ending on ``cell`` costs us when a bomb on the board blasts it before we act again
        (every bomb goes off at its summoner's next activation, R-A112): about an injury, a -1 AP
        marker and the KO it may cause."""
        if not (self.bomb_cells >> cell) & 1 or not self.me.is_character:
            return 0.0
        value = self.bomb_danger.get(cell)
        if value is None:
            hits = 0
            for bomb in self.bombs:
                if (self.board.square_mask[bomb.cell] >> cell) & 1 and bomb.uid != self.me_uid:
                    hits += 1
            armour = 2 if self.me.has("armour") else 1
            hurt, ko = scoring.hit_odds(hits, 1, armour, 0, self.hp_left)
            value = self.bomb_danger[cell] = hurt + 0.3 * hits + ko * self.my_worry
        return value

    def engagement(self, cell: int) -> float:
        """For a melee figure: the worth of ending next to enemies on ``cell``, the pins it puts on
        them (their chance of being blocked times what they lose, R-A16/R-A45) and half of the
        damage it can deal next turn without walking (0 for ranged figures)."""
        if not self.pins:
            return 0.0
        value = self.engaged.get(cell)
        if value is None:
            row = self.board.distance[cell]
            value = 0.0
            touching = False
            for enemy_cell, worth in self.pins:
                if row[enemy_cell] == 1:
                    value += worth
                    touching = True
            if touching:
                value += 0.5 * self.strike_next
            self.engaged[cell] = value
        return value

    def screen(self, cell: int) -> float:
        """For a melee figure (the team's bodyguards): the worth of its body on ``cell`` as cover, when
        it blocks the line of sight of an enemy that shoots (Plaguing Arrow, Forbidden Word...) to one
        of our Krosmasters (R-A78), more so when that Krosmaster is wounded. The enemy may walk round
        it, so half its shots count."""
        if self.screens is None:
            # the cover each cell gives, summed line by line in the order of the lines
            screens: list[float] = []  # empty: no cover anywhere
            if self.melee and not self.me.has("tiny"):
                size = (self.board.n_cells + 7) >> 3
                blocked = self.view.sight_blockers.to_bytes(size, "little")
                for enemy in self.enemies:
                    shots = [
                        s
                        for s in enemy.spells
                        if s.kind == "attack" and s.needs_los and s.range_type != "melee" and s.amount > 0
                    ]
                    if not shots:
                        continue
                    output = per_turn_damage(enemy)
                    for ally in self.allies:
                        if ally.uid == self.me_uid or not ally.is_krosmaster:
                            continue
                        wounded = 2.0 if ally.remaining_hp <= output + 1 else 1.0
                        worth = 0.5 * output * wounded
                        for c in self.geo.between(enemy.cell, ally.cell):
                            if (blocked[c >> 3] >> (c & 7)) & 1:
                                continue
                            if not screens:
                                screens = [0.0] * self.board.n_cells
                            screens[c] += worth
            self.screens = screens
        return self.screens[cell] if self.screens else 0.0

    def block(self, cell: int) -> float:
        risk = self.risk.get(cell)
        if risk is None:
            locked = (self.lockers >> cell) & 1
            risk = self.risk[cell] = enemy_threat.block_chance(self.view, self.me, cell) if locked else 0.0
        return risk


# ---------------------------------------------------------------------------------- helpers
_MELEE: dict[int, tuple[object, bool]] = {}


def castable_spells(me: FighterView) -> list[Castable]:
    """The spells the greedy cast search may pick: affordable now, paid in AP alone, not used up,
    and an attack, a heal or a summon (costs, limits and kinds checked once per pass)."""
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
    return castable


def _pins(me: FighterView, enemies: list[FighterView]) -> list[tuple[int, float]]:
    """What a (non-Tiny) melee figure's pin on each enemy is worth, as (cell, worth): a pinned enemy
    that walks away risks losing its turn (R-A45); ranged ones must walk away to shoot, so their pin
    is worth their whole output."""
    pins: list[tuple[int, float]] = []
    lock_dice = 2 if me.has("lock") else 1
    for enemy in enemies:
        if enemy.has("tiny"):
            continue
        dodge = 2 if enemy.has("dodge") else 1
        output = per_turn_damage(enemy)
        need = 1.0 if _min_reach(enemy) >= 2 else 0.4
        worth = BLOCK_CHANCE[lock_dice][dodge] * output * need
        if enemy.is_krosmaster:
            worth += 0.05
        pins.append((enemy.cell, worth))
    return pins


def is_melee(fighter: FighterView) -> bool:
    """Whether the fighter's damaging attacks all need it within 2 cells (Anna Tommy, the King,
    Oscar Kass, the Gobball): such a figure must close in to fight. Kept per spell list (held, so
    its id stays its own)."""
    spells = fighter.spells
    entry = _MELEE.get(id(spells))
    if entry is not None and entry[0] is spells:
        return entry[1]
    ranges = [
        1 if s.range_type == "melee" else s.range_max
        for s in spells
        if s.kind == "attack" and s.ap_cost and s.amount > 0
    ]
    melee = bool(ranges) and max(ranges) <= 2
    if len(_MELEE) > 256:
        _MELEE.clear()
    _MELEE[id(spells)] = (spells, melee)
    return melee


def _min_reach(fighter: FighterView) -> int:
    """The shortest distance from which the fighter's best-reaching damaging attack can be cast (an
    archer with a 3-8 bow must stand 3 cells off)."""
    best = 0
    lo = 1
    for s in fighter.spells:
        if s.kind == "attack" and s.ap_cost and s.amount > 0:
            top = 1 if s.range_type == "melee" else s.range_max
            if top > best:
                best, lo = top, (1 if s.range_type == "melee" else s.range_min)
    return lo


def per_turn_damage(fighter: FighterView) -> float:
    """Expected injuries the fighter deals in a turn with its best repeatable attack (plain target)."""
    options = enemy_threat._attack_options(fighter.spells, fighter.base_ap, fighter.has("critical"))
    return options[0][0] if options else 0.0


_REACH: dict[int, tuple[object, int]] = {}


def _reach(fighter: FighterView) -> int:
    """The longest max range among the fighter's attack spells (1 for melee, 0 with none); kept per
    spell list (held, so its id stays its own)."""
    spells = fighter.spells
    entry = _REACH.get(id(spells))
    if entry is not None and entry[0] is spells:
        return entry[1]
    best = 0
    for spell in spells:
        if spell.kind == "attack" and spell.ap_cost:
            best = max(best, 1 if spell.range_type == "melee" else spell.range_max)
    if len(_REACH) > 256:
        _REACH.clear()
    _REACH[id(spells)] = (spells, best)
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
