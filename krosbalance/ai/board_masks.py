"""Board geometry for the heuristic AIs: range, walk and sight masks per board, cached.

Everything is plain ints and bitmasks over a board's cells so the planner can ask it many times per
decision: :class:`Geometry` keeps, per board, the cells at distance lo..hi (optionally in line),
walks within an MP budget and what each cell sees; :func:`iter_bits` reads a mask's cells; and the
view's obstacles and sight blockers are gathered as masks (R-A7, R-A78).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from krosbalance.board.board import Board
    from krosbalance.content.specs import SpellSpec
    from krosbalance.engine.view import MatchView

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
