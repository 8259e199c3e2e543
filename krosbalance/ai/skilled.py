"""The ``-2`` heuristic AIs (issue 18): the untuned personalities with three skills switched on.

``focus_fire``, ``kiter`` and ``objective`` stay exactly as they were, so every study made with them
replays identically (the golden matches); ``focus_fire-2``, ``kiter-2`` and ``objective-2`` are the
same personalities with the skill weights of ``krosbalance/ai/data/skills.toml``:

- **take the GG** (``buy_first``): on a Demon cell with the price, the GG before a kama, and a plan
  may buy on its casting cell and walk on to a safer end (:func:`.plan_search.gg_purchases`);
- **leave melee without a Lock roll** (``free_escape``): after a spell that moves the caster
  (Retreat Shot) the plan walks on from where it lands (:func:`.plan_search.walk_on`), so the
  spell is weighed against walking out and rolling;
- **deny the winning purchase** (``deny``): ending on the only Demon cell an enemy Krosmaster can
  reach next turn with the price in its team's stock is worth that purchase to the opponent
  (:func:`.positions.purchase_denial`).

Each class is written out (no generated classes: they pickle for joblib by name); only its weights
come from the data file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from krosbalance.ai.focus_fire import FocusFireAI
from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.objective import ObjectiveAI
from krosbalance.ai.weights import Weights, weights_with
from krosbalance.errors import ContentError

SKILLS_FILE = Path(__file__).parent / "data" / "skills.toml"
_BASES: dict[str, type[FocusFireAI] | type[KiterAI] | type[ObjectiveAI]] = {
    "focus_fire": FocusFireAI,
    "kiter": KiterAI,
    "objective": ObjectiveAI,
}


def _base_weights(name: str) -> Weights | None:
    """The weights of a base personality, read from an instance: in the compiled build ``weights`` is
    an instance attribute with a default, which a class object does not expose."""
    cls = _BASES.get(name)
    return None if cls is None else cls(np.random.default_rng(0)).weights


_TABLE: dict[str, object] = {}  # skills.toml, read once (plain data: no decorator in a compiled module)


def skilled_weights(name: str) -> Weights:
    """The weights of the ``-2`` AI ``name``: its base personality's, with the skill fields of
    ``skills.toml`` replaced; a bad entry is a ``ContentError`` naming the file and field."""
    if not _TABLE:
        with SKILLS_FILE.open("rb") as handle:
            _TABLE.update(tomllib.load(handle))
    table = _TABLE
    entry = table.get(name)
    if not isinstance(entry, dict):
        raise ContentError(str(SKILLS_FILE), name, "no such AI in the skills file")
    base = _base_weights(str(entry.get("base")))
    if base is None:
        raise ContentError(str(SKILLS_FILE), f"{name}.base", f"unknown base {entry.get('base')!r}")
    return weights_with(base, entry, str(SKILLS_FILE), name, ("base", "source"))


class FocusFire2AI(FocusFireAI):
    name = "focus_fire-2"
    weights = skilled_weights("focus_fire-2")


class Kiter2AI(KiterAI):
    name = "kiter-2"
    weights = skilled_weights("kiter-2")


class Objective2AI(ObjectiveAI):
    name = "objective-2"
    weights = skilled_weights("objective-2")


SKILLED = (FocusFire2AI, Kiter2AI, Objective2AI)
