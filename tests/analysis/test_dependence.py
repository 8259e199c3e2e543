"""Per-AI and per-board numbers, rank stability and verdicts that must hold across AI tiers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from krosbalance.ai.ladder import LadderStanding
from krosbalance.analysis import dependence
from tests.analysis.fixtures import planted_by_ai, planted_tables


@pytest.fixture(scope="module")
def by_ai() -> pd.DataFrame:
    return planted_by_ai(400, seed=3, boards=("tiny", "wide"))[0]


@pytest.fixture
def tiers(monkeypatch) -> dict[str, str]:
    """The planted AIs are registered nowhere: give them tiers here."""
    table = {"brawler": "heuristic", "sniper": "heuristic", "greedy": "heuristic", "floor": "baseline"}
    monkeypatch.setattr(dependence, "ai_tier", lambda ai: table.get(ai, "unknown"))
    return table


def _validated(*ais: str, tier: str = "heuristic") -> dict[str, LadderStanding]:
    return {a: LadderStanding(a, tier, 0.0, -0.1, 0.1, 400, True) for a in ais}


def test_strength_per_ai_recovers_what_each_ai_makes_of_a_character(by_ai) -> None:
    long = dependence.strength_by(by_ai, "ai_matchup")
    assert list(dict.fromkeys(long["group"])) == ["pooled", "brawler", "sniper"]
    coef = long.pivot(index="term", columns="group", values="coef")
    hi = long.pivot(index="term", columns="group", values="ci_high")
    lo = long.pivot(index="term", columns="group", values="ci_low")
    assert hi.loc["anchor", "brawler"] < 0 < lo.loc["anchor", "sniper"]  # the planted disagreement
    assert lo.loc["star", "brawler"] > 0 and lo.loc["star", "sniper"] > 0  # both agree on star
    assert coef.loc["star", "pooled"] == pytest.approx(coef.loc["star"].drop("pooled").mean(), abs=0.2)
    n = long.drop_duplicates("group").set_index("group")["n_matches"]
    assert n["pooled"] == n["brawler"] + n["sniper"]


def test_rank_stability_is_high_between_boards_and_lower_between_ais_that_disagree(by_ai) -> None:
    tau_ai = dependence.rank_stability(dependence.strength_by(by_ai, "ai_matchup"))
    tau_board = dependence.rank_stability(dependence.strength_by(by_ai, "board"))
    assert len(tau_ai) == len(tau_board) == 1 and tau_ai["characters"].iloc[0] == 8
    assert tau_board["tau"].iloc[0] > tau_ai["tau"].iloc[0]
    assert -1 <= tau_ai["tau"].iloc[0] <= 1


def test_headline_numbers_per_group_come_with_n_and_intervals(by_ai) -> None:
    head = dependence.headline_by(by_ai, "board")
    assert head["group"].tolist() == ["pooled", "tiny", "wide"]
    assert head["matches"].iloc[0] == head["matches"].iloc[1:].sum()
    for est, lo, hi in (
        ("first_rate", "first_ci_low", "first_ci_high"),
        ("strongest_coef", "strongest_ci_low", "strongest_ci_high"),
    ):
        assert (head[lo] <= head[est]).all() and (head[est] <= head[hi]).all()
    assert (head["strongest"] == "star").all()


def test_verdicts_hold_only_when_the_ais_agree(by_ai, tiers) -> None:
    v = dependence.verdicts(by_ai, _validated("brawler", "sniper")).set_index("character")
    assert v.loc["star", "verdict"] == "over-powered"
    assert v.loc["anchor", "verdict"] == "depends on AI"  # weak under one AI, strong under the other
    assert v["basis"].iloc[0].startswith("validated tier(s): heuristic")
    assert set(v["verdict"]) <= {"over-powered", "under-powered", "depends on AI", "not shown"}


def test_verdicts_on_unvalidated_ais_say_so(by_ai, tiers) -> None:
    v = dependence.verdicts(by_ai, {})
    assert v["basis"].iloc[0].startswith("AIs not validated") and "provisional" in v["basis"].iloc[0]
    only_brawler = dependence.verdicts(by_ai, _validated("brawler"))
    assert "brawler" in only_brawler["basis"].iloc[0] and "sniper" not in only_brawler["basis"].iloc[0]
    assert only_brawler.set_index("character").loc["anchor", "verdict"] == "under-powered"


def test_a_dissenting_ai_turns_a_verdict_into_depends_on_ai(tiers) -> None:
    strong = {**dict.fromkeys(["star", "tagalong", "hero", "anchor", "bolt", "fern", "gale", "moss"], 0.0)}
    a, _ = planted_tables(300, seed=1, ai="brawler", strength={**strong, "star": 1.0}, draw_rate=0.0)
    b, _ = planted_tables(
        500,
        seed=2,
        ai="sniper",
        strength={**strong, "star": -1.0},
        draw_rate=0.0,
        first_id=1000,
        first_pairing=500,
    )
    c, _ = planted_tables(
        1000,
        seed=3,
        ai="greedy",
        strength={**strong, "star": 1.0},
        draw_rate=0.0,
        first_id=2000,
        first_pairing=1000,
    )
    v = dependence.verdicts(pd.concat([a, b, c]), _validated("brawler", "sniper", "greedy")).set_index(
        "character"
    )
    assert v.loc["star", "heuristic"] > 0
    assert v.loc["star", "verdict"] == "depends on AI" and v.loc["star", "dissent"] == "sniper"


def test_lopsided_ai_matchups_are_kept_out_of_character_strengths(tiers) -> None:
    m, _ = planted_tables(200, seed=5, ai="brawler")
    lopsided = m.assign(
        ai1=np.where(m["swapped"], "brawler", "floor"), ai0=np.where(m["swapped"], "floor", "brawler")
    )
    long = dependence.strength_by(
        pd.concat([m, lopsided.assign(match_id=lopsided["match_id"] + 10_000)]), "ai_matchup"
    )
    assert set(long["group"]) == {"pooled", "brawler"}
    assert (
        long.loc[long["group"] == "pooled", "n_matches"].iloc[0]
        == long.loc[long["group"] == "brawler", "n_matches"].iloc[0]
    )
    assert dependence.matchup_label("floor", "brawler") == "brawler vs floor"
