"""Tuned weights by self-play: Optuna's TPE sampler searches the heuristic planner's weights.

``python -m krosbalance.tools.tuning`` (or ``make tune``) tunes the weights of a candidate AI — the
``kiter`` personality with the three skills of ``kiter-2`` switched on, its other weights free in
:data:`SEARCH_SPACE` — against the ladder's current best heuristic, ``kiter-2`` itself:

- **objective**: the candidate's score (a win 1, a draw ½) over a fixed list of box deals
  (:func:`krosbalance.tools.diagnostics.box_deals`), each deal played four times — both teams on each
  seat, the candidate on each seat — with the deal's seed; every trial plays the *same* deals and
  seeds (common random numbers), so two trials differ by their weights only;
- **boards**: tuning on :data:`TUNING_BOARDS`; :data:`HELD_OUT_BOARDS` (the three boards of the AI
  ladder, ``simulations/ai-ladder.toml``) are never seen by the tuner and are where the result is
  judged (:func:`evaluate`);
- **budget by count**: ``trials`` × ``deals`` × 4 matches, then the ``finalists`` best trials are
  replayed on ``final_deals`` fresh deals (other seeds) and the best of that replay is kept: the best
  of many noisy trials is flattered by its own luck (the winner's curse), a fresh replay is not;
- **deterministic**: the sampler is seeded and trials run one after another in this process, and a
  match is a pure function of its inputs, so a seed and a budget give the same best trial.

The first trial is ``kiter-2``'s own weights (the baseline: its score is about ½ by symmetry). The
candidate plays under a temporary registry name (:func:`candidate_ai`), removed afterwards.
``--write NAME`` writes the kept weights to ``krosbalance/ai/data/tuned.toml`` with a source note
(optimiser, seed, budget, boards, date), where :mod:`krosbalance.ai.tuned` reads them.

Optuna (``pip install krosbalance[tune]``) is a well-kept optimiser with a seeded, sequential TPE
sampler that copes with a few dozen noisy trials in ten dimensions; it is imported here only, so the
rest of the package does not need it.
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from krosbalance.ai.kiter import KiterAI
from krosbalance.ai.registry import get_ai, register_ai, unregister_ai
from krosbalance.ai.skilled import skilled_weights
from krosbalance.ai.tuned import TUNED_FILE
from krosbalance.ai.weights import Weights
from krosbalance.play import play_match
from krosbalance.testing.puzzles import PUZZLES, score_table
from krosbalance.testing.skill_puzzles import SKILL_PUZZLES
from krosbalance.tools.diagnostics import box_deals

TUNING_BOARDS: tuple[str, ...] = ("bonta-2", "frigost-1", "frigost-2")
"""The boards the tuner plays on: the three Arena tournament maps the AI ladder does not use."""
HELD_OUT_BOARDS: tuple[str, ...] = ("arena-elemental", "arena-pit", "bonta-1")
"""The boards the tuned weights are judged on: the AI ladder's, never seen while tuning."""
BASE_AI = "kiter-2"
"""The AI whose weights are tuned (its skills stay on) and the opponent it is tuned against."""
SEARCH_SPACE: dict[str, tuple[float, float]] = {
    "safety": (0.4, 1.6),
    "melee_safety": (0.1, 1.0),
    "kill": (0.5, 2.0),
    "focus": (0.0, 0.9),
    "kama": (0.0, 0.8),
    "approach": (0.0, 0.5),
    "engage": (0.3, 2.0),
    "screen": (0.0, 0.9),
    "economy": (0.2, 1.8),
    "deny": (0.0, 2.0),
}
"""The tuned ``Weights`` fields and their ranges (about half to twice ``kiter-2``'s values), searched
on a grid of :data:`STEP`; every other field keeps ``kiter-2``'s value."""
STEP = 0.05
CANDIDATE = "tuning-candidate"
"""The registry name a candidate plays under while it is being scored."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What a tuning run may spend, by count: ``trials`` × ``deals`` × 4 matches, then the
    ``finalists`` × ``final_deals`` × 4 of the replay."""

    trials: int = 40
    deals: int = 60
    finalists: int = 4
    final_deals: int = 100

    @property
    def matches(self) -> int:
        return 4 * (self.trials * self.deals + min(self.finalists, self.trials) * self.final_deals)


@dataclass(frozen=True, slots=True)
class Score:
    """A candidate's score against its opponent: wins, draws, losses over the matches played."""

    wins: int
    draws: int
    losses: int

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        """Points per match (a draw is half a win)."""
        return (self.wins + 0.5 * self.draws) / max(1, self.n)

    def line(self, first: str, second: str) -> str:
        from krosbalance.analysis.stats import wilson_interval  # heavy: pandas, scipy, statsmodels

        decided = self.wins + self.losses
        low, high = wilson_interval(self.wins, decided, 0.05)
        return (
            f"{first} vs {second}: {self.wins / max(1, decided):.1%} of {decided} decided matches "
            f"(95% Wilson CI {float(low):.1%}-{float(high):.1%}), {self.draws} draws, n={self.n}"
        )


@dataclass(frozen=True, slots=True)
class TuningResult:
    """The kept weights, the score that kept them, and every trial (for the record)."""

    weights: Weights
    params: dict[str, float]
    final_score: Score
    trials: list[dict[str, Any]]
    seed: int
    budget: Budget
    boards: tuple[str, ...]


def base_weights() -> Weights:
    return skilled_weights(BASE_AI)


def candidate_weights(params: dict[str, float]) -> Weights:
    """``kiter-2``'s weights with the tuned fields replaced."""
    return replace(base_weights(), **params)


@contextmanager
def candidate_ai(weights: Weights, name: str = CANDIDATE) -> Iterator[str]:
    """A kiter with ``weights`` registered as ``name`` for the duration of the block."""

    def factory(rng: np.random.Generator) -> KiterAI:
        ai = KiterAI(rng)
        ai.weights = weights
        return ai

    register_ai(name, factory)
    try:
        yield name
    finally:
        unregister_ai(name)


def deal_list(deals: int, seed: int, boards: Sequence[str]) -> list[tuple[list[str], list[str], int, str]]:
    """``deals`` box deals with their seeds, deal ``i`` on board ``boards[i % len(boards)]``."""
    return [(a, b, s, boards[i % len(boards)]) for i, (a, b, s) in enumerate(box_deals(deals, seed))]


def score(first: str, second: str, deals: Sequence[tuple[list[str], list[str], int, str]]) -> Score:
    """``first`` against ``second``: each deal with both teams on each seat and each AI on each seat
    (four matches, the deal's seed), so team, seat and first-player effects cancel within a deal."""
    wins = draws = losses = 0
    for team0, team1, seed, board in deals:
        for t0, t1 in ((team0, team1), (team1, team0)):
            for seat in (0, 1):
                ais = (first, second) if seat == 0 else (second, first)
                winner = play_match(t0, t1, board=board, ai=ais, seed=seed).winner
                if winner is None:
                    draws += 1
                elif winner == seat:
                    wins += 1
                else:
                    losses += 1
    return Score(wins, draws, losses)


def score_weights(
    weights: Weights, opponent: str, deals: Sequence[tuple[list[str], list[str], int, str]]
) -> Score:
    with candidate_ai(weights) as name:
        return score(name, opponent, deals)


def tune(
    budget: Budget,
    seed: int = 18,
    boards: Sequence[str] = TUNING_BOARDS,
    progress: bool = False,
) -> TuningResult:
    """Search :data:`SEARCH_SPACE` with a seeded TPE sampler (see the module docstring)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    deals = deal_list(budget.deals, seed, boards)
    final = deal_list(budget.final_deals, seed + 1_000_003, boards)  # fresh deals, other seeds
    base = base_weights()

    def objective(trial: optuna.Trial) -> float:
        params = {f: trial.suggest_float(f, low, high, step=STEP) for f, (low, high) in SEARCH_SPACE.items()}
        result = score_weights(candidate_weights(params), BASE_AI, deals)
        trial.set_user_attr("wins", result.wins)
        trial.set_user_attr("draws", result.draws)
        trial.set_user_attr("losses", result.losses)
        if progress:
            print(f"trial {trial.number}: {result.rate:.3f} {params}", flush=True)
        return result.rate

    sampler = optuna.samplers.TPESampler(
        seed=seed, multivariate=True, n_startup_trials=min(10, budget.trials)
    )
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial({f: float(getattr(base, f)) for f in SEARCH_SPACE})  # the baseline first
    study.optimize(objective, n_trials=budget.trials)
    done = [t for t in study.trials if t.value is not None]
    ranked = sorted(done, key=lambda t: (-float(t.value or 0.0), t.number))[: budget.finalists]
    rows = [{"trial": t.number, "score": t.value, **t.params, **t.user_attrs} for t in study.trials]
    best_params: dict[str, float] = dict(ranked[0].params)
    best_final = Score(0, 0, 0)
    for t in ranked:
        replay = score_weights(candidate_weights(dict(t.params)), BASE_AI, final)
        for row in rows:
            if row["trial"] == t.number:
                row["final_score"] = replay.rate
        if progress:
            print(f"finalist {t.number}: {replay.rate:.3f} on {replay.n} fresh matches", flush=True)
        if replay.rate > best_final.rate or best_final.n == 0:
            best_params, best_final = dict(t.params), replay
    params = {f: round(float(v), 3) for f, v in best_params.items()}
    return TuningResult(candidate_weights(params), params, best_final, rows, seed, budget, tuple(boards))


def source_note(result: TuningResult, date: str) -> str:
    b = result.budget
    return (
        f"tuned: Optuna TPE (multivariate, seed {result.seed}) against {BASE_AI}; "
        f"{b.trials} trials x {b.deals} deals x 4 matches, best {b.finalists} replayed on "
        f"{b.final_deals} fresh deals ({b.matches} matches); tuning boards {', '.join(result.boards)}; "
        f"held out {', '.join(HELD_OUT_BOARDS)}; replay score {result.final_score.rate:.3f} "
        f"(n={result.final_score.n}); run {date}"
    )


def write_entry(name: str, result: TuningResult, path: Path = TUNED_FILE, date: str | None = None) -> Path:
    """Write (or replace) the table ``name`` of the tuned-weights file, keeping the other tables."""
    import tomllib

    date = date or dt.date.today().isoformat()
    lines = [f"[{name}]", f'base = "{BASE_AI}"', f'source = "{source_note(result, date)}"']
    lines += [f"{field} = {value}" for field, value in result.params.items()]
    entry = "\n".join(lines) + "\n"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if name in tomllib.loads(text):
        head, _, rest = text.partition(f"[{name}]\n")
        after = rest.find("\n[")
        text = head + entry + ("" if after < 0 else rest[after:])
    else:
        text = text + ("\n" if text else "") + entry
    path.write_text(text, encoding="utf-8")
    return path


def evaluate(name: str, opponents: Sequence[str], deals: int, seed: int = 81) -> list[str]:
    """``name`` against each opponent on :data:`HELD_OUT_BOARDS` (4 matches a deal), one line each."""
    held = deal_list(deals, seed, HELD_OUT_BOARDS)
    return [score(name, opponent, held).line(name, opponent) for opponent in opponents]


def puzzle_scores(ais: Sequence[str], seeds: int = 8) -> list[str]:
    """Per AI, the puzzles solved (solve rate summed over :data:`krosbalance.testing.puzzles.PUZZLES`)
    and the skill puzzles solved (:data:`krosbalance.testing.skill_puzzles.SKILL_PUZZLES`), over
    ``seeds`` seeds each, one line per AI."""
    lines = []
    for puzzles, label in ((PUZZLES, "puzzles"), (SKILL_PUZZLES, "skill puzzles")):
        table = score_table(list(ais), range(seeds), puzzles)
        for ai, rates in table.items():
            lines.append(f"{ai}: {sum(rates.values()):.2f} of {len(rates)} {label} ({seeds} seeds each)")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.tuning", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--trials", type=int, default=Budget.trials)
    parser.add_argument("--deals", type=int, default=Budget.deals, help="deals per trial (4 matches each)")
    parser.add_argument("--finalists", type=int, default=Budget.finalists)
    parser.add_argument("--final-deals", type=int, default=Budget.final_deals)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--trials-csv", type=Path, help="write every trial to this CSV file")
    parser.add_argument("--write", metavar="NAME", help="write the kept weights as NAME to tuned.toml")
    parser.add_argument(
        "--evaluate",
        metavar="NAME",
        help="instead of tuning: NAME vs kiter-2 and kiter on the held-out boards",
    )
    parser.add_argument(
        "--eval-deals", type=int, default=80, help="held-out deals (4 matches each; 0: puzzles only)"
    )
    args = parser.parse_args(argv)
    if args.evaluate:
        get_ai(args.evaluate, "arena")
        for line in puzzle_scores(("kiter", "kiter-2", args.evaluate)):
            print(line, flush=True)
        if args.eval_deals:
            for line in evaluate(args.evaluate, ("kiter-2", "kiter"), args.eval_deals):
                print(line, flush=True)
        return
    budget = Budget(args.trials, args.deals, args.finalists, args.final_deals)
    print(f"tuning {BASE_AI} on {', '.join(TUNING_BOARDS)}: {budget.matches} matches", flush=True)
    result = tune(budget, args.seed, progress=True)
    print(f"kept {result.params}: {result.final_score.line('kept', BASE_AI)}")
    if args.trials_csv:
        import pandas as pd

        pd.DataFrame(result.trials).to_csv(args.trials_csv, index=False)
    if args.write:
        print(f"wrote {write_entry(args.write, result)}")


if __name__ == "__main__":
    main()
