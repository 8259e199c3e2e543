"""The priced reward study's analysis on synthetic tables: per holder, as purchases, reveal timing."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from krosbalance.analysis.document import Doc
from krosbalance.sim.reward_arms import variant_options
from krosbalance.studies.rewards.purchase import (
    arm_of,
    holder_summary,
    holder_value,
    is_priced_experiment,
    purchase_value,
    report_section,
    reveal_timing,
)
from krosbalance.studies.rewards.value import controlled_value

DEALS = 6


def _match(mid: int, seed: int, swapped: bool, variant: str, a_wins: bool) -> dict:
    winner_team = "A" if a_wins else "B"
    winner = (1 if swapped else 0) if a_wins else (0 if swapped else 1)
    return {
        "match_id": mid,
        "seed": seed,
        "swapped": swapped,
        "ai0": "focus_fire",
        "ai1": "focus_fire",
        "options": variant_options({}, variant, swapped),
        "variant": variant,
        "winner": winner,
        "winner_team": winner_team,
        "end_reason": "gg",
        "error": "",
        "gg0": 0,
        "gg1": 0,
        "turns": 8,
    }


def synthetic() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Team A loses every baseline; 'tok' on 'good' wins always, on 'bad' never; 'buy:tok' is bought
    (turn 3) and won in the deals of even seed only; held tokens are revealed at turn 2."""
    rows, fighters = [], []
    mid = 0
    for seed in range(DEALS):
        for swapped in (False, True):
            side_a = 1 if swapped else 0
            for variant, wins in (
                ("", False),
                ("tok@good", True),
                ("tok@bad", False),
                ("buy:tok", seed % 2 == 0),
            ):
                rows.append(_match(mid, seed, swapped, variant, wins))
                for who in ("good", "bad"):
                    held = used = held_t = used_t = ""
                    if variant == f"tok@{who}":
                        held, held_t = "tok:s", "0"
                        used, used_t = ("tok", "2") if who == "good" else ("", "")
                    if variant == "buy:tok" and who == "good" and seed % 2 == 0:
                        held, held_t, used, used_t = "tok:v", "3", "tok", "4"
                    fighters.append(
                        {
                            "match_id": mid,
                            "side": side_a,
                            "character": who,
                            "rewards_held": held,
                            "rewards_held_turns": held_t,
                            "rewards_used": used,
                            "rewards_used_turns": used_t,
                        }
                    )
                mid += 1
    return pd.DataFrame(rows), pd.DataFrame(fighters)


def test_arm_of_reads_team_as_side_from_the_options() -> None:
    assert arm_of(variant_options({}, "tok@x", True), True) == ("holder", "tok", "x")
    assert arm_of(variant_options({}, "tok@x", True), False) == ("", "", "")  # team B holds nothing
    assert arm_of(variant_options({}, "buy:tok", False), False) == ("buy", "tok", "")
    assert arm_of(json.dumps({"demonic_rewards": True}), False)[0] == "other"


def test_per_holder_delta_best_and_mean_holder() -> None:
    matches, _ = synthetic()
    assert is_priced_experiment(matches)
    per = holder_value(matches).set_index("holder")
    assert per.loc["good", "delta"] == pytest.approx(1.0) and per.loc["bad", "delta"] == pytest.approx(0.0)
    assert per.loc["good", "n_deals"] == DEALS and per.loc["good", "n_matches"] == 2 * DEALS
    assert per.loc["good", "logodds"] > 2 and per.loc["good", "logodds_low"] > 0
    (row,) = holder_summary(matches).to_dict("records")
    assert row["best_holder"] == "good" and row["worst_holder"] == "bad"
    # identical deals (no spread): an interval all the same, never zero-wide at a handful of deals
    assert row["mean_delta"] == pytest.approx(0.5) and 0 < row["mean_low"] < 0.5 < row["mean_high"] <= 1


def test_r_a136_purchase_rate_turn_and_verdict() -> None:
    matches, fighters = synthetic()
    (row,) = purchase_value(matches, fighters).to_dict("records")
    assert row["purchase_rate"] == pytest.approx(0.5) and row["bought"] == DEALS
    assert row["turn_median"] == 3 and row["holders"] == f"good {DEALS}"
    assert row["delta"] == pytest.approx(0.5) and row["delta_per_purchase"] == pytest.approx(1.0)
    assert row["n_deals"] == DEALS and row["delta_low"] < 0.5 < row["delta_high"]  # deals differ
    assert row["verdict"] in ("worth its kamas", "not shown either way")
    never = fighters.assign(rewards_held="", rewards_held_turns="")
    assert purchase_value(matches, never)["verdict"].tolist() == ["never bought"]


def test_reveal_timing_share_and_turn() -> None:
    matches, fighters = synthetic()
    timing = reveal_timing(matches, fighters).set_index("arm")
    held = timing.loc["held (each holder)"]
    assert held["received"] == 4 * DEALS and held["revealed"] == 2 * DEALS and held["share"] == 0.5
    assert held["turn_median"] == 2 and held["wait_median"] == 2
    bought = timing.loc["bought"]
    assert bought["received"] == DEALS and bought["share"] == 1 and bought["turn_median"] == 4


def test_the_legacy_value_keeps_only_the_ais_pick_and_the_section_renders() -> None:
    matches, fighters = synthetic()
    assert controlled_value(matches).empty  # no AI's-pick arm: per-holder and buy arms are not pooled
    doc, tables = Doc(), {}
    report_section(doc, matches, fighters, tables)
    assert {"reward_purchase", "reward_holder_summary", "reward_per_holder", "reward_reveal_timing"} <= set(
        tables
    )
    assert (
        sum(kind == "img" for kind, _ in doc.blocks) == 2
        and sum(kind == "table" for kind, _ in doc.blocks) == 3
    )


def test_the_purchase_answer_is_the_stronger_ais() -> None:
    """The same deals under a baseline AI that never wins with the offer: the heuristic's Δ answers."""
    from krosbalance.ai.ladder import LadderStanding
    from krosbalance.analysis.headline import headline_lines
    from krosbalance.analysis.resultset import ResultSet
    from krosbalance.studies.rewards.verdict import purchase_verdict

    matches, fighters = synthetic()
    weak = matches.assign(ai0="random", ai1="random", match_id=matches["match_id"] + len(matches))
    weak.loc[weak["variant"] == "buy:tok", ["winner_team", "winner"]] = ("B", 1)
    weak["winner"] = [
        (0 if s else 1) if t == "B" else (1 if s else 0)
        for s, t in zip(weak["swapped"], weak["winner_team"], strict=True)
    ]
    both = pd.concat([matches.assign(ai0="focus-fire", ai1="focus-fire"), weak], ignore_index=True)
    weak_fighters = fighters.assign(
        match_id=fighters["match_id"] + len(matches), rewards_held="", rewards_held_turns=""
    )
    verdict = purchase_verdict(ResultSet(both, pd.concat([fighters, weak_fighters], ignore_index=True)), {})
    assert verdict is not None and set(verdict.data["ai"]) == {"focus-fire", "random"}
    ladder = {
        ai: LadderStanding(ai, tier, r, r - 0.1, r + 0.1, 100, True)
        for ai, tier, r in (("focus-fire", "heuristic", 0.2), ("random", "baseline", -2.0))
    }
    first, beside = headline_lines(verdict, ladder)
    assert first.startswith("Under focus-fire") and "+50.0 pts" in first
    assert beside.startswith("Next AI down, random: tok +0.0 pts")
