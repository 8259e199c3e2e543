"""A picture of a board, optionally with the pieces on it at one moment of a match.

The board is anything with the :class:`krosbalance.board.Board` attributes used here (``width``,
``height``, the ``trees``/``bushes``/``crates``/``demon_cells`` bitmasks, ``kama_cells`` and the
``deploy`` masks, one per start zone: two on two-player boards, four on four-player Arena boards);
each zone gets its own tint. Cells are ``y * width + x`` with row 0 drawn at the top. Pieces are
``(uid, character_id, side, cell, injuries)`` tuples, the format of ``TurnEnded.positions``, so
:func:`positions_at` plus :func:`plot_board` draws any recorded turn end.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot, no ``show()``). A board whose file
labels its layout as assumed (the box boards' cell-by-cell layouts are not published) is drawn with
that label under the picture, so a picture is never mistaken for the printed board.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Patch, Polygon, Rectangle

Piece = tuple[int, str, int, int, int]

SIDE_COLOURS = ("#2b6cb0", "#c53030")
#: Tint of each deployment zone: 0 bottom (blue), 1 top (red), 2 left (green), 3 right (yellow).
DEPLOY_COLOURS = ("#bee3f8", "#fed7d7", "#c6f6d5", "#fefcbf")
FREE = "#f7f3e8"
TREE = "#2f6b2f"
BUSH = "#8bc34a"
CRATE = "#a0703c"
DEMON = "#6b46c1"
KAMA = "#d4a017"


class BoardLike(Protocol):
    """The attributes of a board that a picture needs."""

    width: int
    height: int
    trees: int
    bushes: int
    crates: int
    demon_cells: int
    kama_cells: dict[int, int]
    deploy: tuple[int, ...]


def _cells(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _xy(board: Any, cell: int) -> tuple[int, int]:
    if hasattr(board, "xy"):
        x, y = board.xy(cell)
        return int(x), int(y)
    return cell % board.width, cell // board.width


def short_label(character: str, length: int = 4) -> str:
    """A few letters of a character id for a piece label (``goultard`` -> ``Goul``)."""
    word = character.replace("_", "-").split("-")[0] or character
    return word[:length].capitalize()


def assumed_note(board: Any) -> str:
    """What the board's own file says is assumed about its layout, in one line ("" when nothing).

    Taken from the board's ``name`` and the first sentence of its ``source`` (e.g. ``assumed layout:
    bushes, crates, Demon cells ... are assumed``).
    """
    source = str(getattr(board, "source", "") or "")
    if "assumed" not in f"{getattr(board, 'name', '')} {source}".lower():
        return ""
    paragraph = " ".join(source.strip().split("\n\n")[0].split())
    first = re.split(r"(?<=[.;])\s", paragraph, maxsplit=1)[0].rstrip(".;") or "assumed layout"
    return first if len(first) <= 120 else first[:117] + "..."


def plot_board(
    board: BoardLike,
    pieces: Iterable[Piece] = (),
    ax: Axes | None = None,
    title: str = "",
    provenance: bool = True,
) -> Figure:
    """Draw the grid, scenery, Demon/kama/deployment cells and the pieces.

    Args:
        board: a :class:`krosbalance.board.Board` (or any object with the same attributes).
        pieces: ``(uid, character_id, side, cell, injuries)`` tuples; drawn as discs in the side's
            colour with a short name and, when injured, ``-N`` (injuries) under it.
        ax: axes to draw into; a new figure is made if omitted.
        title: the axes title.
        provenance: write the board's "assumed layout" label under the picture when its file has one.

    Returns:
        The Figure holding the picture.
    """
    w, h = int(board.width), int(board.height)
    if ax is None:
        scale = 0.55
        fig = Figure(figsize=(max(3.0, w * scale + 1.5), max(3.0, h * scale + 1.0)), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    deploy = tuple(board.deploy) if getattr(board, "deploy", None) else (0, 0)
    for cell in range(w * h):
        x, y = _xy(board, cell)
        colour = FREE
        for zone, mask in enumerate(deploy):
            if mask >> cell & 1:
                colour = DEPLOY_COLOURS[zone % len(DEPLOY_COLOURS)]
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=colour, edgecolor="#b8b0a0", lw=0.6))
    for cell in _cells(board.demon_cells):
        x, y = _xy(board, cell)
        ax.add_patch(
            Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, facecolor="none", edgecolor=DEMON, lw=1.5, hatch="//")
        )
    for cell, count in dict(board.kama_cells).items():
        x, y = _xy(board, cell)
        ax.add_patch(Circle((x + 0.28, y - 0.28), 0.16, facecolor=KAMA, edgecolor="#8a6d0b", lw=0.6))
        ax.text(x + 0.28, y - 0.28, str(count), ha="center", va="center", fontsize=6)
    for cell in _cells(board.trees):
        x, y = _xy(board, cell)
        ax.add_patch(
            Polygon([(x - 0.35, y + 0.35), (x + 0.35, y + 0.35), (x, y - 0.4)], closed=True, facecolor=TREE)
        )
    for cell in _cells(board.bushes):
        x, y = _xy(board, cell)
        ax.add_patch(Circle((x, y), 0.32, facecolor=BUSH, edgecolor="#558b2f"))
    for cell in _cells(board.crates):
        x, y = _xy(board, cell)
        ax.add_patch(Rectangle((x - 0.3, y - 0.3), 0.6, 0.6, facecolor=CRATE, edgecolor="#5d4037", alpha=0.8))
    for uid, character, side, cell, injuries in pieces:
        x, y = _xy(board, int(cell))
        colour = SIDE_COLOURS[int(side) % 2]
        ax.add_patch(Circle((x, y), 0.38, facecolor=colour, edgecolor="white", lw=1.2, zorder=3))
        ax.text(
            x,
            y - 0.05,
            short_label(str(character)),
            ha="center",
            va="center",
            color="white",
            fontsize=6.5,
            weight="bold",
            zorder=4,
        )
        tag = f"#{uid}" + (f" -{int(injuries)}" if injuries else "")
        ax.text(x, y + 0.22, tag, ha="center", va="center", color="white", fontsize=5, zorder=4)
    ax.set_xlim(-0.5, w - 0.5)
    ax.set_ylim(h - 0.5, -0.5)  # row 0 at the top
    ax.set_aspect("equal")
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    ax.tick_params(labelsize=6, length=0)
    legend = [
        Patch(facecolor=TREE, label="tree"),
        Patch(facecolor=BUSH, label="bush"),
        Patch(facecolor=CRATE, label="crate"),
        Patch(facecolor="none", edgecolor=DEMON, hatch="//", label="Demon cell"),
        Patch(facecolor=KAMA, label="kama"),
        *(
            Patch(facecolor=DEPLOY_COLOURS[zone % len(DEPLOY_COLOURS)], label=f"deploy {zone}")
            for zone in range(len(deploy))
        ),
    ]
    ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=6, frameon=False)
    if title:
        ax.set_title(title, fontsize=9)
    note = assumed_note(board) if provenance else ""
    if note:
        name = str(getattr(board, "name", "") or "")
        text = f"{name}: {note}" if name and name.lower() not in note.lower() else note
        ax.text(
            0.0,
            -0.06,
            _wrap(text, max(40, int(w * 6))),
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize=6,
            color="#7a3b00",
            style="italic",
        )
    return fig


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def _field(event: Any, name: str) -> Any:
    return event[name] if isinstance(event, dict) else getattr(event, name, None)


def positions_at(events: Iterable[Any], turn: int | None = None) -> list[Piece]:
    """Pieces at the end of ``turn`` (the last recorded turn end at or before it; None = the last one).

    ``events`` are engine events (objects with ``kind``, ``turn`` and, for ``turn_ended``, a
    ``positions`` tuple) or dicts/rows with the same keys; ``positions`` may be a JSON string.
    Returns an empty list if no turn end was recorded.
    """
    best: Sequence[Any] | None = None
    best_turn = -1
    for event in events:
        if _field(event, "kind") != "turn_ended":
            continue
        t = int(_field(event, "turn"))
        if (turn is None or t <= turn) and t >= best_turn:
            positions = _field(event, "positions")
            best = json.loads(positions) if isinstance(positions, str) else positions
            best_turn = t
    return [(int(u), str(c), int(s), int(cell), int(inj)) for u, c, s, cell, inj in (best or ())]
