"""Deployment judged by rollouts: where the team starts, tried on copies of the match.

The heuristic deploys by a rule (melee figures nearest the enemy, ranged ones behind:
:func:`.tension.deployment_cells`); a search AI can instead try a few deployments — the
heuristic's, and others drawn from the same edge (the heuristic's cells dealt to the figures in
another order, or one or two figures moved to cells the heuristic left free) — each on copies of the match: the
opponent, when it has not deployed yet, deploys by its model (R-A25: the first player places first),
then game turns are played by the heuristics (this side's ``base``, the opponent's ``model``) until
this side has had its first turn and the opponent its reply, and the copy is judged by the search's
own evaluation (at the same point as a plan's rollout: this side to move). Every deployment meets the same
worlds (common random numbers), and the one with the best mean is played (ties: the heuristic's).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from krosbalance.ai.determinize import redeal
from krosbalance.ai.planner import HeuristicAI
from krosbalance.ai.rollout import ReplayDice, play_turn
from krosbalance.engine.pieces import place
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import FighterView, MatchView

#: raw faces pre-drawn per world
FACES_PER_WORLD = 512


def deployment_candidates(
    first: list[int], cells: list[int], count: int, rng: np.random.Generator
) -> list[list[int]]:
    """``first`` (the heuristic's cells, one per figure) and up to ``count - 1`` other deployments
    on ``cells``: the same cells dealt in another order, or some figures moved to other free cells;
    no deployment twice."""
    out = [list(first)]
    seen = {tuple(first)}
    spare = [c for c in cells if c not in first]
    for _ in range(count * 8):
        if len(out) >= count:
            break
        chosen = list(first)
        if spare and rng.random() < 0.5:
            # one or two figures to cells the heuristic left free
            for _ in range(int(rng.integers(1, 3))):
                i = int(rng.integers(len(chosen)))
                options = [c for c in spare if c not in chosen]
                if options:
                    chosen[i] = options[int(rng.integers(len(options)))]
        else:
            order = rng.permutation(len(chosen))
            chosen = [first[int(i)] for i in order]
        key = tuple(chosen)
        if key not in seen:
            seen.add(key)
            out.append(chosen)
    return out


def search_deployment(
    view: MatchView,
    fighters: list[FighterView],
    cells: list[int],
    base: HeuristicAI,
    model: HeuristicAI,
    evaluate: Callable[[MatchState, int], float],
    rng: np.random.Generator,
    count: int,
    worlds: int,
) -> list[int]:
    """The deployment with the best mean evaluation over ``worlds`` shared worlds, among
    :func:`deployment_candidates` (see the module docstring)."""
    first = base.choose_deployment(view, fighters, cells)
    options = deployment_candidates(first, cells, count, rng)
    if len(options) == 1:
        return first
    drawn = [
        (rng.integers(0, 6, size=FACES_PER_WORLD).tolist(), int(rng.integers(0, 2**62)))
        for _ in range(worlds)
    ]
    side = view.side
    best, best_value = first, -1e18
    for chosen in options:
        total = 0.0
        for faces, deal in drawn:
            state = view.clone_state(ReplayDice(faces))
            redeal(state, side, np.random.default_rng(deal))
            _deploy(state, side, [f.uid for f in fighters], chosen, model)
            played = False  # this side has had its first turn
            while not state.finished and not (played and state.active_side == side):
                played = played or state.active_side == side
                play_turn(state, base.fork() if state.active_side == side else model.fork())
            total += evaluate(state, side)
        value = total / worlds
        if value > best_value + 1e-9:
            best, best_value = chosen, value
    return best


def _deploy(state: MatchState, side: int, uids: list[int], chosen: list[int], model: HeuristicAI) -> None:
    """This side's figures on ``chosen``; the other side's, when not yet on the board, where its model
    puts them (on the free cells of its edge, as ``rulesets.arena.pregame.deploy`` offers them)."""
    by_uid = {f.uid: f for f in state.fighters}
    for uid, cell in zip(uids, chosen, strict=True):
        place(state, by_uid[uid], cell)
    for other in range(state.n_seats):
        if other == side:
            continue
        waiting = [f for f in state.timeline[other] if f.cell < 0]
        if not waiting:
            continue
        zone = state.board.deploy[state.edges[other]]
        free = [c for c in range(state.board.n_cells) if (zone >> c) & 1 and state.is_free(c)]
        seen = MatchView(state, other)
        their = model.choose_deployment(seen, [FighterView(f) for f in waiting], free)
        for fighter, cell in zip(waiting, their, strict=True):
            place(state, fighter, cell)
