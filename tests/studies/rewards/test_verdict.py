"""The rewards study's verdict picture: a reward-value report leads with each token's value (moved from
tests/analysis/test_verdict.py)."""

from __future__ import annotations

import numpy as np

from krosbalance.analysis.report import build_document
from krosbalance.analysis.resultset import ResultSet
from tests.analysis.verdict_checks import assert_report_leads_with_the_answer


def test_a_reward_value_report_leads_with_each_tokens_value() -> None:
    from tests.studies.rewards.test_value import value_matches

    m = value_matches(n_deals=30)
    m = m.assign(team_a="x,y", team_b="z,w", team0="x,y", team1="z,w", pairing=0, board="arena-pit")
    m["first_player"] = np.arange(len(m)) % 2
    _, doc, tables = build_document(ResultSet(m))
    assert_report_leads_with_the_answer(doc, tables, "Demonic Reward value")
    assert {"strong", "weak", "middling"} <= set(tables["verdict"]["figure"])  # ids: not in the registry
