"""The Duel Pack's share of the differential fuzz (:mod:`krosbalance.testing.differential`): which
fuzz matches are duels, and their specs.

Match ``k`` of a master seed is a duel with chance :data:`DUEL_SHARE`, decided by a stream of its
own (``[master_seed, k, DUEL_STREAM]``), so the Arena matches of the fuzz are the same specs with or
without the duels beside them, and any slice of the fuzz gives the same duels. A duel spec draws one
or two figures each from every legal team of the duel pool (the Duel Pack's Krosmasters and the
box's, by set and game), a duel board, the plain or the tactical draft, a few of the duel options
(each drawn on its own: overshoot, draft size, duel level bonus, the reveal's timing, the neutral
Critical, the punch, short turn bounds decided by HP or a draw, bombs, line of sight, tokens held
from the start) and the AIs the core plays in a duel (:data:`krosbalance.native_duel.DUEL_AIS`); a
search AI takes a seat in a share of them (:data:`SEARCH_SHARE`) under a short turn bound.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.content.registry import list_boards
from krosbalance.native_duel import DUEL_AIS
from krosbalance.rulesets.duel.pregame import legal_teams

#: the share of the fuzz's matches that are duels
DUEL_SHARE = 0.15
#: the third word of the stream that decides whether a match is a duel and draws it
DUEL_STREAM = 41
#: the share of the duels in which a search AI (``duel-lookahead``) takes one seat, and its turn
#: bounds: its reference plays a game turn in seconds, a thousand times the heuristic's
SEARCH_SHARE = 0.1
SEARCH_TURNS = (2, 4)


@cache
def duel_pool() -> tuple[str, ...]:
    """Every Krosmaster that may duel: the Duel Pack's, then the Arena box's (by set and game)."""
    from krosbalance.testing.duel import duel_pack, duel_registry  # cycle: testing.scenario reaches here

    registry = duel_registry()
    return tuple(dict.fromkeys([*duel_pack(), *registry.list_characters("krosmaster", game="arena")]))


@cache
def duel_teams(figures: int) -> tuple[tuple[str, ...], ...]:
    return tuple(legal_teams(duel_pool(), figures))


def _options(rng: np.random.Generator, figures: int) -> dict[str, Any]:
    options: dict[str, Any] = {"figures": figures, "draft": ("plain", "tactical")[int(rng.integers(2))]}
    if rng.random() < 0.2:
        options["draft_overshoot"] = True
    if rng.random() < 0.15:
        options["draft_max_tokens"] = int(rng.integers(1, 4))
    if rng.random() < 0.15:
        options["duel_level_bonus"] = int(rng.integers(0, 6))
    if rng.random() < 0.2:
        options["reveal_applies_this_turn"] = False
    if rng.random() < 0.15:
        options["neutral_critical_power"] = False
    if rng.random() < 0.2:
        options["punch"] = True
    if rng.random() < 0.3:
        options["turn_limit"] = int(rng.integers(2, 30))
        options["turn_limit_result"] = ("draw", "hp")[int(rng.integers(2))]
    if rng.random() < 0.1:
        options["bombs_unfazed"] = True
        options["bomb_armour_dice"] = int(rng.integers(0, 3))
    if rng.random() < 0.1:
        options["strict_corner_los"] = True
    if rng.random() < 0.1:
        options["caster_in_own_area"] = False
    if rng.random() < 0.15:
        options["start_token_levels"] = [int(rng.integers(1, 5)) for _ in range(int(rng.integers(1, 3)))]
    return options


def duel_spec(master_seed: int, k: int) -> dict[str, Any] | None:
    """Spec ``k`` of the fuzz of ``master_seed`` when it is a duel (``ruleset = "duel"``), else None."""
    rng = np.random.default_rng([master_seed, k, DUEL_STREAM])
    if rng.random() >= DUEL_SHARE:
        return None
    figures = 1 + int(rng.integers(2))
    teams = duel_teams(figures)
    boards = list_boards("duel")
    ais = [name for name in list_ais("duel") if name in DUEL_AIS and ai_tier(name) != "search"]
    spec = {
        "id": k,
        "master_seed": master_seed,
        "ruleset": "duel",
        "teams": [list(teams[int(rng.integers(len(teams)))]) for _ in range(2)],
        "board": boards[int(rng.integers(len(boards)))],
        "ai": [ais[int(rng.integers(len(ais)))] for _ in range(2)],
        "seed": int(rng.integers(2**40)),
        "options": _options(rng, figures),
    }
    # drawn last, so the duels without a search AI are the specs they were before it joined
    searches = [name for name in list_ais("duel") if name in DUEL_AIS and ai_tier(name) == "search"]
    if searches and rng.random() < SEARCH_SHARE:
        spec["ai"][int(rng.integers(2))] = searches[int(rng.integers(len(searches)))]
        spec["options"]["turn_limit"] = int(rng.integers(*SEARCH_TURNS))
    return spec
