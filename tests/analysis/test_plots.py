from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure

from krosbalance.analysis import dependence, ladder, plots, stats
from krosbalance.analysis.strength import adjusted_strength
from tests.analysis.fixtures import planted_by_ai, planted_ladder, planted_tables


@pytest.fixture(scope="module")
def tables(small) -> dict[str, pd.DataFrame]:
    m, f = small
    return {
        "win": stats.character_win_rates(m),
        "strength": adjusted_strength(m),
        "matchups": stats.matchup_matrix(m),
        "damage": stats.damage_stats(m, f),
        "matches": m,
        "first": stats.first_player_advantage(m),
        "by_group": dependence.strength_by(planted_by_ai(80)[0], "ai_matchup"),
        "ladder": ladder.ladder_ratings(planted_ladder(n_deals=20), lambda a: "heuristic"),
        "win_matrix": ladder.win_matrix(planted_ladder(n_deals=20)),
    }


CASES = [
    (plots.plot_win_rates, "win"),
    (plots.plot_strength_forest, "strength"),
    (plots.plot_matchup_heatmap, "matchups"),
    (plots.plot_damage_by_element, "damage"),
    (plots.plot_match_length, "matches"),
    (plots.plot_first_player, "first"),
    (plots.plot_strength_by_group, "by_group"),
    (plots.plot_ladder, "ladder"),
    (plots.plot_win_matrix, "win_matrix"),
    (plots.plot_matchups, "matchups"),
]


@pytest.mark.parametrize(("plot", "key"), CASES)
def test_returns_figure(plot, key, tables) -> None:
    fig = plot(tables[key])
    assert isinstance(fig, Figure)
    assert fig.axes and fig.axes[0].has_data()


@pytest.mark.parametrize(("plot", "key"), CASES)
def test_draws_into_given_ax(plot, key, tables) -> None:
    fig = Figure()
    ax = fig.add_subplot()
    assert plot(tables[key], ax=ax) is fig
    assert ax.has_data()


@pytest.mark.parametrize(("plot", "key"), CASES)
def test_empty_table_says_not_enough_data(plot, key, tables) -> None:
    fig = plot(tables[key].iloc[0:0])
    assert isinstance(fig, Figure)
    assert any("not enough data" in t.get_text() for t in fig.axes[0].texts)


def test_matchup_pivot_is_square(tables) -> None:
    piv = stats.matchup_pivot(tables["matchups"])
    assert piv.shape[0] == piv.shape[1] > 1
    assert list(piv.index) == list(piv.columns)


def _splits_matchups():
    """Each team meets only its complement, as in a splits design (10 disjoint pairings)."""
    rows = []
    for p in range(10):
        a, b = f"a{p},b{p}", f"c{p},d{p}"
        for k in range(6):
            rows.append(
                {
                    "team_a": a,
                    "team_b": b,
                    "winner_team": "A" if k % 3 else "B",
                    "end_reason": "gg",
                    "error": "",
                }
            )
    return stats.matchup_matrix(pd.DataFrame(rows))


def test_a_splits_design_gets_a_pairing_plot_with_names() -> None:
    mm = _splits_matchups()
    assert plots.matchup_design(mm) == "pairings"
    fig = plots.plot_matchups(mm)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels and all("  vs  " in label and "(n=" in label for label in labels)


def test_a_heatmap_of_many_teams_is_capped() -> None:
    m, _ = planted_tables(n_pairings=3000, seed=2)
    mm = stats.matchup_matrix(m)
    teams = len(set(mm["team"]))
    assert teams > 30 and plots.matchup_design(mm) == "matrix"
    fig = plots.plot_matchup_heatmap(mm, limit=30)
    ax = fig.axes[0]
    assert len(ax.get_xticklabels()) == 30 and f"30 most-played of {teams} teams" in ax.get_title()
    width, height = fig.get_size_inches()
    assert width < 15 and height < 15
