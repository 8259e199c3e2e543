"""The text replay: the same steps as the replay page, one line each, grouped by turn.

Every line names figures and squares (``B3``: :mod:`krosbalance.render.notation`); an injury line
ends with the HP left, a turn end lists each seat's holdings (Arena: GG and kamas).
"""

from __future__ import annotations

from collections.abc import Iterator

from krosbalance.render.frames import Replay

#: steps whose first line is printed flush under the turn header; the others are indented
TOP_LEVEL = frozenset(
    {"turn_started", "character_turn_started", "turn_ended", "glyph_count", "match_ended", "start"}
)


def replay_lines(replay: Replay, turn: int | None = None) -> Iterator[str]:
    """The text replay, a line at a time (``turn``: that turn's lines only)."""
    shown = None
    for frame in replay.frames:
        if turn is not None and frame["turn"] != turn:
            continue
        if frame["turn"] != shown:
            shown = frame["turn"]
            yield "--- deployment ---" if shown == 0 else f"--- turn {shown} ---"
        top = frame["kind"] in TOP_LEVEL
        for i, line in enumerate(frame["text"]):
            indent = (2 if top else 4) if i == 0 else (4 if top else 6)
            yield " " * indent + line
