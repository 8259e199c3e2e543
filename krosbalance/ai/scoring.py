"""Reusable evaluation pieces for the heuristic AIs, all read from a ``MatchView``.

Everything here is plain ints, bitmasks and small dicts so it can run many times per decision:

- :class:`Geometry`: range masks per board (cells at distance lo..hi, optionally in line), cached.
- :func:`hit_odds`: the exact expected injuries and KO chance of one attack, from the dice odds
  (R-A15, R-A60-R-A62), cached by its few integer inputs.
- :func:`score_value` / :func:`gg_swing` / :func:`kill_value`: what GG are worth *at the current
  score* (R-A10, R-A129, R-A132): each GG a side holds is worth more the fewer it has left (the last
  one is the match), a gain that leaves the opponent without GG once the wild GG is gone wins.
- :func:`threat_map`: per cell, the injuries the enemy could deal next turn to a piece standing there
  (each enemy walks its MP then casts its best attack as often as its AP allows, from cells that see
  the target past the trees; a range bonus such as Distant Shot's +3 and crates' +1 extend it).
- :func:`explosion_value`: what a Water Bomb going off on a cell is worth to one side (R-A114).
- :func:`block_chance`: the chance that walking off a cell gets a fighter blocked (R-A16, R-A45).

Values are in "injury units": one expected injury dealt is worth 1, and one GG of swing is worth
``GG_UNIT`` injuries (a box Krosmaster of about 10 HP is worth 3 GG to the killer and 3 to its owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from krosbalance.engine.view import BLOCK_CHANCE
from krosbalance.rulesets.arena.view import arena_view

if TYPE_CHECKING:
    from collections.abc import Sequence

    from krosbalance.board.board import Board
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import FighterView, MatchView

#: what one enemy's share of :func:`threat_map` depends on: (uid, cell, MP, AP, Critical, obstacles
#: within its MP, once-per-game attacks still ready, crates within its MP: it may shoot from one,
#: and crates can be destroyed under the scenery option)
EnemyKey = tuple[int, int, int, int, bool, int, tuple[str, ...], int]


class ThreatCache:
    """Threat maps kept by a caller for one match (:func:`threat_map`): each enemy's share as
    (cells, injuries) layers by its :data:`EnemyKey`, and whole maps by the keys of all the enemies
    in the view's order. A map is asked again far more often than its enemies move (every new turn,
    every injury dealt), and summing the shares is most of its cost."""

    __slots__ = ("layers", "maps", "lookups")

    def __init__(self) -> None:
        self.layers: dict[EnemyKey, list[tuple[int, float]]] = {}
        self.maps: dict[tuple[EnemyKey, ...], list[float]] = {}
        self.lookups: dict[tuple[EnemyKey, ...], ThreatMap] = {}


class ThreatMap:
    """:func:`threat_map` read cell by cell: a cell's threat is worked out when first read (the
    planner reads a few dozen of a board's cells before the enemies move again; summing the shares
    over the whole board would cost more). Each cell adds up its enemies' shares in the view's
    order, as :func:`threat_map` does: the same floats."""

    __slots__ = ("_shares", "_values", "_known")

    def __init__(self, n_cells: int, shares: list[list[tuple[int, float]]]) -> None:
        # each layer's cells a byte per 8 cells: shifting a board-wide mask (a long integer) for
        # every cell read would allocate a new one
        size = (n_cells + 7) >> 3
        self._shares = [
            [(layer.to_bytes(size, "little"), worth) for layer, worth in layers] for layers in shares
        ]
        self._values = [0.0] * n_cells
        self._known = bytearray(n_cells)

    @staticmethod
    def of_values(values: list[float]) -> ThreatMap:
        """A map whose every cell is already known (a whole :func:`threat_map`)."""
        known = ThreatMap(len(values), [])
        known._values = list(values)
        known._known = bytearray(b"\x01" * len(values))
        return known

    def at(self, cell: int) -> float:
        """Injuries the enemies could deal next turn to a piece on ``cell``."""
        if self._known[cell]:
            return self._values[cell]
        value = 0.0
        byte, bit = cell >> 3, cell & 7
        for layers in self._shares:
            for layer, worth in layers:  # an enemy's layers are disjoint
                if (layer[byte] >> bit) & 1:
                    value += worth
                    break
        self._values[cell] = value
        self._known[cell] = 1
        return value


#: injuries' worth of one GG of swing (10 HP ~ a KO ~ 6 GG of swing ~ 10-12 injuries)
GG_UNIT = 2.0
#: what winning the match on the spot is worth
WIN_VALUE = 1000.0
#: extra worth of a side's i-th GG, ``GG_PREMIUM / i``: the last GG held is worth most (once the
#: wild GG is gone, losing it loses the match)
GG_PREMIUM = 1.0

# Success distributions: Critical 1/2 per die, Armour 1/3 per die (R-A15).
_CRIT = ((1.0,), (0.5, 0.5), (0.25, 0.5, 0.25))
_ARMOUR = ((1.0,), (2 / 3, 1 / 3), (4 / 9, 4 / 9, 1 / 9))

_HIT_CACHE: dict[tuple[int, int, int, int, int], tuple[float, float]] = {}
_GG_WORTH: dict[int, float] = {}
#: per byte value, the positions of its set bits (lowest first): masks are read a byte at a time
_BYTE_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b for b in range(8) if (byte >> b) & 1) for byte in range(256)
)
_GEOMETRY: dict[int, tuple[Board, Geometry]] = {}


class OriginUnion:
    """A per-origin table of masks (:meth:`Geometry.sight_table`) ORed over a set of origins.

    The origins are read a board row at a time and each row's union is kept by (row, the row's
    origins): it depends on the table alone, so it never goes stale. A walk changes whenever a piece
    moves in its MP ring, but its rows recur: an enemy's walk of a dozen to forty origins costs a
    handful of lookups instead of one OR per origin.
    """

    __slots__ = ("table", "_width", "_row", "_rows")

    def __init__(self, table: list[int] | tuple[int, ...], width: int) -> None:
        self.table = table
        self._width = width
        self._row = (1 << width) - 1
        self._rows: dict[int, int] = {}

    def union(self, origins: int) -> int:
        """The OR of ``table[o]`` over the cells ``o`` of the mask ``origins``."""
        if not origins:
            return 0
        width, row, rows = self._width, self._row, self._rows
        y = ((origins & -origins).bit_length() - 1) // width
        rest = origins >> (y * width)
        mask = 0
        while rest:
            pattern = rest & row
            if pattern:
                key = (y << width) | pattern
                part = rows.get(key)
                if part is None:
                    table = self.table
                    base = y * width
                    part = 0
                    while pattern:
                        low = pattern & -pattern
                        part |= table[base + low.bit_length() - 1]
                        pattern ^= low
                    rows[key] = part
                mask |= part
            rest >>= width
            y += 1
        return mask


class Geometry:
    """Range masks of one board, built lazily and kept for the board's lifetime.

    ``spell_table`` gives, per spell shape, the list of masks indexed by origin cell, so a hot loop
    reads ``table[cell]`` instead of calling back in here.
    """

    __slots__ = (
        "board",
        "_ranges",
        "_lines",
        "_tables",
        "_width",
        "full",
        "_not_left",
        "_not_right",
        "_nearest",
        "_visible",
        "_sight_tables",
        "_unions",
        "_between",
    )

    def __init__(self, board: Board) -> None:
        self.board = board
        self._ranges: dict[tuple[int, int, int], int] = {}
        self._lines: list[int] = []
        self._tables: dict[tuple[str, int, int], list[int] | tuple[int, ...]] = {}
        self._nearest: dict[int, list[int]] = {}
        self._visible: list[int] = []
        self._sight_tables: dict[tuple[str, int, int, bool], list[int] | tuple[int, ...]] = {}
        self._unions: dict[tuple[str, int, int, bool], OriginUnion] = {}
        self._between: dict[int, list[int]] = {}
        width, height = board.width, board.height
        self._width = width
        self.full = (1 << board.n_cells) - 1
        left = sum(1 << (y * width) for y in range(height))
        self._not_left = self.full & ~left
        self._not_right = self.full & ~(left << (width - 1))
        for cell in range(board.n_cells):
            x, y = cell % width, cell // width
            mask = 0
            for xx in range(width):
                mask |= 1 << (y * width + xx)
            for yy in range(height):
                mask |= 1 << (yy * width + x)
            self._lines.append(mask)

    def ring_mask(self, cell: int, lo: int, hi: int) -> int:
        """Cells at distance lo..hi from ``cell`` (R-A6)."""
        key = (cell, lo, hi)
        mask = self._ranges.get(key)
        if mask is None:
            rings = self.board.rings[cell]
            mask = 0
            for d in range(max(0, lo), min(hi, len(rings) - 1) + 1):
                for c in rings[d]:
                    mask |= 1 << c
            self._ranges[key] = mask
        return mask

    def line_mask(self, cell: int) -> int:
        """Cells in the same row or column (R-A74)."""
        return self._lines[cell]

    def nearest(self, cells: int) -> list[int]:
        """Per cell, the distance to the nearest cell of the (non-empty) mask ``cells``; the last
        few masks asked are kept."""
        table = self._nearest.get(cells)
        if table is None:
            if len(self._nearest) > 32:
                self._nearest.clear()
            rows = [self.board.distance[c] for c in iter_bits(cells)]
            table = list(rows[0])
            for row in rows[1:]:  # a native loop once compiled (zip(*rows) builds a tuple per cell)
                for i, d in enumerate(row):
                    if d < table[i]:
                        table[i] = d
            self._nearest[cells] = table
        return table

    def walk_mask(self, start: int, mp: int, obstacles: int) -> int:
        """Cells a fighter on ``start`` can walk to with ``mp`` MP around ``obstacles`` (the set of
        ``MatchView.reachable_cells``, as a mask: orthogonal steps, flood-filled by bit shifts)."""
        width, full = self._width, self.full
        not_left, not_right = self._not_left, self._not_right
        reached = frontier = 1 << start
        free = full & ~obstacles
        for _ in range(mp):
            frontier = (
                (
                    ((frontier & not_right) << 1)
                    | ((frontier & not_left) >> 1)
                    | (frontier << width)
                    | (frontier >> width)
                )
                & free
                & ~reached
            )
            if not frontier:
                break
            reached |= frontier
        return reached

    def dilate(self, mask: int, steps: int) -> int:
        """Cells within ``steps`` of some cell of ``mask`` (obstacles ignored, like range, R-A6)."""
        width, full = self._width, self.full
        not_left, not_right = self._not_left, self._not_right
        for _ in range(steps):
            mask |= (
                ((mask & not_right) << 1) | ((mask & not_left) >> 1) | (mask << width) | (mask >> width)
            ) & full
        return mask

    def reach_union(self, cells: int, spell: SpellSpec) -> int:
        """Cells ``spell`` reaches from some cell of ``cells`` (a connected set, such as a walk), by
        range and line alone.

        Along a path the distance to a fixed cell changes by one per step, so over a connected set
        it takes every value between its minimum and maximum: a cell is in reach when the nearest
        origin is within the max range and the farthest at least at the min range."""
        kind = spell.range_type
        if kind == "line":
            table = self.spell_table(spell)
            mask = 0
            while cells:
                low = cells & -cells
                mask |= table[low.bit_length() - 1]
                cells ^= low
            return mask
        if kind == "personal":
            lo = hi = 0
        elif kind == "melee":
            lo = hi = 1
        else:
            lo, hi = spell.range_min, spell.range_max
        mask = self.dilate(cells, hi)
        if lo > 0:
            inner = self.full
            rest = cells
            while rest and inner:
                low = rest & -rest
                inner &= self.ring_mask(low.bit_length() - 1, 0, lo - 1)
                rest ^= low
            mask &= ~inner
        return mask

    def spell_table(self, spell: SpellSpec, bonus: int = 0) -> list[int] | tuple[int, ...]:
        """Per origin cell, the cells a spell reaches by range and line alone (``spell_mask`` of
        every cell at once), shared by every spell of the same shape."""
        kind = spell.range_type
        if kind == "personal" or kind == "melee":
            key = (kind, 0, 0)
        else:
            extendable = not spell.fixed_range and spell.needs_los
            key = (kind, spell.range_min, spell.range_max + (bonus if extendable else 0))
        table = self._tables.get(key)
        if table is None:
            n = self.board.n_cells
            if kind == "personal":
                table = [1 << c for c in range(n)]
            elif kind == "melee":
                table = self.board.neighbour_mask
            else:
                table = [self.ring_mask(c, key[1], key[2]) for c in range(n)]
                if kind == "line":
                    table = [m & self._lines[c] for c, m in enumerate(table)]
            self._tables[key] = table
        return table

    def between(self, origin: int, target: int) -> list[int]:
        """The cells strictly between ``origin`` and ``target`` on the line of sight (the bits of
        ``board.los_path[origin][target]``), lowest first; kept per pair (the last few thousand)."""
        key = origin * self.board.n_cells + target
        cells = self._between.get(key)
        if cells is None:
            if len(self._between) > 8192:
                self._between.clear()
            cells = self._between[key] = iter_bits(self.board.los_path[origin][target])
        return cells

    def visible(self, cell: int) -> int:
        """Cells seen from ``cell`` past the trees of the board (characters and cut trees aside,
        R-A78); the per-origin table is built once per board."""
        if not self._visible:
            board = self.board
            trees = board.trees
            n = board.n_cells
            table = []
            for origin in range(n):
                paths = board.los_path[origin]
                mask = 0
                for target in range(n):
                    if not paths[target] & trees:
                        mask |= 1 << target
                table.append(mask)
            self._visible = table
        return self._visible[cell]

    def sight_table(self, spell: SpellSpec, bonus: int = 0) -> list[int] | tuple[int, ...]:
        """:meth:`spell_table` restricted to the cells each origin sees past the trees (for spells
        that need line of sight)."""
        if not spell.needs_los:
            return self.spell_table(spell, bonus)
        kind = spell.range_type
        extendable = not spell.fixed_range
        key = (kind, spell.range_min, spell.range_max + (bonus if extendable else 0), True)
        table = self._sight_tables.get(key)
        if table is None:
            base = self.spell_table(spell, bonus)
            self.visible(0)
            visible = self._visible
            table = self._sight_tables[key] = [m & visible[c] for c, m in enumerate(base)]
        return table

    def sight_union(self, spell: SpellSpec, bonus: int = 0) -> OriginUnion:
        """:meth:`sight_table` as an :class:`OriginUnion` (the cells the spell reaches from some cell of a
        set of origins), kept per table: by the key :meth:`sight_table` or :meth:`spell_table` files
        the table under."""
        kind = spell.range_type
        if spell.needs_los:
            hi = spell.range_max + (0 if spell.fixed_range else bonus)
            key = (kind, spell.range_min, hi, True)
        elif kind == "personal" or kind == "melee":
            key = (kind, 0, 0, False)
        else:
            key = (kind, spell.range_min, spell.range_max, False)
        union = self._unions.get(key)
        if union is None:
            union = self._unions[key] = OriginUnion(self.sight_table(spell, bonus), self._width)
        return union

    def spell_mask(self, cell: int, spell: SpellSpec, bonus: int = 0) -> int:
        """Cells a spell cast from ``cell`` reaches by range and line alone (no line of sight)."""
        return self.spell_table(spell, bonus)[cell]


def geometry(board: Board) -> Geometry:
    """The cached :class:`Geometry` of a board."""
    entry = _GEOMETRY.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_GEOMETRY) > 64:
            _GEOMETRY.clear()
        entry = (board, Geometry(board))
        _GEOMETRY[id(board)] = entry
    return entry[1]


def iter_bits(mask: int) -> list[int]:
    """The cells of a (non-negative) mask, lowest first."""
    cells: list[int] = []
    if mask < 1 << 62:  # a machine word once compiled: peel the bits off
        while mask:
            low = mask & -mask
            cells.append(low.bit_length() - 1)
            mask ^= low
        return cells
    # a board-wide mask is a long integer: read it a byte at a time rather than shift it per bit
    base = 0
    for byte in mask.to_bytes((mask.bit_length() + 7) // 8, "little"):
        if byte:
            for bit in _BYTE_BITS[byte]:
                cells.append(base + bit)
        base += 8
    return cells


# ------------------------------------------------------------------------------------------ dice
def hit_odds(base: int, crit_dice: int, armour_dice: int, resist: int, remaining: int) -> tuple[float, float]:
    """Expected injuries (capped at ``remaining``) and chance they reach ``remaining`` for one hit of
    ``base`` damage with these dice (R-A60-R-A62, R-A102)."""
    key = (base, crit_dice, armour_dice, resist, remaining)
    cached = _HIT_CACHE.get(key)
    if cached is not None:
        return cached
    expected = kill = 0.0
    crits = _CRIT[max(0, min(2, crit_dice))]
    armours = _ARMOUR[max(0, min(2, armour_dice))] if base > 0 or crit_dice > 0 else (1.0,)
    for c, pc in enumerate(crits):
        raw = base + c
        for a, pa in enumerate(armours if raw > 0 else (1.0,)):
            damage = min(max(0, raw - a - resist), remaining)
            p = pc * pa
            expected += p * damage
            if damage >= remaining > 0:
                kill += p
    _HIT_CACHE[key] = (expected, kill)
    return expected, kill


def spell_bonus(
    view: MatchView, caster: FighterView, spell: SpellSpec, target_cell: int, extra: int = 0
) -> int:
    """Damage added by the caster's summons adjacent to the target and elemental bonuses (R-A80,
    R-A96). ``extra`` counts summons the caller plans to place next to the target."""
    bonus = 0
    for effect in spell.effects:
        if effect.kind == "bonus_per_adjacent_summon":
            near = view.board.neighbour_mask[target_cell]
            count = extra
            for token in view.summons_of(caster):
                if token.character == effect.params["summon"] and (near >> token.cell) & 1:
                    count += 1
            bonus += effect.params["damage"] * count
        elif effect.kind == "element_bonus" and spell.element == effect.params["element"]:
            bonus += effect.params["amount"]
    return bonus


def attack_odds(
    view: MatchView,
    caster: FighterView,
    spell: SpellSpec,
    target: FighterView,
    remaining: int | None = None,
    extra_summons: int = 0,
) -> tuple[float, float]:
    """Expected injuries and KO chance of ``spell`` on ``target`` (a heal gives the expected heal and
    0). ``remaining`` overrides the target's HP left (for a second hit in the same plan)."""
    left = target.remaining_hp if remaining is None else remaining
    if left <= 0:
        return 0.0, 0.0
    crit = 1 if spell.element == "neutral" else (2 if caster.has("critical") else 1)
    base = spell.amount + spell_bonus(view, caster, spell, target.cell, extra_summons)
    if spell.kind == "heal":
        expected, _ = hit_odds(base, crit, 0, 0, target.injuries)
        return expected, 0.0
    if spell.element != "neutral" and target.immune_to(spell.element):
        return 0.0, 0.0
    armour = 2 if target.has("armour") else 1
    if target.kind == "bomb":
        armour = 1
    if any(e.kind == "pierce_armour" for e in spell.effects):
        armour -= 1
    resist = 1 if spell.element != "neutral" and target.resists(spell.element) else 0
    return hit_odds(base, crit, max(0, armour), resist, left)


# ------------------------------------------------------------------------------------------ value
def gg_worth(gg: int) -> float:
    """What holding ``gg`` GG is worth, in GG: each GG counts 1 plus ``GG_PREMIUM / i`` for the i-th,
    so a GG near zero (the one that decides the match) weighs more than one in a full stock."""
    value = _GG_WORTH.get(gg)
    if value is None:
        value = _GG_WORTH[gg] = gg + GG_PREMIUM * sum(1.0 / i for i in range(1, gg + 1))
    return value


#: the partnerships of a two-player match (the default of the score functions below)
TWO_PLAYERS: tuple[int, ...] = (0, 1)


def rival(gg: tuple[int, ...], team_of: tuple[int, ...], side: int) -> int:
    """The opposing seat ``side`` fears most: the other player with two players; with four, the
    opponent holding the most GG (ties to the lower seat)."""
    if len(gg) == 2:
        return 1 - side
    team = team_of[side]
    return max((s for s in range(len(gg)) if team_of[s] != team), key=lambda s: (gg[s], -s))


def score_after(
    gg: tuple[int, ...],
    wild: int,
    gainer: int,
    amount: int,
    source: int = -1,
    team_of: tuple[int, ...] = TWO_PLAYERS,
) -> tuple[tuple[int, ...], int]:
    """The score after ``gainer`` gains ``amount`` GG: the wild GG first, then from ``source`` (the
    opponent with two players; with four, the KO'd piece's player, or by default ``rival``), who
    never goes below 0 (R-A129, R-A155)."""
    if amount <= 0:
        return gg, wild
    from_wild = min(1 if wild > 0 else 0, amount)
    loser = source if source >= 0 else (1 - gainer if len(gg) == 2 else rival(gg, team_of, gainer))
    taken = min(amount - from_wild, gg[loser])
    new = list(gg)
    new[gainer] += from_wild + taken
    new[loser] -= taken
    return tuple(new), wild - from_wild


def score_value(gg: tuple[int, ...], wild: int, side: int, team_of: tuple[int, ...] = TWO_PLAYERS) -> float:
    """The score seen by ``side``, in GG: ``WIN_VALUE`` / ``-WIN_VALUE`` once the wild GG is gone and
    only one side holds GG (R-A132), else the difference of :func:`gg_worth`. With four players the
    sides are partnerships (R-A158): its own GG against those of the strongest other partnership."""
    if len(gg) == 2:
        mine, theirs = gg[side], gg[1 - side]
    else:
        totals: dict[int, int] = {}
        for seat, held in enumerate(gg):
            totals[team_of[seat]] = totals.get(team_of[seat], 0) + held
        mine = totals.pop(team_of[side])
        theirs = max(totals.values())
    if wild == 0:
        if theirs <= 0 < mine:
            return WIN_VALUE
        if mine <= 0 < theirs:
            return -WIN_VALUE
    return gg_worth(mine) - gg_worth(theirs)


def score_swing(
    gg: tuple[int, ...],
    wild: int,
    gainer: int,
    amount: int,
    source: int = -1,
    team_of: tuple[int, ...] = TWO_PLAYERS,
) -> float:
    """What ``gainer`` gaining ``amount`` GG (from ``source``, see :func:`score_after`) is worth to it
    at this score, in GG (``WIN_VALUE`` when it wins the match)."""
    if amount <= 0:
        return 0.0
    after, wild_after = score_after(gg, wild, gainer, amount, source, team_of)
    value = score_value(after, wild_after, gainer, team_of)
    if value >= WIN_VALUE:
        return WIN_VALUE
    return value - score_value(gg, wild, gainer, team_of)


def gg_swing(view: MatchView, gainer: int, amount: int) -> float:
    """:func:`score_swing` at the view's score (R-A129, R-A132)."""
    arena = arena_view(view)
    return score_swing(arena.gg, arena.wild_gg, gainer, amount, -1, view.team_of)


def ko_gainer(view: MatchView, target: FighterView, gg: tuple[int, ...]) -> int:
    """Who gains the GG of ``target``'s KO, as this side sees it: with two players its opponent; with
    four, this side when the target is an enemy, else the rival of the target's player (R-A155)."""
    if len(gg) == 2:
        return 1 - target.side
    if target.team != view.team:
        return view.side
    return rival(gg, view.team_of, target.side)


def kill_value(view: MatchView, target: FighterView, gg: tuple[int, ...] | None = None) -> float:
    """Worth of KO-ing ``target`` for its opponent, in injury units: the GG swing of its level for a
    Krosmaster (R-A10) at the view's score (or at ``gg``), a small fixed worth for summons (they
    carry bonuses and block)."""
    if target.is_krosmaster:
        arena = arena_view(view)
        score = arena.gg if gg is None else gg
        if len(score) == 2:
            return GG_UNIT * score_swing(score, arena.wild_gg, 1 - target.side, target.level)
        gainer = ko_gainer(view, target, score)
        return GG_UNIT * score_swing(score, arena.wild_gg, gainer, target.level, target.side, view.team_of)
    return SUMMON_WORTH.get(target.character, 0.5)


#: worth of a summon token in play, in injury units (creatures give no GG, R-A110)
SUMMON_WORTH: dict[str, float] = {"tofu": 0.8, "gobball": 2.0, "water_bomb": 0.0}


def explosion_value(view: MatchView, cell: int, side: int, minus: int = -1) -> float:
    """What a Water Bomb exploding on ``cell`` is worth to ``side``: about one injury and a -1 AP
    marker to each character in the 8 cells around (R-A114), enemies counting for, allies against.
    ``minus`` is a cell left out (the bomber's own cell when it will have moved)."""
    value = 0.0
    for c in iter_bits(view.board.square_mask[cell]):
        if c == minus:
            continue
        piece = view.piece_at(c)
        if piece is None or not piece.is_character:
            continue
        armour = 2 if piece.has("armour") else 1
        hurt, ko = hit_odds(1, 1, armour, 0, piece.remaining_hp)
        worth = hurt + 0.3 + ko * kill_value(view, piece)
        value += worth if piece.team != view.team_of[side] else -worth
    return value


# ------------------------------------------------------------------------------------------ threat
def average_hit(spell: SpellSpec, critical: bool) -> float:
    """Expected injuries of one hit on a plain 1-Armour-die target (no bonus)."""
    crit = 1 if spell.element == "neutral" else (2 if critical else 1)
    pierce = any(e.kind == "pierce_armour" for e in spell.effects)
    return hit_odds(spell.amount, crit, 0 if pierce else 1, 0, 99)[0]


def enemies_of(view: MatchView, side: int) -> list[FighterView]:
    """The characters on the board of every partnership but ``side``'s (the other seat's, with two
    players), in uid order."""
    if view.n_seats == 2:
        return [enemy for enemy in view.fighters(1 - side) if enemy.is_character]
    team = view.team_of[side]
    return [enemy for enemy in view.fighters() if enemy.team != team and enemy.is_character]


def threat_map(view: MatchView, side: int, cache: ThreatCache | None = None) -> list[float]:
    """Per cell: injuries the enemies of ``side`` could deal next turn to a piece of ``side`` there.

    Each enemy character walks up to its printed MP (ignoring Lock) and casts its best attack on the
    cell as many times as its AP pays, from a cell that sees it past the trees (R-A78; characters,
    who move, are not counted as cover); a range bonus spell (Distant Shot: +3 for 1 AP and its MP)
    and crates (+1, R-A121) stretch the range. The enemies' threats add up (they may all focus one
    piece).

    ``cache`` (owned by the caller, for one match) keeps each enemy's share by what it depends on
    (:data:`EnemyKey`), so a map recomputed after one enemy moved redoes only that enemy, and whole
    maps by the keys of all the enemies, so a map asked again (a new turn, an injury) costs only its
    keys. The map returned may be shared: read it, never change it.
    """
    board = view.board
    geo = geometry(board)
    obstacles = view.obstacles
    enemies = enemies_of(view, side)
    if cache is None:
        shares = [
            _enemy_threat(view, geo, enemy, obstacles, _once_per_game_ready(enemy)) for enemy in enemies
        ]
        return _sum_threats(board.n_cells, geo.full, shares)
    keys = _enemy_keys(view, geo, enemies)
    total = cache.maps.get(keys)
    if total is None:
        shares = _shares(view, geo, enemies, keys, cache)
        if len(cache.maps) > 1024:
            cache.maps.clear()
        total = cache.maps[keys] = _sum_threats(board.n_cells, geo.full, shares)
    return total


def threat_lookup(view: MatchView, side: int, cache: ThreatCache) -> ThreatMap:
    """:func:`threat_map` as a :class:`ThreatMap`, worked out cell by cell as it is read; kept in
    ``cache`` by the enemies' keys like the whole maps."""
    geo = geometry(view.board)
    enemies = enemies_of(view, side)
    keys = _enemy_keys(view, geo, enemies)
    lookup = cache.lookups.get(keys)
    if lookup is None:
        if len(cache.lookups) > 1024:
            cache.lookups.clear()
        lookup = cache.lookups[keys] = ThreatMap(view.board.n_cells, _shares(view, geo, enemies, keys, cache))
    return lookup


def _enemy_keys(view: MatchView, geo: Geometry, enemies: list[FighterView]) -> tuple[EnemyKey, ...]:
    """Each enemy's :data:`EnemyKey`, in the view's order."""
    obstacles, crates = view.obstacles, view.crates
    keys = []
    for enemy in enemies:
        ring = geo.ring_mask(enemy.cell, 0, enemy.base_mp)
        keys.append(
            (
                enemy.uid,
                enemy.cell,
                enemy.base_mp,
                enemy.base_ap,
                enemy.has("critical"),
                obstacles & ring,
                _once_per_game_ready(enemy),
                crates & ring,
            )
        )
    return tuple(keys)


def _shares(
    view: MatchView, geo: Geometry, enemies: list[FighterView], keys: tuple[EnemyKey, ...], cache: ThreatCache
) -> list[list[tuple[int, float]]]:
    """Each enemy's share of the threat as (cells, injuries) layers, kept in ``cache`` by its key."""
    layers = cache.layers
    obstacles = view.obstacles
    shares = []
    for index, enemy in enumerate(enemies):
        key = keys[index]
        share = layers.get(key)
        if share is None:
            if len(layers) > 4096:
                layers.clear()
            share = layers[key] = _enemy_threat(view, geo, enemy, obstacles, key[6])
        shares.append(share)
    return shares


def _sum_threats(n_cells: int, full: int, shares: list[list[tuple[int, float]]]) -> list[float]:
    """Per cell, the enemies' shares added up (in the view's order of the enemies)."""
    # cells grouped by the threat summed so far, enemy by enemy (so every cell adds up its enemies'
    # shares in the same order as a per-cell sum would)
    parts: list[tuple[int, float]] = [(full, 0.0)]
    for layers in shares:
        if not layers:
            continue
        split = []
        for part, value in parts:
            rest = part
            for layer, worth in layers:
                both = part & layer
                if both:
                    split.append((both, value + worth))
                    rest &= ~layer
            if rest:
                split.append((rest, value))
        parts = split
    total = [0.0] * n_cells
    for part, value in parts:
        if value:
            for c in iter_bits(part):
                total[c] = value
    return total


def _enemy_threat(
    view: MatchView, geo: Geometry, enemy: FighterView, obstacles: int, ready: tuple[str, ...]
) -> list[tuple[int, float]]:
    """One enemy's share of :func:`threat_map` as disjoint (cells, injuries) layers, best first
    (``ready``: its :func:`_once_per_game_ready` attacks)."""
    options = _attack_options(enemy.spells, enemy.base_ap, enemy.has("critical"))
    if ready:
        options = sorted(options + _once_options(enemy, ready), key=lambda o: -o[0])
    if not options:
        return []
    walk = geo.walk_mask(enemy.cell, enemy.base_mp, obstacles)
    perched = walk & view.crates  # a crate under the caster: +1 range (R-A121)
    ground = walk & ~perched
    layers = []
    covered = 0
    for worth, spell, bonus in options:
        mask = geo.sight_union(spell, bonus).union(ground)
        if perched:
            mask |= geo.sight_union(spell, bonus + 1).union(perched)
        fresh = mask & ~covered
        covered |= mask
        if fresh:
            layers.append((fresh, worth))
    return layers


def _once_per_game_ready(enemy: FighterView) -> tuple[str, ...]:
    """The once-per-game attacks the enemy has not used yet (they threaten once, R-A66)."""
    return tuple(
        s.id
        for s in enemy.spells
        if s.kind == "attack" and s.limit == "game" and s.ap_cost and not enemy.spell_used(s)
    )


def _once_options(enemy: FighterView, ready: tuple[str, ...]) -> list[tuple[float, SpellSpec, int]]:
    """Threat options of an unused once-per-game attack: it once, then the best repeatable attack
    with the AP left (Puff, then Irritating Sting)."""
    critical = enemy.has("critical")
    plain = _attack_options(enemy.spells, enemy.base_ap, critical)
    out = []
    for spell in enemy.spells:
        if spell.id not in ready or spell.ap_cost > enemy.base_ap:
            continue
        worth = average_hit(spell, critical)
        rest = enemy.base_ap - spell.ap_cost
        follow = [o for o in plain if o[2] == 0]
        if follow:
            _, best, _ = follow[0]
            worth += average_hit(best, critical) * min(
                rest // best.ap_cost, 1 if best.limit == "turn" else rest // best.ap_cost
            )
        out.append((worth, spell, 0))
    return out


_ATTACKS: dict[tuple[int, int, bool], tuple[object, list[tuple[float, SpellSpec, int]]]] = {}


def _attack_options(
    spells: Sequence[SpellSpec], base_ap: int, critical: bool
) -> list[tuple[float, SpellSpec, int]]:
    """(injuries per turn, spell, range bonus) of the attacks an enemy may make next turn, best first:
    each attack repeated as often as the AP pays, and again after a range-bonus spell (Distant Shot)
    with the AP that is left. Kept per spell list (held, so its id stays its own)."""
    key = (id(spells), base_ap, critical)
    entry = _ATTACKS.get(key)
    if entry is not None and entry[0] is spells:
        return entry[1]
    bonuses = [(0, 0)]
    for spell in spells:
        for effect in spell.effects:
            if effect.kind == "range_bonus_this_turn" and spell.ap_cost < base_ap:
                bonuses.append((int(effect.params["amount"]), spell.ap_cost))
    options = []
    for spell in spells:
        if spell.kind != "attack" or spell.ap_cost > base_ap or spell.limit == "game":
            continue
        if spell.ap_cost == 0:
            continue
        hit = average_hit(spell, critical)
        for bonus, cost in bonuses:
            if bonus and (
                spell.fixed_range or not spell.needs_los or spell.range_type in ("melee", "personal")
            ):
                continue
            casts = (base_ap - cost) // spell.ap_cost
            if spell.limit == "turn":
                casts = min(casts, 1)
            if hit * casts > 0.05:
                options.append((hit * casts, spell, bonus))
    options.sort(key=lambda a: -a[0])
    if len(_ATTACKS) > 256:
        _ATTACKS.clear()
    _ATTACKS[key] = (spells, options)
    return options


def block_chance(view: MatchView, mover: FighterView, cell: int) -> float:
    """Chance that ``mover`` gets blocked when it walks off ``cell`` (R-A16, R-A45, R-A47)."""
    if mover.has("tiny"):
        return 0.0
    dodge = 2 if mover.has("dodge") else 1
    free = 1.0
    for c in view.board.neighbours[cell]:
        piece = view.piece_at(c)
        if piece is None or piece.team == mover.team or not piece.is_character or piece.has("tiny"):
            continue
        free *= 1.0 - BLOCK_CHANCE[2 if piece.has("lock") else 1][dodge]
    return 1.0 - free


def ko_risk(threat: float, remaining: int) -> float:
    """A rough chance of being KO'd next turn when ``threat`` injuries may come at ``remaining`` HP."""
    if remaining <= 0:
        return 1.0
    return max(0.0, min(1.0, (threat - remaining + 1.5) / 3.0))


def sight_blockers(view: MatchView) -> int:
    """Trees plus non-Tiny characters: what blocks line of sight now (R-A78)."""
    mask = view.board.trees
    for piece in view.fighters():
        if piece.is_character and not piece.has("tiny"):
            mask |= 1 << piece.cell
    return mask


def obstacles(view: MatchView) -> int:
    """Trees, bushes and every piece on the board: the cells nothing may enter (R-A7)."""
    mask = view.board.trees | view.board.bushes
    for piece in view.fighters():
        mask |= 1 << piece.cell
    return mask


def nearest_distance(board: Board, cell: int, cells: list[int]) -> int:
    """Distance from ``cell`` to the nearest of ``cells`` (a large number when there are none)."""
    row = board.distance[cell]
    return min((row[c] for c in cells), default=99)
