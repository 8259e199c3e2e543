"""Board files: a small TOML format around an ASCII grid, validated into a :class:`Board`.

Format (every key except ``id``, ``name``, ``source`` and ``[grid] rows`` is optional)::

    id = "arena-elemental"              # stable id, used by match specs and result rows
    name = "Elemental Arena (assumed layout)"
    rulesets = ["arena"]                # the rulesets the board is made for (default ["arena"])
    source = "assumed layout: ..."      # provenance: say what is known and what is assumed
    width = 12                          # checked against the grid when given
    height = 12

    [expect]                            # counts checked after parsing, to catch typos in the grid
    trees = 8
    bushes = 8
    crates = 4
    demon_cells = 2
    kama_cells = 10                     # number of kama cells (Demon cells not included)
    kama_tokens = 14                    # kamas printed on kama cells (Demon cells not included)
    deploy = [8, 8]                     # deployment cells per zone: [zone 0, zone 1] or 4 counts
    features = { glyph = 8 }            # cells of each named feature

    [glyphs]                            # extra glyphs for later rulesets: char = feature name
    G = "glyph"

    [grid]                              # row 0 first; spaces between glyphs are ignored
    rows = '''
    . b . b . .
    . . T . . .
    . a . a . .
    '''

    [[overlay]]                         # a second thing on a cell the grid already uses
    x = 3
    y = 4
    kind = "crate"                      # tree | bush | crate | demon | kama | deploy | feature
    count = 1                           # kama only (1 or 2)
    side = 0                            # deploy only: the zone, 0 to 3
    feature = "glyph"                   # feature only

Glyphs: ``.`` free, ``T`` tree, ``B`` bush, ``C`` crate, ``D`` Demon cell, ``1``/``2`` kama cell with that
many kamas, ``a``/``b`` deployment cell of zone 0 (bottom rows, side 0) / zone 1 (top rows, side 1).
Four-player Arena boards (R-A156) add ``c``/``d``: zone 2 (left columns) / zone 3 (right columns), so
the players sit clockwise bottom (0), left (2), top (1), right (3); a board without ``c``/``d`` has the
two zones of a two-player match. Zones must not share a cell, and ``[expect] deploy`` then lists one
count per zone. Blast boards add ``G = "glyph"`` in ``[glyphs]`` for their glyph cells (R-B14). Every
problem raises
:class:`~krosbalance.errors.ContentError` naming the file, the field and the reason, so the CLI can
print one line.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..errors import ContentError
from ..paths import name_problem
from .ascii import GLYPHS, LAYERS, MAX_ZONES, Glyph, Layers, parse_grid
from .board import Board, LayoutError

#: Folder of the shipped board files (data lives with the content package).
BOARDS_DIR: Path = Path(__file__).resolve().parent.parent / "content" / "data" / "boards"

_TOP_KEYS = {
    "id",
    "name",
    "source",
    "rulesets",
    "width",
    "height",
    "expect",
    "glyphs",
    "grid",
    "overlay",
}
_OVERLAY_KEYS = {"x", "y", "kind", "count", "side", "feature"}


def list_board_files(folders: tuple[Path, ...] = (BOARDS_DIR,)) -> list[Path]:
    """The board files of ``folders`` (default the shipped boards), each folder's sorted by name, in
    the order of the folders (a designer's own boards after the shipped ones:
    :mod:`krosbalance.content.custom`)."""
    return [path for folder in folders for path in sorted(Path(folder).glob("*.toml"))]


def load_board_file(path: str | Path) -> Board:
    """Read, validate and build the board described by a TOML board file.

    Raises:
        ContentError: unreadable file, bad TOML, missing or mistyped field, ragged rows, unknown glyph
            (with row and column), incompatible layers, or counts that differ from ``[expect]``.
    """
    path = Path(path)
    file = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ContentError(file, "<file>", f"cannot read: {err}") from err
    except UnicodeDecodeError as err:
        raise ContentError(
            file, "<file>", f"not UTF-8 text (byte {err.start}): is it a binary file?"
        ) from None
    except tomllib.TOMLDecodeError as err:
        raise ContentError(file, "<toml>", f"invalid TOML: {err}") from err
    return board_from_mapping(data, file=file)


def board_from_mapping(data: dict[str, Any], *, file: str = "<board>") -> Board:
    """Build a board from already-parsed TOML data (shared by files and tests)."""
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ContentError(file, sorted(unknown)[0], f"unknown key (known: {', '.join(sorted(_TOP_KEYS))})")
    board_id = _req(data, "id", str, file)
    if name_problem(board_id):  # a board id names its picture in a report (board_<id>.png)
        raise ContentError(file, "id", name_problem(board_id))
    name = _req(data, "name", str, file)
    source = _req(data, "source", str, file)
    rulesets = _rulesets(data.get("rulesets", ["arena"]), file)
    glyphs = _glyph_table(data.get("glyphs", {}), file)
    grid = _req(data, "grid", dict, file)
    for key in grid:
        if key != "rows":
            raise ContentError(file, f"grid.{key}", "unknown key; [grid] holds only 'rows'")
    rows = _req(grid, "rows", str, file, prefix="grid.")
    layers = parse_grid(rows, glyphs, file=file, field_name="grid.rows")
    for key, actual in (("width", layers.width), ("height", layers.height)):
        if key in data:
            declared = _req(data, key, int, file)
            if declared != actual:
                raise ContentError(file, key, f"declared {declared} but the grid has {actual}")
    overlays = data.get("overlay", [])
    if not isinstance(overlays, list):
        raise ContentError(file, "overlay", "must be an array of tables ([[overlay]])")
    for i, entry in enumerate(overlays):
        _apply_overlay(layers, entry, file, f"overlay[{i}]")
    try:
        board = Board.from_layers(layers, id=board_id, name=name, source=source, rulesets=rulesets)
    except LayoutError as err:
        raise ContentError(file, err.field, err.reason) from err
    if "expect" in data:
        _check_expect(board, _req(data, "expect", dict, file), file)
    return board


def _req(table: dict[str, Any], key: str, kind: type, file: str, prefix: str = "") -> Any:
    """A required key of the given type, or a ContentError naming it."""
    if key not in table:
        raise ContentError(file, prefix + key, "missing")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ContentError(file, prefix + key, f"must be {kind.__name__}, got {type(value).__name__}")
    return value


def _rulesets(value: Any, file: str) -> tuple[str, ...]:
    """The ``rulesets`` key: a non-empty array of ruleset names."""
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ContentError(file, "rulesets", f"must be a non-empty array of ruleset names, got {value!r}")
    return tuple(value)


def _glyph_table(extra: Any, file: str) -> dict[str, Glyph]:
    """The Arena glyphs plus ``[glyphs]`` entries mapping a one-character glyph to a feature name."""
    if not isinstance(extra, dict):
        raise ContentError(file, "glyphs", "must be a table of glyph = feature name")
    table = dict(GLYPHS)
    for ch, feature in extra.items():
        if len(ch) != 1 or ch.isspace():
            raise ContentError(file, f"glyphs.{ch}", "a glyph must be one non-space character")
        if ch in GLYPHS:
            raise ContentError(file, f"glyphs.{ch}", "redefines a built-in glyph")
        if not isinstance(feature, str) or not feature:
            raise ContentError(file, f"glyphs.{ch}", "must name a feature (a non-empty string)")
        table[ch] = Glyph("feature", feature)
    return table


def _apply_overlay(layers: Layers, entry: Any, file: str, where: str) -> None:
    """Add one ``[[overlay]]`` entry (a second layer on an already-used cell) to ``layers``."""
    if not isinstance(entry, dict):
        raise ContentError(file, where, "must be a table")
    unknown = set(entry) - _OVERLAY_KEYS
    if unknown:
        raise ContentError(file, f"{where}.{sorted(unknown)[0]}", "unknown key")
    x = _req(entry, "x", int, file, prefix=f"{where}.")
    y = _req(entry, "y", int, file, prefix=f"{where}.")
    kind = _req(entry, "kind", str, file, prefix=f"{where}.")
    if not (0 <= x < layers.width and 0 <= y < layers.height):
        raise ContentError(
            file, where, f"cell (x={x}, y={y}) is outside the {layers.width}x{layers.height} grid"
        )
    if kind not in LAYERS or kind == "free":
        raise ContentError(file, f"{where}.kind", f"unknown kind {kind!r}")
    value: int | str = 0
    if kind == "kama":
        value = _req(entry, "count", int, file, prefix=f"{where}.")
    elif kind == "deploy":
        zone: int = _req(entry, "side", int, file, prefix=f"{where}.")
        if not 0 <= zone < MAX_ZONES:
            raise ContentError(file, f"{where}.side", f"must be a zone from 0 to {MAX_ZONES - 1}, got {zone}")
        value = zone
    elif kind == "feature":
        value = _req(entry, "feature", str, file, prefix=f"{where}.")
    layers.add(y * layers.width + x, Glyph(kind, value))


def _check_expect(board: Board, expect: dict[str, Any], file: str) -> None:
    """Compare the declared ``[expect]`` counts with the parsed board."""
    actual: dict[str, Any] = {
        "trees": board.trees.bit_count(),
        "bushes": board.bushes.bit_count(),
        "crates": board.crates.bit_count(),
        "demon_cells": board.demon_cells.bit_count(),
        "kama_cells": len(board.kama_cells),
        "kama_tokens": sum(board.kama_cells.values()),
        "deploy": [zone.bit_count() for zone in board.deploy],
        "features": {name: mask.bit_count() for name, mask in board.features.items()},
    }
    for key, declared in expect.items():
        if key not in actual:
            raise ContentError(file, f"expect.{key}", f"unknown count (known: {', '.join(actual)})")
        if key == "deploy" and isinstance(declared, list) and len(declared) != board.n_zones:
            raise ContentError(
                file,
                "expect.deploy",
                f"declared {len(declared)} zone count(s) {declared} but the grid has {board.n_zones} zones "
                f"{actual['deploy']} (one count per zone: a, b, then c, d on four-player boards)",
            )
        if declared != actual[key]:
            raise ContentError(file, f"expect.{key}", f"declared {declared} but the grid has {actual[key]}")
