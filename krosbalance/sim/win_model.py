"""A fitted leaf for the search: the chance of winning from a position, by logistic regression on self-play.

``python -m krosbalance.sim.win_model --matches 1600 --jobs 2`` plays self-play matches and fits the
``win_model`` knob of ``mcts`` (:func:`krosbalance.ai.evaluation.evaluate_fitted`), printing it as
JSON for ``python -m krosbalance.sim.search_screen`` with the number of positions and the fit
against the hand-set evaluation's (``evaluate_holdings`` as the one predictor):

- **positions**: at the first action of each team turn, the side to move's copy of the match
  (``MatchView.clone_state``), read by :func:`~krosbalance.ai.evaluation.evaluation_terms` — the
  moment mcts's leaf is read (after the opponent's reply, its own side to move);
- **outcome**: whether the side to move went on to win (drawn matches are left out);
- **matches**: random box splits (:func:`krosbalance.ai.diagnostics.box_deals`) on the tuning boards
  (:data:`krosbalance.sim.tuning.TUNING_BOARDS`), never the boards the search is judged on, with
  the same AI on both seats;
- **fit**: a statsmodels ``Logit`` with an intercept. A term that never varies in the data (held
  tokens when no Demonic Reward was dealt) keeps its hand-set weight relative to the score's.

Like the TAG framework's and the chess engines' evaluation tuning (Texel's method), this prices the
terms by how often positions like these were won, not by hand; whether that plays better is for a
screen to say (the README's search-tier section gives the result).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from krosbalance.ai.evaluation import HOLDINGS_WEIGHTS, TERMS, evaluate_holdings, evaluation_terms
from krosbalance.ai.rollout import ReplayDice
from krosbalance.engine.legal import Action
from krosbalance.engine.view import MatchView
from krosbalance.errors import KrosbalanceError

#: the temporary registry name of the recording AI
RECORDER = "win-model-recorder"
#: a recorded position: the mover's side, its evaluation terms, the hand-set evaluation
Position = tuple[int, list[float], float]


class _Recorder:
    """An AI that records each of its team turns' first position, then plays as ``player``."""

    def __init__(self, player: Any, positions: list[Position]) -> None:
        self._player = player
        self._positions = positions
        self._turn = -1

    def choose_action(self, view: MatchView) -> Action:
        if view.active is not None and view.turn != self._turn:
            self._turn = view.turn
            state = view.clone_state(ReplayDice([0]))
            self._positions.append(
                (view.side, evaluation_terms(state, view.side), evaluate_holdings(state, view.side))
            )
        result: Action = self._player.choose_action(view)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self._player, name)


def record_match(
    ai: str, team0: Sequence[str], team1: Sequence[str], board: str, seed: int
) -> list[tuple[list[float], float, float]]:
    """One self-play match of ``ai``: for every recorded position its terms, the hand-set
    evaluation and 1.0 if its mover won, 0.0 if it lost (none for a draw)."""
    from krosbalance.ai.registry import ai_rulesets, get_ai, register_ai, unregister_ai
    from krosbalance.play import play_match

    positions: list[Position] = []
    factory = get_ai(ai, "arena")
    register_ai(
        RECORDER, lambda rng: _Recorder(factory(rng), positions), tier="search", rulesets=ai_rulesets(ai)
    )
    try:
        result = play_match(list(team0), list(team1), board=board, ai=(RECORDER, RECORDER), seed=seed)
    finally:
        unregister_ai(RECORDER)
    if result.winner is None:
        return []
    return [(terms, value, 1.0 if side == result.winner else 0.0) for side, terms, value in positions]


@dataclass(frozen=True)
class Fit:
    """The fitted model and how well it and the hand-set evaluation predict the outcomes."""

    model: tuple[float, ...]  # the intercept, then one coefficient per TERMS
    positions: int
    matches: int
    log_likelihood: float
    hand_set_log_likelihood: float  # a logistic fit on evaluate_holdings alone

    def knob(self) -> str:
        return json.dumps({"win_model": [round(c, 5) for c in self.model]})


def fit(rows: Sequence[tuple[list[float], float, float]], matches: int) -> Fit:
    """The logistic model of the outcome on the terms (see the module docstring)."""
    import statsmodels.api as sm

    terms = np.array([r[0] for r in rows], dtype=float)
    hand_set = np.array([r[1] for r in rows], dtype=float)
    won = np.array([r[2] for r in rows], dtype=float)
    varying = [i for i in range(len(TERMS)) if terms[:, i].std() > 1e-9]
    if 0 not in varying:
        raise KrosbalanceError("win_model: the score never varies in these matches: play more of them")
    result = sm.Logit(won, sm.add_constant(terms[:, varying], has_constant="add")).fit(disp=0)
    coefficients = [0.0] * len(TERMS)
    for column, term in enumerate(varying):
        coefficients[term] = float(result.params[column + 1])
    for term in range(len(TERMS)):
        if term not in varying:
            coefficients[term] = HOLDINGS_WEIGHTS[term] * coefficients[0]
    baseline = sm.Logit(won, sm.add_constant(hand_set, has_constant="add")).fit(disp=0)
    return Fit(
        (float(result.params[0]), *coefficients), len(rows), matches, float(result.llf), float(baseline.llf)
    )


def collect(ai: str, matches: int, seed: int, n_jobs: int = 1) -> list[tuple[list[float], float, float]]:
    """The positions of ``matches`` self-play matches on the tuning boards, in deal order."""
    from krosbalance.ai.diagnostics import box_deals
    from krosbalance.sim.backends import executor
    from krosbalance.sim.tuning import TUNING_BOARDS

    deals = box_deals(matches, seed)
    rows: list[tuple[list[float], float, float]] = []
    with executor("loky", n_jobs) as pool:
        futures = [
            pool.submit(record_match, ai, team0, team1, TUNING_BOARDS[i % len(TUNING_BOARDS)], match_seed)
            for i, (team0, team1, match_seed) in enumerate(deals)
        ]
        for future in futures:
            rows.extend(future.result())
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.sim.win_model", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--ai", default="lookahead", help="the AI on both seats (default lookahead)")
    parser.add_argument("--matches", type=int, default=1600)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        from krosbalance.ai.registry import get_ai

        get_ai(args.ai, "arena")
        if args.matches < 1:
            raise KrosbalanceError(f"--matches must be at least 1, got {args.matches}")
        rows = collect(args.ai, args.matches, args.seed, args.jobs)
        result = fit(rows, args.matches)
    except KrosbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"{result.positions} positions of {result.matches} {args.ai} self-play matches; log-likelihood "
        f"{result.log_likelihood:.1f} (the hand-set evaluation alone: {result.hand_set_log_likelihood:.1f})"
    )
    for name, coefficient in zip(("intercept", *TERMS), result.model, strict=True):
        print(f"  {name:20s} {coefficient:+.5f}")
    print(result.knob())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
