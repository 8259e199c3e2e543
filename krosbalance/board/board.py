"""The :class:`Board`: static scenery plus every geometry table, precomputed once.

A board is built once (from an ASCII grid or a TOML file) and then only read. All tables the engine
queries in its hot paths (distances, neighbours, rings, line of sight) are plain lists/tuples of ints
so a query is one index, and a line-of-sight test is one AND against a precomputed mask (STYLE.md).
Pieces that move (characters, bombs, summons) are *not* here: the engine keeps their occupancy as its
own bitmask and passes ``trees | character_blockers`` to :meth:`Board.has_los`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ContentError
from .ascii import MAX_ZONES, Glyph, Layers, parse_grid, render_grid
from .geometry import (
    distance_table,
    dominant_direction,
    iter_cells,
    neighbour_tables,
    ring_table,
    square_masks,
)
from .los import los_tables


class LayoutError(ValueError):
    """An inconsistent set of layers (two things on one cell that cannot share it).

    Carries ``field`` and ``reason`` so that loaders can re-raise it as a located ``ContentError``.
    """

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


class Board:
    """A Krosmaster board: size, static scenery, special cells and precomputed geometry.

    Attributes:
        id, name, source: identity and provenance (``source`` says which parts are assumed).
        width, height, n_cells: size; cells are ``y * width + x``, row 0 at the top.
        trees, bushes, crates: static scenery masks. Trees and bushes are obstacles (R-A7); only trees
            block LOS (R-A119-R-A121); a crate cell is free.
        demon_cells: mask of Demon cells (shop cells, R-A50); the engine puts 1 kama on each (R-A22).
        kama_cells: cell -> kama tokens printed there (1 or 2); Demon cells are not included.
        deploy: one deployment mask per start zone (R-A25, R-A156), :attr:`n_zones` of them (2 to
            :data:`MAX_ZONES`): zone 0 the bottom rows, zone 1 the top rows (the two sides of a
            two-player match), and on four-player boards zone 2 on the left columns and zone 3 on
            the right columns. Zones never share a cell. Two-player rulesets read only
            ``deploy[0]`` and ``deploy[1]``.
        features: extra named masks for later rulesets (glyph, duel, window, machine ...).
        rulesets: the rulesets the board is made for (Arena boards: ``("arena",)``).
        distance: ``distance[a][b]`` Manhattan distance (R-A6).
        neighbours, neighbour_mask: orthogonal neighbours, N/E/S/W order (R-A5).
        square_mask: the up-to-8 cells around each cell (Square areas, explosions).
        rings: ``rings[c][d]`` cells at exact distance ``d`` from ``c``, d = 0..width+height.
        los_path: ``los_path[a][b]`` mask of cells whose interior the segment a->b crosses (R-A78).
        los_corners: ``los_corners[a][b]`` two-cell masks of the corners the segment squeezes through.
    """

    def __init__(
        self,
        id: str,
        name: str,
        width: int,
        height: int,
        *,
        trees: int = 0,
        bushes: int = 0,
        crates: int = 0,
        demon_cells: int = 0,
        kama_cells: Mapping[int, int] | None = None,
        deploy: tuple[int, ...] = (0, 0),
        features: Mapping[str, int] | None = None,
        source: str = "",
        rulesets: tuple[str, ...] = ("arena",),
    ) -> None:
        """Validate the layers and build every table.

        Raises:
            LayoutError: a mask leaves the board or two incompatible things share a cell.
        """
        if width < 1 or height < 1:
            raise LayoutError("size", f"a board needs at least one cell, got {width}x{height}")
        self.id = id
        self.name = name or id
        self.source = source
        self.width = width
        self.height = height
        self.n_cells = width * height
        self.trees = trees
        self.bushes = bushes
        self.crates = crates
        self.demon_cells = demon_cells
        self.kama_cells: dict[int, int] = dict(kama_cells or {})
        self.deploy: tuple[int, ...] = tuple(deploy)
        self.features: dict[str, int] = dict(features or {})
        self.rulesets: tuple[str, ...] = tuple(rulesets)
        self._validate()

        n = self.n_cells
        self.all_cells: int = (1 << n) - 1
        self._xs: tuple[int, ...] = tuple(c % width for c in range(n))
        self._ys: tuple[int, ...] = tuple(c // width for c in range(n))
        self.distance: list[list[int]] = distance_table(width, height)
        self.neighbours, self.neighbour_mask = neighbour_tables(width, height)
        self.square_mask: tuple[int, ...] = square_masks(width, height)
        self.rings = ring_table(width, height, self.distance)
        self.los_path, self.los_corners = los_tables(width, height)

    # ----------------------------------------------------------------- validation
    def _validate(self) -> None:
        """Reject layers that cannot coexist; called before any table is built (fail fast)."""
        n_zones = len(self.deploy)
        if not 2 <= n_zones <= MAX_ZONES:
            # Every ruleset seats sides 0 and 1; the board format has one glyph per zone (a-d).
            raise LayoutError("deploy", f"a board has 2 to {MAX_ZONES} deployment zones, got {n_zones}")
        for zone in range(2, n_zones):
            if not self.deploy[zone]:
                # An empty extra zone would seat a player nowhere and could not be drawn back.
                raise LayoutError(
                    f"deploy[{zone}]", f"zone {zone} has no cells (list only the zones the board has)"
                )
        zones = [(f"deploy[{i}]", m) for i, m in enumerate(self.deploy)]
        outside = ~((1 << self.n_cells) - 1)
        masks = {
            "trees": self.trees,
            "bushes": self.bushes,
            "crates": self.crates,
            "demon_cells": self.demon_cells,
            **dict(zones),
            **{f"features.{k}": v for k, v in self.features.items()},
        }
        for fname, m in masks.items():
            if m < 0 or m & outside:
                raise LayoutError(fname, "mask has cells outside the board")
        for cell, count in self.kama_cells.items():
            if not 0 <= cell < self.n_cells:
                raise LayoutError("kama_cells", f"cell {cell} is outside the board")
            if count not in (1, 2):
                raise LayoutError("kama_cells", f"cell {self._where(cell)} has {count} kamas (1 or 2)")
        kama = sum(1 << c for c in self.kama_cells)
        # Pairs that cannot share a cell: two scenery pieces; an obstacle (tree, bush) under anything
        # that a figure must stand on; a Demon cell that is also a kama cell (R-A22 counts it once);
        # a cell in two deployment zones (each cell belongs to at most one player's start zone).
        conflicts = [
            ("trees", self.trees, "bushes", self.bushes),
            ("trees", self.trees, "crates", self.crates),
            ("bushes", self.bushes, "crates", self.crates),
            ("demon_cells", self.demon_cells, "kama_cells", kama),
        ]
        conflicts += [(f1, m1, f2, m2) for i, (f1, m1) in enumerate(zones) for f2, m2 in zones[i + 1 :]]
        obstacles = self.trees | self.bushes
        for other, mask in [("demon_cells", self.demon_cells), ("kama_cells", kama), *zones]:
            conflicts.append(("trees/bushes", obstacles, other, mask))
        for f1, m1, f2, m2 in conflicts:
            both = m1 & m2
            if both:
                cells = ", ".join(self._where(c) for c in iter_cells(both))
                why = " (deployment zones must not overlap)" if f1.startswith("deploy[") else ""
                raise LayoutError(f2, f"{f1} and {f2} share cell(s) {cells}{why}")

    def _where(self, cell: int) -> str:
        return f"(x={cell % self.width}, y={cell // self.width})"

    # ----------------------------------------------------------------- coordinates
    def cell(self, x: int, y: int) -> int:
        """Cell index of column ``x``, row ``y`` (no bounds check: use :meth:`in_bounds`)."""
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        """``(x, y)`` of a cell."""
        return self._xs[cell], self._ys[cell]

    def in_bounds(self, x: int, y: int) -> bool:
        """Whether column ``x``, row ``y`` is on the board."""
        return 0 <= x < self.width and 0 <= y < self.height

    def step(self, cell: int, dx: int, dy: int) -> int:
        """The cell ``(dx, dy)`` away from ``cell``, or -1 when that is off the board.

        Used one unit step at a time by pushes, attracts and retreats (R-A87), which stop at the edge.
        """
        x, y = self._xs[cell] + dx, self._ys[cell] + dy
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        return -1

    def aligned(self, a: int, b: int) -> bool:
        """Same row or same column, as line spells require (R-A74); a cell is aligned with itself."""
        return self._xs[a] == self._xs[b] or self._ys[a] == self._ys[b]

    def direction(self, a: int, b: int) -> tuple[int, int] | None:
        """Unit step from ``a`` toward ``b`` along the dominant axis, or None.

        R-A88 is a gap: the rules never say which way a push/attract/retreat goes when caster and target
        are not in the same row or column. We use the axis along which ``b`` is farther from ``a`` (the
        exact direction when aligned). An exact diagonal (``|dx| == |dy| > 0``) or ``a == b`` has no
        dominant axis and returns None: the engine then moves nothing and direction-dependent areas
        fall back to Cross (see :mod:`krosbalance.board.areas`).
        """
        return dominant_direction(self._xs[b] - self._xs[a], self._ys[b] - self._ys[a])

    # ----------------------------------------------------------------- line of sight
    def has_los(self, a: int, b: int, blockers: int, strict: bool = False) -> bool:
        """Line of sight from ``a`` to ``b`` given a mask of blocking cells (R-A78).

        ``blockers`` is what blocks right now: trees plus non-Tiny characters, as the engine knows them.
        The endpoints never block (they are not in ``los_path``). With ``strict``, the segment is also
        blocked when it passes exactly through a corner between two blockers (an optional house rule;
        the rulebook and the community tools let such lines through).
        """
        if self.los_path[a][b] & blockers:
            return False
        if strict:
            for pair in self.los_corners[a][b]:
                if pair & blockers == pair:
                    return False
        return True

    def line_of_sight(self, a: tuple[int, int], b: tuple[int, int], strict: bool = False) -> bool:
        """LOS between two ``(x, y)`` cells against static scenery only: trees block, bushes and crates
        do not (R-A119-R-A121)."""
        return self.has_los(self.cell(*a), self.cell(*b), self.trees, strict)

    # ----------------------------------------------------------------- conveniences
    @property
    def obstacles(self) -> int:
        """Static impassable cells: trees and bushes (R-A7)."""
        return self.trees | self.bushes

    @property
    def n_zones(self) -> int:
        """How many deployment zones the board has: 2 (two sides) or up to 4 (four-player Arena, R-A156)."""
        return len(self.deploy)

    @property
    def kama_total(self) -> int:
        """Kama tokens placed at setup: the printed kama cells plus one per Demon cell (R-A22)."""
        return sum(self.kama_cells.values()) + self.demon_cells.bit_count()

    def layers(self) -> Layers:
        """The board's cell masks as a :class:`Layers` (for drawing or copying)."""
        return Layers(
            width=self.width,
            height=self.height,
            trees=self.trees,
            bushes=self.bushes,
            crates=self.crates,
            demon_cells=self.demon_cells,
            kama_cells=dict(self.kama_cells),
            deploy=list(self.deploy),
            features=dict(self.features),
        )

    @classmethod
    def from_layers(
        cls,
        layers: Layers,
        *,
        id: str,
        name: str = "",
        source: str = "",
        rulesets: tuple[str, ...] = ("arena",),
    ) -> Board:
        """Build a board from parsed layers."""
        return cls(
            id,
            name,
            layers.width,
            layers.height,
            trees=layers.trees,
            bushes=layers.bushes,
            crates=layers.crates,
            demon_cells=layers.demon_cells,
            kama_cells=layers.kama_cells,
            deploy=tuple(layers.deploy),
            features=layers.features,
            source=source,
            rulesets=rulesets,
        )

    @classmethod
    def from_ascii(
        cls,
        text: str,
        *,
        id: str = "ascii",
        name: str = "",
        source: str = "test board",
        glyphs: Mapping[str, Glyph] | None = None,
    ) -> Board:
        """Build a board from an ASCII grid (row 0 first; glyphs in :data:`~.ascii.GLYPHS`).

        ``. T B C`` are free, tree, bush and crate; ``D`` Demon cell; ``1``/``2`` kama cells; ``a``/``b``
        deployment cells of zone 0 (bottom, side 0) / zone 1 (top, side 1); ``c``/``d`` those of the
        four-player zones 2 (left) / 3 (right). Spaces and blank lines are ignored.

        Raises:
            ContentError: unknown glyph, ragged rows, or incompatible layers (file ``<ascii id>``).
        """
        file = f"<ascii {id}>"
        layers = parse_grid(text, glyphs, file=file)
        try:
            return cls.from_layers(layers, id=id, name=name, source=source)
        except LayoutError as err:
            raise ContentError(file, err.field, err.reason) from err

    def to_ascii(self, glyphs: Mapping[str, Glyph] | None = None) -> str:
        """Draw the board as space-separated glyphs, row 0 first (a crate on a kama cell shows ``C``)."""
        return render_grid(self.layers(), glyphs)

    def _key(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.width,
            self.height,
            self.trees,
            self.bushes,
            self.crates,
            self.demon_cells,
            tuple(sorted(self.kama_cells.items())),
            self.deploy,
            tuple(sorted(self.features.items())),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle only the layout; workers rebuild the tables (milliseconds) instead of shipping them."""
        return (
            _rebuild,
            (
                self.id,
                self.name,
                self.width,
                self.height,
                self.trees,
                self.bushes,
                self.crates,
                self.demon_cells,
                self.kama_cells,
                self.deploy,
                self.features,
                self.source,
                self.rulesets,
            ),
        )

    def __repr__(self) -> str:
        return f"Board(id={self.id!r}, {self.width}x{self.height})"


def _rebuild(
    id: str,
    name: str,
    width: int,
    height: int,
    trees: int,
    bushes: int,
    crates: int,
    demon_cells: int,
    kama_cells: dict[int, int],
    deploy: tuple[int, ...],
    features: dict[str, int],
    source: str,
    rulesets: tuple[str, ...] = ("arena",),
) -> Board:
    """Unpickling helper for :meth:`Board.__reduce__` (module-level so pickle can find it)."""
    return Board(
        id,
        name,
        width,
        height,
        trees=trees,
        bushes=bushes,
        crates=crates,
        demon_cells=demon_cells,
        kama_cells=kama_cells,
        deploy=deploy,
        features=features,
        source=source,
        rulesets=rulesets,
    )
