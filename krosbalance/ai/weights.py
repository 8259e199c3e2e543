"""What a heuristic personality cares about: the weights the shared planner scores plans with.

Kept apart from the planner so a personality (focus fire, kiter, objective) is one ``Weights`` value
and the valuation modules (:mod:`.casts`, :mod:`.positions`, :mod:`.tension`) can take it without
importing the AI class.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from krosbalance.content.specs import Frozen
from krosbalance.errors import ContentError


@dataclass(frozen=True, slots=True)
class Weights(Frozen):
    """What a personality cares about, in injury units (see :mod:`krosbalance.ai.scoring`)."""

    damage: float = 1.0  # per expected injury dealt
    kill: float = 1.0  # times the KO's GG swing
    focus: float = 0.3  # extra per fraction of the target's HP already lost
    safety: float = 0.35  # per expected injury taken next turn (and KO risk)
    kama: float = 0.25  # per kama picked up
    objective: float = 0.0  # per cell of distance to kamas / Demon cells
    approach: float = 0.15  # per cell short of striking distance of the nearest enemy
    kite: bool = False  # hold at range instead of closing in
    heal: float = 1.0  # per expected injury healed
    summon: float = 1.0  # times a token's worth
    support: float = 0.6  # per point of summoner bonus a creature gives by standing next to an enemy
    refund: float = 0.2  # per kama refunded by tension dice
    inspire: float = 1.0  # times an inspiration's estimated worth
    melee_safety: float = 0.35  # the most a melee figure's safety weighs (at most ``safety``)
    engage: float = 1.0  # times the worth of a melee figure's pins and next-turn strike
    team: float = 1.0  # times the share of the team's KO that a hit on the team's target brings
    screen: float = 0.3  # times the shots a body on an enemy's line to an ally blocks
    economy: float = 0.8  # times the worth of a GG the team can afford, for walking to a Demon cell
    keep_limited: float = 0.6  # a once-per-game spell costs this fraction of its worth on a Krosmaster
    # the skills of issue 18 (off in the untuned personalities, so old studies replay exactly; the
    # ``-2`` AIs switch them on from krosbalance/ai/data/skills.toml)
    buy_first: bool = False  # on a Demon cell, buy the GG before picking a kama; buy, then walk on
    free_escape: bool = False  # after a spell that moves the caster (Retreat Shot), walk on from there
    deny: float = 0.0  # times the opponent's next-turn GG purchase that ending on its Demon cell stops


def weights_with(
    base: Weights, entry: dict[str, object], file: str, name: str, skip: tuple[str, ...]
) -> Weights:
    """``base`` with the fields that the data-file table ``entry`` (the AI ``name`` of ``file``) sets;
    the keys in ``skip`` are the table's own (its base, its source note). A key that is no
    ``Weights`` field, or a value of the wrong type (a number for a switch, a switch or text for a
    number), is a ``ContentError`` naming the file and the field: one line for the user."""
    known = {f.name for f in fields(Weights)}
    changes: dict[str, object] = {}
    for key, value in entry.items():
        if key in skip:
            continue
        if key not in known:
            raise ContentError(file, f"{name}.{key}", "not a Weights field")
        default = getattr(base, key)
        if isinstance(default, bool) != isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ContentError(file, f"{name}.{key}", f"expected {type(default).__name__}, got {value!r}")
        changes[key] = value if isinstance(default, bool) else float(value)
    return replace(base, **changes)  # type: ignore[arg-type]
