"""The reward study's analysis on small hand-made tables with known answers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from krosbalance.content.specs import RewardSpec
from krosbalance.studies.rewards import value as rw


def specs() -> list[RewardSpec]:
    return [
        RewardSpec("strong", "Strong", "boost", "granite"),
        RewardSpec("weak", "Weak", "boost", "gold"),
        RewardSpec("middling", "Middling", "boost", "jade"),
    ]


def options(team_a_tokens: list[str], swapped: bool) -> str:
    start = [[], team_a_tokens] if swapped else [team_a_tokens, []]
    return json.dumps({"start_rewards": start} if team_a_tokens else {})


def value_matches(n_deals: int = 40, seed: int = 0) -> pd.DataFrame:
    """Team A's outcome per deal: baseline coin flips; 'strong' always wins, 'weak' repeats the
    baseline, 'middling' wins three deals in four."""
    rng = np.random.default_rng(seed)
    rows = []
    match_id = 0
    for deal in range(n_deals):
        for swapped in (False, True):
            base = "A" if rng.random() < 0.5 else "B"
            outcomes = {"": base, "strong": "A", "weak": base, "middling": "A" if deal % 4 else "B"}
            for held, winner_team in outcomes.items():
                side_a = 1 if swapped else 0
                winner = side_a if winner_team == "A" else 1 - side_a
                gg = [6, 6]
                gg[winner] = 9
                gg[1 - winner] = 0
                rows.append(
                    {
                        "match_id": match_id,
                        "deal": deal,
                        "seed": 1000 + deal,
                        "swapped": swapped,
                        "ai0": "focus_fire",
                        "ai1": "focus_fire",
                        "options": options([held] if held else [], swapped),
                        "winner": winner,
                        "winner_team": winner_team,
                        "end_reason": "gg",
                        "turns": 20 + (5 if held == "strong" else 0),
                        "gg0": gg[0],
                        "gg1": gg[1],
                        "error": "",
                    }
                )
                match_id += 1
    return pd.DataFrame(rows)


def test_held_by_team_a_follows_the_side_swap() -> None:
    assert rw.held_by_team_a(options(["x"], False), False) == "x"
    assert rw.held_by_team_a(options(["x"], True), True) == "x"
    assert rw.held_by_team_a(json.dumps({"start_rewards": [["x"], []]}), True) == ""
    assert rw.held_by_team_a("{}", False) == ""


def test_controlled_value_is_the_paired_difference_with_its_interval() -> None:
    matches = value_matches()
    assert rw.is_value_experiment(matches)
    value = rw.controlled_value(matches, specs()).set_index("reward")
    base = rw.match_scores(matches).query("held == ''")["score"].mean()
    assert value.loc["strong", "delta"] == pytest.approx(1.0 - base)
    assert value.loc["weak", "delta"] == pytest.approx(0.0)
    weak_low, weak_high = value.loc["weak", "delta_low"], value.loc["weak", "delta_high"]
    assert -0.1 < weak_low < 0.0 < weak_high < 0.1  # identical outcomes: narrow, never zero-wide
    assert value.loc["strong", "n"] == 80
    assert value.loc["strong", "turns_delta"] == pytest.approx(5.0)
    assert value.loc["strong", "gg_delta"] > 0
    assert (
        value.loc["middling", "delta_low"]
        < value.loc["middling", "delta"]
        < value.loc["middling", "delta_high"]
    )
    assert value.loc["weak", "delta_per_kama"] == pytest.approx(0.0)
    assert value.loc["strong", "delta_per_kama"] == pytest.approx(value.loc["strong", "delta"] / 3)
    assert set(value["tier"]) == {"heuristic"}


def test_suggested_ranks_keep_the_markets_make_up_and_flag_differences() -> None:
    value = rw.value_for_money(rw.controlled_value(value_matches(), specs())).set_index("reward")
    assert value.loc["strong", "suggested_rank"] == "gold"
    assert value.loc["weak", "suggested_rank"] == "granite"
    assert value.loc["middling", "suggested_rank"] == "jade"
    assert value.loc["strong", "differs"] and value.loc["weak", "differs"]
    assert not value.loc["middling", "differs"]
    assert value.loc["strong", "clear"]  # its interval lies above the jade/gold boundary


def test_headline_lists_top_and_bottom() -> None:
    head = rw.headline(rw.controlled_value(value_matches(), specs()), shown=1)
    assert list(head["reward"]) == ["strong", "weak"]
    assert list(head["place"]) == ["top", "bottom"]


def test_plain_matches_are_not_a_value_experiment() -> None:
    matches = value_matches()
    plain = matches[matches["options"] == "{}"]
    assert not rw.is_value_experiment(plain)
    assert rw.controlled_value(plain, specs()).empty


def test_in_play_counts_purchases_reveals_and_the_buyers_win_rate() -> None:
    matches = pd.DataFrame({"match_id": [0, 1, 2], "error": ["", "", ""], "end_reason": ["gg"] * 3})
    fighters = pd.DataFrame(
        {
            "match_id": [0, 0, 1, 2],
            "character": ["anna_tommy", "bill_tell", "anna_tommy", "bill_tell"],
            "rewards_held": ["strong:v weak:r", "", "strong:r", "strong:d middling:s"],
            "rewards_used": ["strong", "", "", "strong"],
            "won": [True, False, False, True],
            "draw": [False, False, False, False],
        }
    )
    table = rw.in_play(matches, fighters, specs()).set_index("reward")
    assert table.loc["strong", ["bought", "visible", "random", "drawn", "revealed"]].tolist() == [
        2,
        1,
        1,
        1,
        2,
    ]
    assert table.loc["strong", "buyer_win"] == pytest.approx(0.5)
    assert table.loc["strong", "holders"].startswith("anna_tommy (2)")
    assert table.loc["middling", "bought"] == 0 and np.isnan(table.loc["middling", "buyer_win"])


def test_plots_draw_and_handle_no_data() -> None:
    value = rw.controlled_value(value_matches(), specs())
    data = rw.forest_data(value)
    assert list(data["rank"]) == ["gold", "jade", "granite"]
    assert len(rw.plot_reward_forest(value).axes) == 1
    assert len(rw.plot_value_vs_cost(value).axes) == 1
    assert len(rw.plot_reward_forest(value.iloc[0:0]).axes) == 1


def test_report_section_gives_the_headline_suggestions_and_plots() -> None:
    from krosbalance.analysis.document import Doc

    matches = value_matches(20)
    fighters = pd.DataFrame(
        {"match_id": [0], "character": ["x"], "rewards_held": ["strong:v"], "won": [True]}
    )
    assert rw.is_value_experiment(matches) and rw.tokens_held(fighters)
    doc, tables = Doc(), {}
    rw.report_section(doc, matches, fighters, tables, specs())
    kinds = [kind for kind, _ in doc.blocks]
    assert kinds.count("img") == 2 and kinds.count("table") == 3
    assert set(tables) == {"reward_value", "reward_in_play"}
    headline_table = doc.blocks[1][1][0]
    assert headline_table["token"].iloc[0] == "Strong"


def test_reward_data_reads_only_its_columns_and_the_fighters_that_held_a_token(tmp_path) -> None:
    from krosbalance.analysis.resultset import ResultSet

    matches = value_matches(3)
    fighters = pd.DataFrame(
        {
            "match_id": [0, 0, 1],
            "side": [0, 1, 0],
            "uid": [0, 1, 0],
            "character": ["a", "b", "a"],
            "rewards_held": ["strong:v", "", ""],
            "rewards_used": ["strong", "", ""],
            "won": [True, False, True],
            "draw": [False, False, False],
            "damage_dealt": [1, 2, 3],
        }
    )
    ResultSet(matches, fighters).save(tmp_path / "rs")
    m, f = rw.reward_data(ResultSet.load(tmp_path / "rs"))
    assert set(m.columns) <= set(rw.MATCH_COLUMNS) and len(m) == len(matches)
    assert list(f["rewards_held"]) == ["strong:v"] and "damage_dealt" not in f.columns
    assert rw.controlled_value(m, specs()).set_index("reward").loc["strong", "n"] == 6
