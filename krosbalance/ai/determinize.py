"""Determinization: one possible world consistent with what a side has seen.

A search copy (``MatchView.clone_state``) already holds none of the opponent's traps and deals the
Demonic Rewards this side has not seen again in an order fixed by public facts, so it tells nothing
of the real pile order or the enemy's hand. A determinizing search needs *several* such worlds, each
a different guess: :func:`redeal` shuffles, with the search's own random stream, the same pool the
copy was dealt from (per rank: the market's face-down piles and the enemy's face-down tokens, R-A51,
R-A52) and deals it back to the same places, each keeping its rank and count. The pool is a set of
tokens this side cannot tell apart from where it sits, so every world is one the side must allow.
Dice are the other unseen thing; a world's dice are a pre-drawn list of faces (``ReplayDice``).
"""

from __future__ import annotations

import numpy as np

from krosbalance.content.specs import RANKS, RewardSpec
from krosbalance.engine.state import MatchState
from krosbalance.rulesets.arena.state import ArenaState
from krosbalance.rulesets.arena.tokens import tokens_of


def redeal(state: MatchState, side: int, rng: np.random.Generator) -> None:
    """Shuffle, in the search copy ``state``, the Demonic Rewards ``side`` has not seen, and deal
    them back where they were (see the module docstring). A copy of a match without rewards is left
    as it is."""
    rules = state.rules
    if not isinstance(rules, ArenaState):
        return
    market = rules.market
    if market is None:
        return
    hidden = [t for f in state.fighters if f.side != side for t in tokens_of(f) if not t.face_up]
    piles = market.piles
    for rank, name in enumerate(RANKS):
        held = [t for t in hidden if t.spec.rank == name]
        two = (piles[2 * rank], piles[2 * rank + 1])
        pool: list[RewardSpec] = [s for pile in two for s in pile] + [t.spec for t in held]
        if len(pool) < 2:
            continue
        order = rng.permutation(len(pool)).tolist()
        dealt = [pool[i] for i in order]
        for token in held:
            token.spec = dealt.pop()
        for pile in two:
            count = len(pile)
            pile.clear()
            pile.extend([dealt.pop() for _ in range(count)])
