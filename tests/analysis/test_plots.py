from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure

from krosbalance.analysis import plots, stats
from krosbalance.analysis.strength import adjusted_strength


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
    }


CASES = [
    (plots.plot_win_rates, "win"),
    (plots.plot_strength_forest, "strength"),
    (plots.plot_matchup_heatmap, "matchups"),
    (plots.plot_damage_by_element, "damage"),
    (plots.plot_match_length, "matches"),
    (plots.plot_first_player, "first"),
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
