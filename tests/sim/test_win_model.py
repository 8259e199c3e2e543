"""The fitted leaf's data and fit (krosbalance.sim.win_model)."""

from __future__ import annotations

import numpy as np
import pytest

from krosbalance.ai.diagnostics import box_deals
from krosbalance.ai.evaluation import HOLDINGS_WEIGHTS, TERMS
from krosbalance.sim.tuning import TUNING_BOARDS
from krosbalance.sim.win_model import fit, main, record_match


def test_a_recorded_match_gives_each_team_turns_terms_and_whether_its_mover_won() -> None:
    team0, team1, seed = box_deals(1, 5)[0]
    rows = record_match("kiter", team0, team1, TUNING_BOARDS[0], seed)
    assert len(rows) > 6
    assert all(len(terms) == len(TERMS) for terms, _, _ in rows)
    outcomes = [won for _, _, won in rows]
    assert set(outcomes) == {0.0, 1.0}  # the two movers alternate: one won, one lost
    assert outcomes[0] != outcomes[1]


def test_the_fit_recovers_a_known_logistic_model_and_keeps_unvaried_terms_at_their_hand_set_ratio() -> None:
    rng = np.random.default_rng(0)
    truth = np.zeros(len(TERMS))
    truth[0], truth[1], truth[4] = 0.5, -0.1, 0.3
    terms = rng.normal(0, 2, size=(6000, len(TERMS)))
    terms[:, TERMS.index("held")] = 0.0  # never varies: no reward dealt
    chance = 1 / (1 + np.exp(-(0.2 + terms @ truth)))
    won = (rng.random(6000) < chance).astype(float)
    result = fit([(list(t), 0.0 + float(t[0]), float(w)) for t, w in zip(terms, won, strict=True)], 300)
    assert result.positions == 6000 and result.matches == 300
    assert result.model[0] == pytest.approx(0.2, abs=0.1)
    for index in (0, 1, 4):
        assert result.model[index + 1] == pytest.approx(truth[index], abs=0.06)
    held = TERMS.index("held")
    assert result.model[held + 1] == pytest.approx(HOLDINGS_WEIGHTS[held] * result.model[1])
    assert result.log_likelihood > result.hand_set_log_likelihood  # the score alone misses the rest
    assert result.knob().startswith('{"win_model": [')


def test_an_unknown_ai_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ai", "no-such-ai", "--matches", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
