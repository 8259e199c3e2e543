"""The Duel Pack study (``krosbalance.studies.duel.tables``): synthetic duels whose answers are known (a
figure that always wins ranks top; a paired Δ of a known size, whichever team holds the token),
the intervals, the plots, and one small real duel experiment through the sim API into a report."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from krosbalance.analysis.document import Doc
from krosbalance.studies.duel import plots as duel_plots
from krosbalance.studies.duel import tables as duel

FIGURES = ("ace", "bee", "cat", "dog")


def duels(
    outcomes: list[tuple[str, str, bool, int, int | None, int]], arm: str = "", first_pairing: int = 0
) -> pd.DataFrame:
    """Matches table rows: (team A, team B, swapped, deal, winner seat or None, picked tokens) per
    duel, each deal of each pairing its own seed (pairings numbered from ``first_pairing``); ``arm``
    the levels seat 0 holds from the start."""
    rows = []
    pairings = {
        pair: first_pairing + i for i, pair in enumerate(dict.fromkeys((a, b) for a, b, *_ in outcomes))
    }
    for k, (a, b, swapped, deal, winner, picked) in enumerate(outcomes):
        team0, team1 = (b, a) if swapped else (a, b)
        seat_team = "BA" if swapped else "AB"
        rows.append(
            {
                "match_id": k,
                "pairing": pairings[(a, b)],
                "deal": deal,
                "seed": 1000 * pairings[(a, b)] + deal,
                "swapped": swapped,
                "board": "duel-test",
                "ai0": "duel-brawler",
                "ai1": "duel-brawler",
                "team0": team0,
                "team1": team1,
                "team_a": a,
                "team_b": b,
                "ruleset": "duel" if not arm else f"duel[start_token_levels=[{arm}]]",
                "variant": f"level{arm}" if arm else "none",
                "options": json.dumps({"start_token_levels": [int(x) for x in arm.split(",") if x]}),
                "winner": winner,
                "winner_team": "" if winner is None else seat_team[int(winner)],
                "first_player": 0,
                "end_reason": "turn_limit" if winner is None else "last_standing",
                "turns": 10,
                "error": "",
                "start_token_levels": arm,
                "picked0": picked,
                "picked1": 0,
                "held_from_start0": len([x for x in arm.split(",") if x]),
                "held_from_start1": 0,
                "start_revealed0": len([x for x in arm.split(",") if x]),
                "start_revealed1": 0,
            }
        )
    return pd.DataFrame(rows).astype({"winner": "Int64"})


def round_robin(deals: int = 6, seed: int = 0) -> pd.DataFrame:
    """Every pairing of FIGURES, both seatings: ``ace`` always wins, the others at random."""
    rng = np.random.default_rng(seed)
    out = []
    for i, a in enumerate(FIGURES):
        for b in FIGURES[i + 1 :]:
            for deal in range(deals):
                for swapped in (False, True):
                    seat_a = 1 if swapped else 0
                    a_wins = a == "ace" if "ace" in (a, b) else bool(rng.integers(2))
                    out.append((a, b, swapped, deal, seat_a if a_wins else 1 - seat_a, 0))
    return duels(out)


def test_a_figure_that_always_wins_ranks_top_with_its_matrix_row() -> None:
    frame = duel.duel_frame(round_robin())
    rates = duel.figure_win_rates(frame)
    assert rates["character"].iloc[0] == "ace" and rates["win_rate"].iloc[0] == 1.0
    assert rates["n"].iloc[0] == 3 * 6 * 2 and rates["ci_high"].iloc[0] == pytest.approx(1.0)
    assert (rates["win_rate"].iloc[1:] < 1).all() and set(rates["tier"]) == {"heuristic"}
    matrix = duel.figure_matrix(frame)
    ace = matrix[(matrix["team"] == "ace") & (matrix["opponent"] != "ace")]
    assert len(ace) == 3 and (ace["win_rate"] == 1.0).all() and (ace["n"] == 12).all()
    against = matrix[matrix["opponent"] == "ace"]
    assert (against["win_rate"] == 0.0).all()


def paired_world(n_deals: int = 50) -> pd.DataFrame:
    """Two figures, both seatings per deal; seat 0 wins without the token in 2 deals of 5 and with a
    level-3 token in 3 of 5 — in both seatings, so the holder is team A in one and team B in the
    other and the true Δ of the holder's win rate is +0.2 (team A's own Δ is 0). One duel of every
    ten with the token is a draw where seat 0 lost without it (a draw is not a win: Δ 0)."""
    base, held = [], []
    for deal in range(n_deals):
        for swapped in (False, True):
            won_base = deal % 5 < 2
            won_held = deal % 5 < 3
            base.append(("ace", "bee", swapped, deal, 0 if won_base else 1, deal % 2))
            winner = None if (deal % 5 == 4 and not swapped) else (0 if won_held else 1)
            held.append(("ace", "bee", swapped, deal, winner, 0))
    return pd.concat(
        [duels(base, first_pairing=100), duels(held, arm="3", first_pairing=100)], ignore_index=True
    )


def test_a_paired_delta_of_a_known_size_whichever_team_holds_the_token() -> None:
    value = duel.token_value(duel.duel_frame(paired_world()))
    row = value.iloc[0]
    assert len(value) == 1 and row["arm"] == "level 3" and row["n_pairs"] == 100 and row["n_deals"] == 50
    assert row["win_without"] == pytest.approx(0.4) and row["win_with"] == pytest.approx(0.6)
    assert row["delta"] == pytest.approx(0.2)
    assert row["delta_low"] < 0.2 < row["delta_high"] and row["delta_low"] > 0
    assert (row["gained"], row["lost"]) == (20, 0) and row["p"] < 0.001
    assert row["draws_with"] == 10 and row["draws_without"] == 0 and row["revealed"] == 1.0


def test_no_token_no_delta() -> None:
    world = paired_world()
    same = world.copy()
    n = len(same) // 2
    same.loc[n:, "winner"] = same.loc[: n - 1, "winner"].to_numpy()  # the arm plays as the baseline
    row = duel.token_value(duel.duel_frame(same)).iloc[0]
    assert row["delta"] == 0.0 and row["p"] == 1.0


def test_paired_difference_is_the_textbook_interval_and_copies_add_nothing() -> None:
    rng = np.random.default_rng(3)
    d = rng.integers(-1, 2, size=200).astype(float)
    mean, lo, hi, g = duel.paired_difference(d, np.arange(200))
    half = 1.959964 * d.std(ddof=1) / np.sqrt(200)
    assert g == 200 and mean == pytest.approx(d.mean()) and hi - mean == pytest.approx(half, rel=1e-4)
    # each pair twice in its own deal (two seatings that are copies): the same interval
    twice = duel.paired_difference(np.repeat(d, 2), np.repeat(np.arange(200), 2))
    assert twice == pytest.approx((mean, lo, hi, 200))
    # treated as independent pairs the copies would narrow it by about sqrt(2)
    naive = duel.paired_difference(np.repeat(d, 2), np.arange(400))
    assert (naive[2] - naive[0]) == pytest.approx(half / np.sqrt(2), rel=0.01)
    assert np.isnan(duel.paired_difference(np.array([1.0, 0.0]), np.array([0, 0]))[1])


def test_pick_ups_and_draws() -> None:
    frame = duel.duel_frame(paired_world())
    pick = duel.pick_ups(frame)
    base = pick[pick["arm"] == "none"].iloc[0]
    assert base["n"] == 100 and base["no_pick_up"] == 50  # seat 0 picked a token in the odd deals
    assert base["no_pick_up_low"] < 0.5 < base["no_pick_up_high"]
    held = pick[pick["arm"] == "level 3"].iloc[0]
    assert held["no_pick_up"] == 100 and held["draws"] == held["turn_limit"] == 10
    draws = duel.draw_pairings(frame)
    assert draws[["team_a", "team_b", "end_reason", "draws", "duels"]].values.tolist() == [
        ["ace", "bee", "turn_limit", 10, 200]
    ]


def test_the_arm_is_read_from_the_options_without_the_column() -> None:
    world = paired_world()
    with_column = duel.token_value(duel.duel_frame(world))
    without = duel.token_value(duel.duel_frame(world.drop(columns=["start_token_levels"])))
    pd.testing.assert_frame_equal(with_column, without)
    assert duel.arm_label("1,4") == "level 1+4" and duel.arm_label("") == "none"


def test_only_duels_are_studied() -> None:
    assert duel.duel_frame(paired_world().assign(ruleset="arena")).empty
    doc = Doc()
    from krosbalance.analysis.resultset import ResultSet

    duel.add_report_section(doc, ResultSet(paired_world().assign(ruleset="arena")), {}, lambda *a: None)
    assert doc.blocks == []


def test_plots_take_an_ax_and_return_the_figure() -> None:
    frame = duel.duel_frame(pd.concat([round_robin(), paired_world()], ignore_index=True))
    value, pick = duel.token_value(frame), duel.pick_ups(frame)
    rates, matrix = duel.figure_win_rates(frame), duel.figure_matrix(frame)
    for draw, table in (
        (duel_plots.plot_figure_win_rates, rates),
        (duel_plots.plot_figure_matrix, matrix),
        (duel_plots.plot_token_value, value),
        (duel_plots.plot_pick_ups, pick),
    ):
        fig = draw(table)
        assert isinstance(fig, Figure)
        assert "AI duel-brawler (heuristic)" in fig.axes[0].get_title()
        own = Figure()
        ax = own.add_subplot()
        assert draw(table, ax=ax) is own
        empty = draw(table.iloc[0:0])
        assert isinstance(empty, Figure)


def test_the_report_section_on_synthetic_duels() -> None:
    frame = duel.duel_frame(pd.concat([round_robin(), paired_world()], ignore_index=True))
    doc, tables = Doc(), {}
    duel.report_section(doc, frame, tables)
    assert {"duel_figures", "duel_matrix", "duel_token_value", "duel_pick_ups", "duel_draws"} <= set(tables)
    lines = next(items for kind, items in doc.blocks if kind == "ul")
    assert any("strongest figure **ace**" in line and "duel-brawler (heuristic)" in line for line in lines)
    assert any("level 3: +20.0%" in line for line in lines)
    assert sum(kind == "img" for kind, _ in doc.blocks) == 4


def test_the_summary_leads_with_the_ladders_strongest_ai(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's summary reads the section's first lines: they must be the deciding AI's (the
    ladder's validated strongest), whatever the AIs' names sort as."""
    search = round_robin(seed=1).assign(ai0="duel-lookahead", ai1="duel-lookahead")
    frame = duel.duel_frame(pd.concat([round_robin(), search.assign(match_id=search["match_id"] + 10**4)]))
    standing = {
        "duel-lookahead": SimpleNamespace(rating=2.0, ruleset="duel", validated=True),
        "duel-brawler": SimpleNamespace(rating=1.0, ruleset="duel", validated=True),
    }
    monkeypatch.setattr(duel, "load_standings", lambda ruleset: (standing, ""))
    tables = (duel.figure_win_rates(frame), duel.token_value(frame), duel.pick_ups(frame))
    assert duel.headline(*tables)[0].startswith("AI duel-lookahead"), "sorted by name it would be last"
    standing["duel-lookahead"] = SimpleNamespace(rating=2.0, ruleset="duel", validated=False)
    assert duel.headline(*tables)[0].startswith("AI duel-brawler"), "an unvalidated AI does not decide"


EXPERIMENT = """
name = "duel-tiny"
master_seed = 7
matches_per_pairing = 3
boards = ["{board}"]
ais = ["duel-brawler"]
ruleset = "duel"

[teams]
mode = "round_robin"
pool = [{{ set = "duel-pack" }}, "{box}"]

[[variants]]
name = "none"

[[variants]]
name = "level4"
options = {{ start_token_levels = [4] }}
"""


def test_a_small_real_duel_experiment_builds_the_report_section(tmp_path: Path) -> None:
    from krosbalance.analysis.report import build_document
    from krosbalance.analysis.resultset import ResultSet
    from krosbalance.analysis.sections import ruleset_sections
    from krosbalance.content.registry import list_boards, list_characters
    from krosbalance.sim.runner import run_experiment
    from tests.analysis.verdict_checks import assert_report_leads_with_the_answer

    figures = list_characters(set="duel-pack") + list_characters(set="arena-box")[:1]
    source = tmp_path / "duel-tiny.toml"
    source.write_text(
        textwrap.dedent(EXPERIMENT.format(board=list_boards("duel")[0], box=figures[-1])), encoding="utf-8"
    )
    summary = run_experiment(source, tmp_path / "res", jobs=1, progress=False)
    pairings = len(figures) * (len(figures) - 1) // 2
    assert summary.n_errors == 0 and summary.n_matches == pairings * 3 * 2 * 2
    rs = ResultSet.load(tmp_path / "res")
    assert "duel_tokens" in [s.name for s in ruleset_sections(rs)]
    _, doc, tables = build_document(rs)
    assert_report_leads_with_the_answer(doc, tables, "duel figure strength")
    assert "Duel Pack: who beats whom, and the value of a Duel Token" in [
        t for k, t in doc.blocks if k == "h2"
    ]
    value = tables["duel_token_value"]
    assert value["arm"].tolist() == ["level 4"] and value["n_pairs"].tolist() == [pairings * 3 * 2]
    assert sorted(tables["duel_figures"]["character"]) == sorted(figures)
    assert (tables["duel_figures"]["n"] == (len(figures) - 1) * 3 * 2).all()
    assert set(tables["duel_pick_ups"]["arm"]) == {"none", "level 4"}
    from krosbalance.analysis.ais import load_standings

    standing = load_standings("duel")[0].get("duel-brawler")  # the Duel Pack's ladder, not Arena's
    row = tables["ais"].set_index("ai").loc["duel-brawler"]
    assert bool(row["validated"]) == bool(standing and standing.validated)
    assert (pd.isna(row["rating"]) and standing is None) or row["rating"] == pytest.approx(standing.rating)
