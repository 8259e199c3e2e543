"""What a Blast match leaves in its result beyond the winner: the holdings the Divine Challenge study
reads (``MatchResult.extras``, one flat dict of plain values per match).

Keys: ``glyphs0``/``glyphs1`` (glyph cells at the end), ``peak0``/``peak1`` (most held at once),
``tier{1,3,5}_turn{0,1}`` (game turn each tier was first reached, 0 = never), ``captures0/1``,
``favors_used0/1``, ``dofus`` (its holder at the end), ``favors_left``, ``challenges`` (ids in play,
comma separated) and, per bonus of those challenges, ``uses:<challenge>/<bonus>:{0,1}`` (actives
used, passives that acted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from krosbalance.rulesets.blast.glyphs import TIER_GLYPHS

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.blast.state import BlastState


def bonus_key(challenge: str, bonus: str, side: int) -> str:
    return f"uses:{challenge}/{bonus}:{side}"


def blast_extras(state: MatchState, bs: BlastState) -> dict[str, Any]:
    extras: dict[str, Any] = {
        "dofus": bs.dofus,
        "favors_left": len(bs.deck),
        "challenges": ",".join(c.id for c in bs.challenges),
    }
    for side in (0, 1):
        extras[f"glyphs{side}"] = bs.glyphs(side)
        extras[f"peak{side}"] = bs.peak[side]
        extras[f"captures{side}"] = bs.captures[side]
        extras[f"favors_used{side}"] = bs.favor_uses[side]
        for i, need in enumerate(TIER_GLYPHS):
            extras[f"tier{need}_turn{side}"] = bs.tier_turn[side][i]
    index = 0
    for challenge in bs.challenges:
        for bonus in challenge.bonuses:
            for side in (0, 1):
                extras[bonus_key(challenge.id, bonus.id, side)] = bs.bonus_uses[side][index]
            index += 1
    return extras
