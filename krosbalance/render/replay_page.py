"""The replay viewer: one self-contained HTML page per match, readable offline.

The page is a thin renderer: Python builds every frame (:mod:`krosbalance.render.frames`) and writes
them as JSON into the page, with the viewer's script and style sheet inlined from this package's
``static/`` folder; nothing is fetched from the network. The page draws the board with its scenery,
the figures (discs; summons smaller, bombs as diamonds) with their HP, kamas, glyphs, terrain tiles
and Duel tokens; per step it lists the acting figure with its MP and AP, every figure's square and
HP, each seat's holdings, the dice with their faces and the step's text. Buttons, a slider, the arrow
keys and the space bar step through it; ``page.html#step=K`` opens it at step K (0-based).
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from krosbalance.content.registry import load_board
from krosbalance.render.frames import Replay, build_replay

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
{css}
</style>
</head>
<body>
<header><h1>{title}</h1><div class="sub">{sub}</div></header>
<main>
<div id="board-wrap"><svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="board"></svg>
<div class="legend" id="legend">{notation}. Discs: figures (summons smaller, bombs as diamonds) with their HP left;
gold coins: kamas; dashed purple: Demon cells; outlined: glyph or duel cells; orange: the step's squares.</div></div>
<div id="side">
<div class="controls">
<button id="first" title="first step">« first</button><button id="prev" title="previous step (←)">◀</button>
<button id="play" title="play / pause (space)">▶ play</button><button id="next" title="next step (→)">▶</button>
<button id="last" title="last step">last »</button>
<select id="speed" title="seconds per step"><option value="1200">slow</option><option value="600" selected>normal</option><option value="250">fast</option></select>
<input id="slider" type="range" min="0" value="0" aria-label="step"><span id="step-label"></span>
</div>
<div id="winner"></div>
<div class="panel"><h2>Step</h2><div id="events"></div></div>
<div class="panel"><h2>Acting figure</h2><div id="actor"></div></div>
<div class="panel"><h2>Dice</h2><div id="dice"></div></div>
<div class="panel"><h2>Players</h2><table id="holdings-table"><tbody id="holdings"></tbody></table></div>
<div class="panel"><h2>Figures</h2><table><thead><tr><th>figure</th><th>square</th><th>HP</th></tr></thead>
<tbody id="figures"></tbody></table></div>
</div>
</main>
<script id="replay-data" type="application/json">{data}</script>
<script>
{js}
</script>
</body>
</html>
"""


def _static(name: str) -> str:
    return resources.files("krosbalance.render").joinpath("static", name).read_text(encoding="utf-8")


# Inside a <script> the HTML parser looks for "</script", and "<!--" followed by "<script" sends it into
# a state where the page's own "</script>" no longer closes the element: so no "<" may appear at all.
# JSON strings may spell any character as a \u escape of four hex digits (\u003c for "<"), so "<", ">" and "&" become their escapes (parsed
# back to the same data), and U+2028/U+2029 too (line ends to older JavaScript parsers).
_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside an HTML ``<script>`` element: no ``<``, ``>``, ``&``,
    U+2028 or U+2029 appears literally (each is a ``\\u`` escape of four hex digits, so ``json.loads`` gives ``data``)."""
    return json.dumps(data, separators=(",", ":")).translate(_SCRIPT_ESCAPES)


def render_page(replay: Replay) -> str:
    """The HTML of a replay page (every script and style inline)."""
    meta = replay.meta
    data = script_json(replay.as_json())
    players = "; ".join(
        f"{seat['name']}{' (' + seat['ai'] + ')' if seat['ai'] else ''}: {', '.join(seat['team'])}"
        for seat in replay.seats
    )
    return TEMPLATE.format(
        title=html.escape(str(meta["title"])),
        sub=html.escape(f"{players} · result: {meta['winner']}"),
        notation=html.escape(str(meta["notation"])),
        css=_static("replay.css"),
        js=_static("replay.js"),
        data=data,
    )


def write_replay_page(
    result: Any, path: Path | str, title: str = "", board: Any = None, ais: tuple[str, ...] = ()
) -> Path:
    """Write the replay page of ``result`` (a match played with ``record="full"``) to ``path``.
    ``board`` defaults to the result's board from the default registry."""
    if board is None:
        board = load_board(result.board)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(build_replay(result, board, title=title, ais=ais)), encoding="utf-8")
    return path
