"""A static evaluation of a Krosmaster Blast position, for the Blast search (``ai/blast/lookahead.py``):
who is ahead, in injury units.

Blast is won two ways (R-B2, R-B3): a KO of half the other team ends the game at once, and when the
favor deck runs out the player with more glyph cells wins. So :func:`evaluate` counts, for one side
against the other:

- **a decided game**: ``WIN_SCORE`` for a win, its negative for a loss, 0 for a draw;
- **material**: every HP left on a Krosmaster in play (``HP_WORTH``) and its being there
  (``PRESENCE``); an Invocation half that per HP plus ``INVOCATION``;
- **KO threats**: a Krosmaster the other side's Krosmasters could reach next turn risks its KO (the
  duel search's rough threat, ``ai/duel/evaluation.ko_risk``) weighed ``KO_WORTH`` (a KO is the
  game in a team of two); the side to move next strikes first, so threats against it weigh less;
- **glyph progress**: the glyph cells held beyond the other side's, each worth ``GLYPH_WORTH`` plus
  ``GLYPH_CLOCK`` over the favors left plus one (a lead counts more as the deck runs out: at its end
  it is the game, R-B3).

assumed: the weights are the search's own choice (screened, ``reports/ai-ladder-blast/``); the rules
say nothing of them. The state is a search copy (``MatchView.clone_state``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from krosbalance.ai.duel.evaluation import ko_risk
from krosbalance.engine.state import CREATURE, KROSMASTER

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.blast.state import BlastState

#: a decided game, in injury units
WIN_SCORE = 10_000.0
#: worth of one HP left on a Krosmaster
HP_WORTH = 1.0
#: worth of a Krosmaster for being in play, besides its HP left
PRESENCE = 4.0
#: worth of an Invocation for being in play, besides half an HP's worth per HP left
INVOCATION = 0.5
#: worth of a KO, weighed by its rough chance (a KO of one of two Krosmasters loses the game)
KO_WORTH = 20.0
#: weight of the KO threats against the side to move next, and against the other side
THREAT_TO_MOVER = 0.25
THREAT_TO_OTHER = 0.5
#: worth of one glyph cell of lead, and what it gains as the favor deck runs out
GLYPH_WORTH = 3.0
GLYPH_CLOCK = 12.0


def evaluate(state: MatchState, side: int) -> float:
    """How good ``state`` is for ``side``, in injury units (positive: ahead)."""
    if state.finished:
        if state.winner is None:
            return 0.0
        return WIN_SCORE if state.winner == side else -WIN_SCORE
    bs = cast("BlastState", state.rules)
    value = 0.0
    for f in state.fighters:
        if not f.alive or f.cell < 0:
            continue
        sign = 1.0 if f.side == side else -1.0
        left = f.hp - f.injuries
        if f.kind == KROSMASTER:
            value += sign * (HP_WORTH * left + PRESENCE)
            weight = THREAT_TO_MOVER if f.side == state.active_side else THREAT_TO_OTHER
            value -= sign * weight * KO_WORTH * ko_risk(state, f, left)
        elif f.kind == CREATURE:
            value += sign * (0.5 * HP_WORTH * left + INVOCATION)
    lead = bs.glyphs(side) - bs.glyphs(1 - side)
    value += lead * (GLYPH_WORTH + GLYPH_CLOCK / (len(bs.deck) + 1))
    return value
