"""Reusable evaluation pieces for the heuristic AIs, all read from a ``MatchView``.

Everything here is plain ints, bitmasks and small dicts so it can run many times per decision:

- :class:`Geometry`: range masks per board (cells at distance lo..hi, optionally in line), cached.
- :func:`hit_odds`: the exact expected injuries and KO chance of one attack, from the dice odds
  (R-A15, R-A60-R-A62), cached by its few integer inputs.
- :func:`kill_value`: what a KO is worth, as a GG swing (R-A10, R-A129, R-A132).
- :func:`threat_map`: per cell, the injuries the enemy could deal next turn to a piece standing there
  (each enemy walks its MP then casts its best attack as often as its AP allows; line of sight is
  ignored, which overstates ranged threat and is the safe side for a kiter).
- :func:`explosion_value`: what a Water Bomb going off on a cell is worth to one side (R-A114).
- :func:`block_chance`: the chance that walking off a cell gets a fighter blocked (R-A16, R-A45).

Values are in "injury units": one expected injury dealt is worth 1, and one GG of swing is worth
``GG_UNIT`` injuries (a box Krosmaster of about 10 HP is worth 3 GG to the killer and 3 to its owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.view import BLOCK_CHANCE

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import FighterView, MatchView

#: injuries' worth of one GG of swing (10 HP ~ a KO ~ 6 GG of swing ~ 10-12 injuries)
GG_UNIT = 2.0
#: what winning the match on the spot is worth
WIN_VALUE = 1000.0

# Success distributions: Critical 1/2 per die, Armour 1/3 per die (R-A15).
_CRIT = ((1.0,), (0.5, 0.5), (0.25, 0.5, 0.25))
_ARMOUR = ((1.0,), (2 / 3, 1 / 3), (4 / 9, 4 / 9, 1 / 9))

_HIT_CACHE: dict[tuple[int, int, int, int, int], tuple[float, float]] = {}
_GEOMETRY: dict[int, tuple[Board, Geometry]] = {}


class Geometry:
    """Range masks of one board, built lazily and kept for the board's lifetime."""

    __slots__ = ("board", "_ranges", "_lines")

    def __init__(self, board: Board) -> None:
        self.board = board
        self._ranges: dict[tuple[int, int, int], int] = {}
        self._lines: list[int] = []
        width, height = board.width, board.height
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

    def spell_mask(self, cell: int, spell: SpellSpec, bonus: int = 0) -> int:
        """Cells a spell cast from ``cell`` reaches by range and line alone (no line of sight)."""
        kind = spell.range_type
        if kind == "personal":
            return 1 << cell
        if kind == "melee":
            return self.board.neighbour_mask[cell]
        extendable = not spell.fixed_range and spell.needs_los
        mask = self.ring_mask(cell, spell.range_min, spell.range_max + (bonus if extendable else 0))
        if kind == "line":
            mask &= self._lines[cell]
        return mask


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
    """The cells of a mask, lowest first."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
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
def gg_swing(view: MatchView, gainer: int, amount: int) -> float:
    """GG swing (gainer's gain plus the loser's loss) of ``gainer`` gaining ``amount`` GG, or
    ``WIN_VALUE`` when that wins the match (R-A129, R-A132)."""
    if amount <= 0:
        return 0.0
    wild = 1 if view.wild_gg > 0 else 0
    from_wild = min(wild, amount)
    loser = 1 - gainer
    taken = min(amount - from_wild, view.gg[loser])
    left = view.gg[loser] - taken
    if left <= 0 and view.gg[gainer] + amount > 0 and (wild == 0 or from_wild == wild):
        return WIN_VALUE
    return float(amount + taken)


def kill_value(view: MatchView, target: FighterView) -> float:
    """Worth of KO-ing ``target`` for its opponent, in injury units: the GG swing of its level for a
    Krosmaster (R-A10), a small fixed worth for summons (they carry bonuses and block)."""
    if target.is_krosmaster:
        return GG_UNIT * gg_swing(view, 1 - target.side, target.level)
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
        value += worth if piece.side != side else -worth
    return value


# ------------------------------------------------------------------------------------------ threat
def average_hit(spell: SpellSpec, critical: bool) -> float:
    """Expected injuries of one hit on a plain 1-Armour-die target (no bonus)."""
    crit = 1 if spell.element == "neutral" else (2 if critical else 1)
    pierce = any(e.kind == "pierce_armour" for e in spell.effects)
    return hit_odds(spell.amount, crit, 0 if pierce else 1, 0, 99)[0]


def threat_map(view: MatchView, side: int) -> list[float]:
    """Per cell: injuries the enemies of ``side`` could deal next turn to a piece of ``side`` there.

    Each enemy character walks up to its printed MP (ignoring Lock) and casts its best attack on the
    cell as many times as its AP pays; the enemies' threats add up (they may all focus one piece).
    Line of sight is ignored.
    """
    board = view.board
    geo = geometry(board)
    n = board.n_cells
    total = [0.0] * n
    for enemy in view.fighters(1 - side):
        if not enemy.is_character:
            continue
        attacks = []
        for spell in enemy.spells:
            if spell.kind != "attack" or spell.ap_cost > enemy.base_ap or spell.limit == "game":
                continue
            if spell.ap_cost == 0:
                continue
            hit = average_hit(spell, enemy.has("critical"))
            casts = enemy.base_ap // spell.ap_cost
            if spell.limit == "turn":
                casts = min(casts, 1)
            if hit * casts > 0.05:
                attacks.append((hit * casts, spell))
        if not attacks:
            continue
        attacks.sort(key=lambda a: -a[0])
        reach = view.reachable_cells(enemy, enemy.base_mp)
        best = [0.0] * n
        covered = 0
        for worth, spell in attacks:
            mask = 0
            for cell in reach:
                mask |= geo.spell_mask(cell, spell)
            fresh = mask & ~covered
            covered |= mask
            for c in iter_bits(fresh):
                best[c] = worth
        for c in iter_bits(covered):
            total[c] += best[c]
    return total


def block_chance(view: MatchView, mover: FighterView, cell: int) -> float:
    """Chance that ``mover`` gets blocked when it walks off ``cell`` (R-A16, R-A45, R-A47)."""
    if mover.has("tiny"):
        return 0.0
    dodge = 2 if mover.has("dodge") else 1
    free = 1.0
    for c in view.board.neighbours[cell]:
        piece = view.piece_at(c)
        if piece is None or piece.side == mover.side or not piece.is_character or piece.has("tiny"):
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
