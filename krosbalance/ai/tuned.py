"""The tuned heuristic AIs (issue 18): weights measured by self-play, read from data.

``kiter-3`` (item 2) is ``kiter-2`` (the kiter personality with the three skills on) with the weights that
:mod:`krosbalance.tools.tuning` found against ``kiter-2`` on the tuning boards; they live in
``krosbalance/ai/data/tuned.toml`` with a source note (optimiser, seed, budget, boards, date), so a
new tuning run changes the data, not the code. ``kiter-race`` (item 3) is ``kiter-2`` with the GG
race priced: tension dice refunded, kamas picked up and walks to a Demon cell weighed several times
higher, because the side that takes the first GG wins most matches (:mod:`krosbalance.tools.race`);
its weights were chosen by screens of ``mcts`` on this planner against ``lookahead``, and its
source note says so. Every untuned AI (``kiter``, ``kiter-2``...) stays as
it was, so the studies made with them replay exactly.

A table of the file names its ``base`` (a ``-2`` AI of ``skills.toml``) and the ``Weights`` fields
it changes; an unknown field or a value of the wrong type is a ``ContentError`` naming the file and
the field (:func:`krosbalance.ai.weights.weights_with`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.skilled import SKILLS_FILE, skilled_weights
from krosbalance.ai.weights import Weights, weights_with
from krosbalance.errors import ContentError

TUNED_FILE = Path(__file__).parent / "data" / "tuned.toml"
_TABLE: dict[str, object] = {}  # tuned.toml, read once (plain data: no decorator in a compiled module)


def _read(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as handle:
            return dict(tomllib.load(handle))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(str(path), "toml", str(exc)) from None


def tuned_weights(name: str, path: Path | None = None) -> Weights:
    """The weights of the tuned AI ``name``: its base ``-2`` AI's, with the fields of its table in
    ``path`` (the shipped ``tuned.toml`` when None) replaced."""
    if path is None:
        if not _TABLE:
            _TABLE.update(_read(TUNED_FILE))
        table = _TABLE
        path = TUNED_FILE
    else:
        table = _read(path)
    entry = table.get(name)
    if not isinstance(entry, dict):
        raise ContentError(str(path), name, "no such AI in the tuned-weights file")
    base = entry.get("base")
    if not isinstance(base, str):
        raise ContentError(str(path), f"{name}.base", "missing: the -2 AI these weights start from")
    if not isinstance(entry.get("source", ""), str):
        raise ContentError(str(path), f"{name}.source", "expected text")
    try:
        start = skilled_weights(base)
    except ContentError:
        raise ContentError(
            str(path), f"{name}.base", f"unknown base {base!r} (not in {SKILLS_FILE.name})"
        ) from None
    return weights_with(start, entry, str(path), name, ("base", "source"))


class Kiter3AI(KiterAI):
    name = "kiter-3"
    weights = tuned_weights("kiter-3")


class KiterRaceAI(KiterAI):
    name = "kiter-race"
    weights = tuned_weights("kiter-race")


TUNED = (Kiter3AI, KiterRaceAI)
