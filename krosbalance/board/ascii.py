"""ASCII boards: the glyph table, parsing a grid into layers and drawing layers back.

ASCII grids are how tests and board files describe a board: one line per row, row 0 first (y grows
downward), one glyph per cell. Spaces between glyphs and blank lines are ignored, so grids can be
written ``. T . B`` for readability.

The glyph table is a plain dict so later rulesets can add glyphs without touching the parser: a
:class:`Glyph` with ``layer="feature"`` puts its cell into ``Board.features[value]`` (Blast glyph cells,
Duel cells, windows, machines, ...).

Deployment zones (R-A25, R-A156) are ``a`` (zone 0, the bottom rows: side 0 of a two-player match),
``b`` (zone 1, the top rows: side 1), and for four-player boards ``c`` (zone 2, the left columns) and
``d`` (zone 3, the right columns): seated clockwise bottom, left, top, right. A grid without ``c``/``d``
has two zones, as every two-player board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import ContentError

#: Layers a glyph can put a cell into. ``kama`` carries a token count, ``deploy`` a zone, ``feature`` a name.
LAYERS: tuple[str, ...] = ("free", "tree", "bush", "crate", "demon", "kama", "deploy", "feature")


@dataclass(frozen=True, slots=True)
class Glyph:
    """What one ASCII character means.

    Attributes:
        layer: one of :data:`LAYERS`.
        value: kama count for ``kama``, zone (0 to 3) for ``deploy``, feature name for ``feature``.
    """

    layer: str
    value: int | str = 0


#: The Arena glyphs. Copy and extend (``{**GLYPHS, "G": Glyph("feature", "glyph")}``) for other rulesets.
GLYPHS: dict[str, Glyph] = {
    ".": Glyph("free"),
    "T": Glyph("tree"),
    "B": Glyph("bush"),
    "C": Glyph("crate"),
    "D": Glyph("demon"),
    "1": Glyph("kama", 1),
    "2": Glyph("kama", 2),
    "a": Glyph("deploy", 0),
    "b": Glyph("deploy", 1),
    "c": Glyph("deploy", 2),
    "d": Glyph("deploy", 3),
}

#: Most deployment zones a board can have: one glyph each (``a``-``d``), four-player Arena (R-A156).
MAX_ZONES: int = 4


@dataclass(slots=True)
class Layers:
    """The cell masks of a board before its geometry tables are built.

    Kept separate from :class:`~krosbalance.board.board.Board` so that parsers (ASCII, TOML overlays)
    can fill it cell by cell and the board can validate it in one place.
    """

    width: int
    height: int
    trees: int = 0
    bushes: int = 0
    crates: int = 0
    demon_cells: int = 0
    kama_cells: dict[int, int] = field(default_factory=dict)
    deploy: list[int] = field(default_factory=lambda: [0, 0])  # zones 0 and 1 always; 2, 3 when used
    features: dict[str, int] = field(default_factory=dict)

    def add(self, cell: int, glyph: Glyph) -> None:
        """Put ``cell`` into the layer named by ``glyph``; free cells change nothing."""
        bit = 1 << cell
        layer = glyph.layer
        attr = _MASK_LAYERS.get(layer)
        if attr is not None:
            setattr(self, attr, getattr(self, attr) | bit)
        elif layer == "kama":
            self.kama_cells[cell] = int(glyph.value)
        elif layer == "deploy":
            zone = int(glyph.value)
            if not 0 <= zone < MAX_ZONES:
                raise ValueError(f"deployment zone {zone} (0 to {MAX_ZONES - 1})")
            while len(self.deploy) <= zone:  # zone 3 without zone 2 leaves zone 2 empty: Board refuses it
                self.deploy.append(0)
            self.deploy[zone] |= bit
        elif layer == "feature":
            name = str(glyph.value)
            self.features[name] = self.features.get(name, 0) | bit
        elif layer != "free":
            raise ValueError(f"unknown layer {layer!r}")


#: Layers that are a plain bitmask attribute of :class:`Layers`.
_MASK_LAYERS: dict[str, str] = {"tree": "trees", "bush": "bushes", "crate": "crates", "demon": "demon_cells"}


def grid_rows(text: str) -> list[str]:
    """The non-blank lines of ``text`` with all whitespace removed: one string per row."""
    rows = ["".join(line.split()) for line in text.splitlines()]
    return [r for r in rows if r]


def parse_grid(
    text: str,
    glyphs: Mapping[str, Glyph] | None = None,
    *,
    file: str = "<ascii>",
    field_name: str = "grid",
) -> Layers:
    """Parse an ASCII grid into :class:`Layers`.

    Raises:
        ContentError: empty grid, ragged rows, or an unknown glyph; the reason names the row (y) and
            column (x), 0-based, counted in glyphs (spaces ignored) so it matches the board coordinates.
    """
    table = GLYPHS if glyphs is None else glyphs
    rows = grid_rows(text)
    if not rows:
        raise ContentError(file, field_name, "the grid has no rows")
    width = len(rows[0])
    layers = Layers(width=width, height=len(rows))
    for y, row in enumerate(rows):
        if len(row) != width:
            raise ContentError(
                file, field_name, f"row y={y} has {len(row)} cells but row y=0 has {width} (ragged rows)"
            )
        for x, ch in enumerate(row):
            glyph = table.get(ch)
            if glyph is None:
                known = " ".join(sorted(table))
                raise ContentError(
                    file, field_name, f"row y={y}, column x={x}: unknown glyph {ch!r} (known: {known})"
                )
            layers.add(y * width + x, glyph)
    return layers


def render_grid(layers: Layers, glyphs: Mapping[str, Glyph] | None = None) -> str:
    """Draw layers as a grid of space-separated glyphs, row 0 first, one line per row.

    A cell carrying two things (a crate on a kama cell) can only show one glyph; the precedence is
    tree, bush, crate, demon, kama, deploy, feature. Board files record the hidden layer as an
    ``[[overlay]]`` entry, so drawing is lossy only for such cells.
    """
    table = GLYPHS if glyphs is None else glyphs
    inverse: dict[tuple[str, int | str], str] = {}
    for ch, g in table.items():
        inverse.setdefault((g.layer, g.value), ch)
    lines: list[str] = []
    for y in range(layers.height):
        out: list[str] = []
        for x in range(layers.width):
            cell = y * layers.width + x
            out.append(inverse.get(_top_layer(layers, cell), "?"))
        lines.append(" ".join(out))
    return "\n".join(lines) + "\n"


def _top_layer(layers: Layers, cell: int) -> tuple[str, int | str]:
    """The (layer, value) drawn for ``cell`` under the precedence of :func:`render_grid`."""
    bit = 1 << cell
    if layers.trees & bit:
        return ("tree", 0)
    if layers.bushes & bit:
        return ("bush", 0)
    if layers.crates & bit:
        return ("crate", 0)
    if layers.demon_cells & bit:
        return ("demon", 0)
    if cell in layers.kama_cells:
        return ("kama", layers.kama_cells[cell])
    for zone, mask in enumerate(layers.deploy):
        if mask & bit:
            return ("deploy", zone)
    for name, mask in sorted(layers.features.items()):
        if mask & bit:
            return ("feature", name)
    return ("free", 0)
