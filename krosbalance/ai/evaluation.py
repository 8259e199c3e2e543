"""A static evaluation of a match position, for search AIs: who is ahead, in injury units.

:func:`evaluate` reads a state the AI owns (a copy made through ``MatchView.clone_state``), Arena's
holdings through a ``MatchView`` of it (the search tier plays Arena), and adds:

- **the score**: ``GG_UNIT`` times :func:`.scoring.score_value` — the GG difference with each GG
  weighing more the closer its holder is to zero (the GG at stake), a won or lost match as
  ``WIN_SCORE``;
- **material**: each Krosmaster in play is worth ``HP_WORTH`` per HP left plus a fixed worth for
  being there (it acts, blocks and threatens), creatures half that per HP plus their token worth;
- **KO threats**: a Krosmaster the other side could KO on its next turn (its threat map against the
  HP left, :func:`.scoring.ko_risk`) loses that chance of its KO's GG swing; the side to move next
  strikes first, so the threats against the side not to move weigh more;
- **kamas**: each kama is a fraction of a GG (``KAMA_WORTH``: 10 kamas buy one, R-A50).

:func:`evaluate_holdings` is the deeper search's evaluation (``ai/mcts.py``): the same score, material
and threats, with the stock priced at what it buys (:func:`holdings_value`): kamas at the going rate
of a kama through GG (``rewards.kama_rate``, less the walk to a Demon cell) and every Demonic Reward
held on a card at its worth to its holder (``rewards.reward_value``), face-down tokens in full and
face-up permanent ones for what is left of their life.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from krosbalance.ai import scoring
from krosbalance.ai.rewards import kama_rate, reward_value
from krosbalance.ai.scoring import GG_UNIT, SUMMON_WORTH, ThreatCache
from krosbalance.engine.state import KROSMASTER, MatchState
from krosbalance.engine.view import FighterView, MatchView
from krosbalance.rulesets.arena.tokens import tokens_of
from krosbalance.rulesets.arena.view import arena_view

#: a decided match, in injury units
WIN_SCORE = 10_000.0
#: worth of one HP left on a Krosmaster (a means to GG: a KO of 10 HP brings 3 of the 6 GG to win)
HP_WORTH = 0.7
#: worth of a Krosmaster for being in play, besides its HP left
PRESENCE = 2.0
#: worth of a kama in the stock: a fraction of the tenth of a GG it may buy (it must still be
#: carried to a Demon cell, R-A50), so a purchase is always worth its kamas
KAMA_WORTH = 0.1
#: weight of the KO threats against the side to move next, and against the other side
THREAT_TO_MOVER = 0.25
THREAT_TO_OTHER = 0.5
#: share of a kama's going rate through GG (``rewards.kama_rate``) a kama in the stock is worth: it
#: must still be carried to a Demon cell, and part of a stock is never spent
KAMA_SHARE = 0.6
#: share of a held token's worth to its holder (``rewards.reward_value``) counted while it is held:
#: face down it gives nothing yet (R-A52) and the holder may fall before revealing it
HELD_SHARE = 0.6
#: share counted for a face-up permanent token (equipment): part of its life is spent
FACE_UP_SHARE = 0.3


def evaluate_holdings(state: MatchState, side: int, threat_cache: ThreatCache | None = None) -> float:
    """:func:`evaluate` with the stock and the cards priced at what they buy (:func:`holdings_value`)
    instead of a flat ``KAMA_WORTH`` per kama."""
    value = evaluate(state, side, threat_cache, kama_worth=0.0)
    if state.finished or abs(value) >= WIN_SCORE:
        return value
    return value + holdings_value(state, side)


def holdings_value(state: MatchState, side: int) -> float:
    """What ``side``'s kamas and held Demonic Rewards are worth, less the other side's, in injury
    units: kamas at ``KAMA_SHARE`` of the going rate through GG, tokens on living Krosmasters at
    their worth to the holder (``HELD_SHARE`` face down, ``FACE_UP_SHARE`` face-up equipment)."""
    arena = arena_view(MatchView(state, side))
    kamas = arena.kamas
    rate = KAMA_SHARE * kama_rate(arena.gg_price)
    value = rate * (kamas[side] - kamas[1 - side])
    for f in state.fighters:
        if not f.alive or f.cell < 0 or f.kind != KROSMASTER:
            continue
        tokens = tokens_of(f)
        if not tokens:
            continue
        holder = FighterView(f)
        worth = 0.0
        for token in tokens:
            if not token.face_up:
                worth += HELD_SHARE * reward_value(token.spec, holder)
            elif token.spec.kind == "equipment":
                worth += FACE_UP_SHARE * reward_value(token.spec, holder)
        value += worth if f.side == side else -worth
    return value


def evaluate(
    state: MatchState,
    side: int,
    threat_cache: ThreatCache | None = None,
    threats: bool = True,
    kama_worth: float = KAMA_WORTH,
) -> float:
    """How good ``state`` is for ``side``, in injury units (positive: ahead)."""
    if state.finished:
        if state.winner is None:
            return 0.0
        return WIN_SCORE if state.winner == side else -WIN_SCORE
    seen = MatchView(state, side)
    arena = arena_view(seen)
    gg, wild_gg, kamas = arena.gg, arena.wild_gg, arena.kamas
    score = scoring.score_value(gg, wild_gg, side)
    if abs(score) >= scoring.WIN_VALUE:
        return WIN_SCORE if score > 0 else -WIN_SCORE
    value = GG_UNIT * score
    for f in state.fighters:
        if not f.alive or f.cell < 0:
            continue
        sign = 1.0 if f.side == side else -1.0
        if f.kind == KROSMASTER:
            value += sign * (HP_WORTH * (f.hp - f.injuries) + PRESENCE)
        elif f.kind == "creature":
            value += sign * (0.5 * HP_WORTH * (f.hp - f.injuries) + SUMMON_WORTH.get(f.spec.id, 0.5))
    value += kama_worth * (kamas[side] - kamas[1 - side])
    if threats:
        mover = state.active_side
        for victims in (0, 1):
            view = MatchView(state, victims)
            danger = scoring.threat_map(view, victims, threat_cache)
            weight = THREAT_TO_MOVER if victims == mover else THREAT_TO_OTHER
            sign = -1.0 if victims == side else 1.0
            for k in state.timeline[victims]:
                if not k.alive or k.cell < 0:
                    continue
                risk = scoring.ko_risk(danger[k.cell], k.hp - k.injuries)
                if risk > 0:
                    after, wild = scoring.score_after(gg, wild_gg, 1 - victims, k.level)
                    swing = scoring.score_value(after, wild, side) - scoring.score_value(gg, wild_gg, side)
                    swing = max(-scoring.WIN_VALUE, min(scoring.WIN_VALUE, swing))
                    value += weight * risk * abs(GG_UNIT * swing) * sign
    return value


#: the names of :func:`evaluation_terms`, in order. The KO threats are split: a KO that would not
#: decide the match counts its GG swing (``threat_*``), one that would decide it its chance
#: (``win_threat_*``: the clipped swing over ``WIN_VALUE``), so a fit can price the two apart
TERMS = (
    "score",
    "hp",
    "presence",
    "creatures",
    "threat_to_mover",
    "threat_to_other",
    "win_threat_to_mover",
    "win_threat_to_other",
    "kamas",
    "held",
    "face_up",
)
#: the weights under which the terms add up to :func:`evaluate_holdings`
HOLDINGS_WEIGHTS = (
    1.0,
    HP_WORTH,
    PRESENCE,
    1.0,
    THREAT_TO_MOVER,
    THREAT_TO_OTHER,
    THREAT_TO_MOVER * GG_UNIT * scoring.WIN_VALUE,
    THREAT_TO_OTHER * GG_UNIT * scoring.WIN_VALUE,
    KAMA_SHARE,
    HELD_SHARE,
    FACE_UP_SHARE,
)


def evaluation_weights(changes: Mapping[str, object]) -> tuple[float, ...]:
    """:data:`HOLDINGS_WEIGHTS` with some terms' weights changed (by name, :data:`TERMS`); an
    unknown term or a weight that is not a number is a ValueError."""
    unknown = sorted(set(changes) - set(TERMS))
    if unknown:
        raise ValueError(f"unknown evaluation terms {', '.join(unknown)}; known: {', '.join(TERMS)}")
    weights = []
    for name, default in zip(TERMS, HOLDINGS_WEIGHTS, strict=True):
        weight = changes.get(name, default)
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise ValueError(f"the weight of {name} must be a number, got {weight!r}")
        weights.append(float(weight))
    return tuple(weights)


def evaluate_weighted(
    state: MatchState, side: int, weights: tuple[float, ...], threat_cache: ThreatCache | None = None
) -> float:
    """The :func:`evaluation_terms` under ``weights`` (a decided match: ``WIN_SCORE``); under
    :data:`HOLDINGS_WEIGHTS`, :func:`evaluate_holdings` up to rounding."""
    decided = _decided(state, side)
    if decided is not None:
        return decided
    terms = evaluation_terms(state, side, threat_cache)
    value = 0.0
    for weight, term in zip(weights, terms, strict=True):
        value += weight * term
    return value


def _decided(state: MatchState, side: int) -> float | None:
    """``WIN_SCORE`` (or its opposite, or 0 for a draw) for a match that is over or whose score
    decides it (no GG left to one side, the wild GG gone); None while it is open."""
    if state.finished:
        if state.winner is None:
            return 0.0
        return WIN_SCORE if state.winner == side else -WIN_SCORE
    arena = arena_view(MatchView(state, side))
    score = scoring.score_value(arena.gg, arena.wild_gg, side)
    if abs(score) >= scoring.WIN_VALUE:
        return WIN_SCORE if score > 0 else -WIN_SCORE
    return None


def evaluation_terms(state: MatchState, side: int, threat_cache: ThreatCache | None = None) -> list[float]:
    """The terms :func:`evaluate_holdings` weighs, unweighted, for a position still in play (no
    side at 0 GG): the score (``GG_UNIT`` times :func:`.scoring.score_value`), HP left and presence
    of the Krosmasters, the creatures' worth, the KO threats against the side to move next and
    against the other (split by whether the KO would decide the match), kamas at the going rate,
    held and face-up tokens at their worth to the holder — each this side's less the other's. A
    screen may weigh them otherwise (``MCTSAI``'s ``evaluation``)."""
    seen = MatchView(state, side)
    arena = arena_view(seen)
    gg, wild_gg, kamas = arena.gg, arena.wild_gg, arena.kamas
    terms = [0.0] * len(TERMS)
    now = scoring.score_value(gg, wild_gg, side)
    terms[0] = GG_UNIT * now
    for f in state.fighters:
        if not f.alive or f.cell < 0:
            continue
        sign = 1.0 if f.side == side else -1.0
        if f.kind == KROSMASTER:
            terms[1] += sign * (f.hp - f.injuries)
            terms[2] += sign
            holder = FighterView(f)
            for token in tokens_of(f):
                if not token.face_up:
                    terms[9] += sign * reward_value(token.spec, holder)
                elif token.spec.kind == "equipment":
                    terms[10] += sign * reward_value(token.spec, holder)
        elif f.kind == "creature":
            terms[3] += sign * (0.5 * HP_WORTH * (f.hp - f.injuries) + SUMMON_WORTH.get(f.spec.id, 0.5))
    mover = state.active_side
    for victims in (0, 1):
        danger = scoring.threat_map(MatchView(state, victims), victims, threat_cache)
        sign = -1.0 if victims == side else 1.0
        for k in state.timeline[victims]:
            if not k.alive or k.cell < 0:
                continue
            risk = scoring.ko_risk(danger[k.cell], k.hp - k.injuries)
            if risk <= 0:
                continue
            after, wild = scoring.score_after(gg, wild_gg, 1 - victims, k.level)
            swing = scoring.score_value(after, wild, side) - now
            swing = max(-scoring.WIN_VALUE, min(scoring.WIN_VALUE, swing))
            if abs(scoring.score_value(after, wild, side)) >= scoring.WIN_VALUE:
                terms[6 if victims == mover else 7] += risk * abs(swing) / scoring.WIN_VALUE * sign
            else:
                terms[4 if victims == mover else 5] += risk * abs(GG_UNIT * swing) * sign
    terms[8] = kama_rate(arena.gg_price) * (kamas[side] - kamas[1 - side])
    return terms


def evaluate_fitted(
    state: MatchState, side: int, model: tuple[float, ...], threat_cache: ThreatCache | None = None
) -> float:
    """A fitted chance of winning from ``state``, on the decided match's scale: ``WIN_SCORE`` times
    ``2p - 1``, where ``p`` is the logistic model ``model`` (its intercept, then one coefficient per
    :data:`TERMS`) of the :func:`evaluation_terms`. A won or lost match is ``WIN_SCORE`` or
    ``-WIN_SCORE`` as in :func:`evaluate`, so a rollout's mean over worlds is the chance of winning
    (as ``2p - 1``) whether or not its match ended.

    The model is fitted on self-play positions (:mod:`krosbalance.sim.win_model`): unlike the
    hand-set weights, it prices the terms against each other and against the match's end on the one
    scale they share, the odds of winning."""
    decided = _decided(state, side)
    if decided is not None:
        return decided
    z = model[0]
    for coefficient, term in zip(model[1:], evaluation_terms(state, side, threat_cache), strict=True):
        z += coefficient * term
    if z >= 0.0:
        chance = 1.0 / (1.0 + math.exp(-z))
    else:
        odds = math.exp(z)
        chance = odds / (1.0 + odds)
    return WIN_SCORE * (2.0 * chance - 1.0)


#: share of a purchase's worth kept per own turn of walking still needed to reach a Demon cell
PURCHASE_DISCOUNT = 0.7


def evaluate_purchases(state: MatchState, side: int, threat_cache: ThreatCache | None = None) -> float:
    """:func:`evaluate_holdings` with each side's kamas priced as the GG they buy
    (:func:`kamas_as_purchases`) wherever that is worth more than the flat rate."""
    value = evaluate_holdings(state, side, threat_cache)
    if state.finished or abs(value) >= WIN_SCORE:
        return value
    arena = arena_view(MatchView(state, side))
    rate = KAMA_SHARE * kama_rate(arena.gg_price)
    for owner in (side, 1 - side):
        flat = rate * arena.kamas[owner]
        gain = max(0.0, kamas_as_purchases(state, owner, rate) - flat)
        value += gain if owner == side else -gain
    return value


def kamas_as_purchases(state: MatchState, owner: int, rate: float) -> float:
    """What ``owner``'s kamas are worth as GG bought on a Demon cell (R-A50), in injury units: each
    GG they pay for at its worth at today's score (the last GG held is worth most; a GG that wins
    the match is worth the match, as the planner counts a purchase), discounted by
    ``PURCHASE_DISCOUNT`` per own turn its nearest Krosmaster needs to walk to a free Demon cell; the
    kamas left over at ``rate``. 0 purchases when no Krosmaster or no free Demon cell is left.

    The flat rate prices a stock of kamas the same at 6 GG against 6 as at 1 against 2 with the wild
    GG gone, where the next tension double (R-A26) ends the match and a GG bought is the match."""
    seen = MatchView(state, owner)
    arena = arena_view(seen)
    price = max(1, arena.gg_price)
    kamas = arena.kamas[owner]
    board = state.board
    count = kamas // price
    if count <= 0 or not board.demon_cells:
        return rate * kamas
    occupied = 0
    for f in state.fighters:
        if f.alive and f.cell >= 0:
            occupied |= 1 << f.cell
    demons = [c for c in range(board.n_cells) if (board.demon_cells >> c) & 1]
    turns = -1
    for f in state.fighters:
        if not f.alive or f.cell < 0 or f.side != owner or f.kind != KROSMASTER:
            continue
        row = board.distance[f.cell]
        for cell in demons:
            if cell != f.cell and (occupied >> cell) & 1:
                continue
            need = -(-row[cell] // max(1, f.base_mp))
            if turns < 0 or need < turns:
                turns = need
    if turns < 0:
        return rate * kamas
    share = PURCHASE_DISCOUNT**turns
    gg, wild = arena.gg, arena.wild_gg
    worth = 0.0
    for _ in range(count):
        gain = scoring.score_swing(gg, wild, owner, 1, -1, seen.team_of)
        if gain >= scoring.WIN_VALUE:
            return worth + share * GG_UNIT * scoring.WIN_VALUE
        worth += share * GG_UNIT * gain
        gg, wild = scoring.score_after(gg, wild, owner, 1, -1, seen.team_of)
    return worth + rate * (kamas - count * price)
