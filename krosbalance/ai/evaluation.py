"""A static evaluation of a match position, for search AIs: who is ahead, in injury units.

:func:`evaluate` reads a state the AI owns (a copy made through ``MatchView.clone_state``), Arena's
holdings through a ``MatchView`` of it (the search tier plays Arena), and adds:

- **the score**: ``GG_UNIT`` times :func:`.scoring.score_value` — the GG difference with each GG
  weighing more the closer its holder is to zero (the GG at stake), a won or lost match as
  ``WIN_SCORE``;
- **material**: each Krosmaster in play is worth ``HP_WORTH`` per HP left plus a fixed worth for
  being there (it acts, blocks and threatens), creatures half that per HP plus their token worth;
- **KO threats**: a Krosmaster the other side could KO on its next turn (its threat map against the
  HP left, :func:`.enemy_threat.ko_risk`) loses that chance of its KO's GG swing; the side to move next
  strikes first, so the threats against the side not to move weigh more;
- **kamas**: each kama is a fraction of a GG (``KAMA_WORTH``: 10 kamas buy one, R-A50).

:func:`evaluate_holdings` is the deeper search's evaluation (``ai/mcts.py``): the same score, material
and threats, with the stock priced at what it buys (:func:`holdings_value`): kamas at the going rate
of a kama through GG (``rewards.kama_rate``, less the walk to a Demon cell) and every Demonic Reward
held on a card at its worth to its holder (``rewards.reward_value``), face-down tokens in full and
face-up permanent ones for what is left of their life.
"""

from __future__ import annotations

from krosbalance.ai import enemy_threat, scoring
from krosbalance.ai.arithmetic import plain_sum
from krosbalance.ai.enemy_threat import ThreatCache
from krosbalance.ai.rewards import kama_rate, reward_value
from krosbalance.ai.scoring import GG_UNIT, SUMMON_WORTH
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
            danger = enemy_threat.threat_map(view, victims, threat_cache)
            weight = THREAT_TO_MOVER if victims == mover else THREAT_TO_OTHER
            sign = -1.0 if victims == side else 1.0
            for k in state.timeline[victims]:
                if not k.alive or k.cell < 0:
                    continue
                risk = enemy_threat.ko_risk(danger[k.cell], k.hp - k.injuries)
                if risk > 0:
                    after, wild = scoring.score_after(gg, wild_gg, 1 - victims, k.level)
                    swing = scoring.score_value(after, wild, side) - scoring.score_value(gg, wild_gg, side)
                    swing = max(-scoring.WIN_VALUE, min(scoring.WIN_VALUE, swing))
                    value += weight * risk * abs(GG_UNIT * swing) * sign
    return value


def free_for_all(n_seats: int, team_of: tuple[int, ...]) -> bool:
    """Whether a match of ``n_seats`` with these partnerships is a free-for-all: more than two
    seats, each its own partnership (R-A152)."""
    return n_seats > 2 and all(team_of[seat] == seat for seat in range(n_seats))


#: how the other partnerships' worth is summed up against one's own in :func:`evaluate_sides`
AGAINST: tuple[str, ...] = ("sum", "mean", "max")


def evaluate_sides(
    state: MatchState,
    side: int,
    threat_cache: ThreatCache | None = None,
    against: str = "sum",
    kama_worth: float = KAMA_WORTH,
    threats: bool = True,
    own: float = 1.0,
) -> float:
    """:func:`evaluate` generalised to any number of partnerships (four-player Arena, R-A150-R-A159),
    how good ``state`` is for ``side``'s partnership, in injury units:

    - **the score**: ``GG_UNIT`` times :func:`.scoring.score_value`, which already sets the
      partnership's GG against the strongest other partnership's (R-A158), a won or lost match as
      ``WIN_SCORE``;
    - **each partnership's worth**: its material (as :func:`evaluate`), its kamas, less the KO
      threats against its Krosmasters (each seat's threat map; a KO's GG swing as its victim's
      partnership sees it, the GG going to the victim's rival, :func:`.scoring.rival`), the seat to
      move next weighing ``THREAT_TO_MOVER``, the others ``THREAT_TO_OTHER``;
    - own worth less ``against`` of the others' (``sum``: every enemy's loss is a gain, as the
      heuristics' casts count it; ``mean``: the four-player game as one against the average rival;
      ``max``: only the strongest rival counts). With two players all three are :func:`evaluate`'s
      material, kamas and threats (its float order differs: two-player searches keep :func:`evaluate`).

    In two versus two the ally's seat is part of one's own partnership (its figures, kamas and
    threats count for it); in a free-for-all every other seat is a partnership of its own, and one's
    own worth weighs ``own`` times (:func:`free_for_all`; elsewhere 1): a blow one deals to one rival
    helps the other two as well, while what one loses is lost to all three.
    """
    team_of = state.team_of
    mine = team_of[side]
    if state.finished:
        if state.winner is None:
            return 0.0
        return WIN_SCORE if state.winner == mine else -WIN_SCORE
    seen = MatchView(state, side)
    arena = arena_view(seen)
    gg, wild_gg, kamas = arena.gg, arena.wild_gg, arena.kamas
    score = scoring.score_value(gg, wild_gg, side, team_of)
    if abs(score) >= scoring.WIN_VALUE:
        return WIN_SCORE if score > 0 else -WIN_SCORE
    worth = [0.0] * (max(team_of) + 1)
    for f in state.fighters:
        if not f.alive or f.cell < 0:
            continue
        team = team_of[f.side]
        if f.kind == KROSMASTER:
            worth[team] += HP_WORTH * (f.hp - f.injuries) + PRESENCE
        elif f.kind == "creature":
            worth[team] += 0.5 * HP_WORTH * (f.hp - f.injuries) + SUMMON_WORTH.get(f.spec.id, 0.5)
    for seat in range(state.n_seats):
        worth[team_of[seat]] += kama_worth * kamas[seat]
    mover = state.active_side
    for victims in range(state.n_seats if threats else 0):
        alive = [k for k in state.timeline[victims] if k.alive and k.cell >= 0]
        if not alive:
            continue
        danger = enemy_threat.threat_map(MatchView(state, victims), victims, threat_cache)
        weight = THREAT_TO_MOVER if victims == mover else THREAT_TO_OTHER
        gainer = scoring.rival(gg, team_of, victims)
        before = scoring.score_value(gg, wild_gg, victims, team_of)
        for k in alive:
            risk = enemy_threat.ko_risk(danger[k.cell], k.hp - k.injuries)
            if risk > 0:
                after, wild = scoring.score_after(gg, wild_gg, gainer, k.level, victims, team_of)
                swing = scoring.score_value(after, wild, victims, team_of) - before
                swing = max(-scoring.WIN_VALUE, min(scoring.WIN_VALUE, swing))
                worth[team_of[victims]] -= weight * risk * abs(GG_UNIT * swing)
    others = [worth[p] for p in range(len(worth)) if p != mine]
    if against == "max":
        rest = max(others)
    elif against == "mean":
        rest = plain_sum(others) / len(others)
    elif against == "sum":
        rest = plain_sum(others)
    else:
        raise ValueError(f"against must be one of {', '.join(AGAINST)}, got {against!r}")
    weight = own if free_for_all(state.n_seats, team_of) else 1.0
    return GG_UNIT * score + weight * worth[mine] - rest
