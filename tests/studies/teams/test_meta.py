"""The meta-game's solvers on games whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd

from krosbalance.studies.teams.meta import alpha_rank, effective_number, meta_game, nash_mixture

ROCK_PAPER_SCISSORS = np.array([[0.5, 0.2, 0.8], [0.8, 0.5, 0.2], [0.2, 0.8, 0.5]])


def test_rock_paper_scissors_has_the_uniform_equilibrium_and_three_viable_teams() -> None:
    x = nash_mixture(ROCK_PAPER_SCISSORS)
    assert np.allclose(x, 1 / 3, atol=1e-6)
    assert abs(effective_number(x) - 3) < 1e-6
    assert np.allclose(alpha_rank(ROCK_PAPER_SCISSORS), 1 / 3, atol=1e-6)


def test_a_dominant_team_is_the_whole_support_and_the_alpha_rank_sink() -> None:
    w = np.array([[0.5, 0.7, 0.9], [0.3, 0.5, 0.6], [0.1, 0.4, 0.5]])
    x = nash_mixture(w)
    assert np.allclose(x, [1, 0, 0], atol=1e-6) and abs(effective_number(x) - 1) < 1e-9
    pi = alpha_rank(w)
    assert pi.argmax() == 0 and pi[0] > 0.9


def test_meta_game_reads_the_long_matrix_and_bootstraps_the_support() -> None:
    teams = ["a", "b", "c"]
    rows = [
        {"team": t, "opponent": o, "win_rate": ROCK_PAPER_SCISSORS[i, j], "se": 0.01}
        for i, t in enumerate(teams)
        for j, o in enumerate(teams)
        if i != j
    ]
    meta = meta_game(pd.DataFrame(rows), teams, bootstrap=20)
    assert meta["in_support"].all() and (meta["support_share"] == 1).all()
    assert abs(meta.attrs["effective_teams_nash"] - 3) < 1e-6
    assert abs(meta.attrs["effective_teams_bootstrap"] - 3) < 0.05
