"""What a Blast personality cares about, as numbers (the Blast planner reads nothing else)."""

from __future__ import annotations

from dataclasses import dataclass

from krosbalance.content.specs import Frozen


@dataclass(frozen=True, slots=True)
class BlastWeights(Frozen):
    """Weights of the Blast planner (``krosbalance.ai.blast.planner``).

    Attributes:
        capture: a neutral glyph cell captured on the way.
        flip: an opponent's glyph cell taken (it also costs him one).
        damage: one expected injury dealt to an enemy Krosmaster (Invocations count ``minion``).
        minion: the share of ``damage`` an injury to an enemy Invocation is worth.
        ko: an enemy Krosmaster KO'd (half the team: the game, R-B2).
        heal: one injury healed on an allied Krosmaster.
        summon: an Invocation put in play.
        hold: standing on one's own glyph cell that an enemy Krosmaster could reach next turn.
        guard: an Invocation standing on one's own glyph cell (enemies cannot enter it).
        safety: one injury the enemy could deal to the end cell next turn (subtracted).
        danger: ending where the enemy could deal at least the Krosmaster's remaining HP next turn
            (a KO there loses the game, R-B2; subtracted).
        approach: per cell closer to the nearest enemy Krosmaster (brawlers close in).
        near_glyph: per cell closer to the nearest glyph cell not yet one's own.
        urgency: how much captures gain when few favors are left (glyph race vs favor clock).
    """

    capture: float = 10.0
    flip: float = 14.0
    damage: float = 2.0
    minion: float = 0.4
    ko: float = 60.0
    heal: float = 1.5
    summon: float = 3.0
    hold: float = 3.0
    guard: float = 2.0
    safety: float = 1.0
    danger: float = 40.0
    approach: float = 0.0
    near_glyph: float = 1.0
    urgency: float = 1.0


GLYPH = BlastWeights()
BRAWLER = BlastWeights(
    capture=4.0,
    flip=5.0,
    damage=5.0,
    ko=80.0,
    heal=1.0,
    hold=0.5,
    guard=0.5,
    safety=0.3,
    danger=10.0,
    approach=1.2,
    near_glyph=0.3,
    urgency=2.0,
)
