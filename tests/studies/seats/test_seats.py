"""Seat analysis of tables of more than two players: synthetic tables whose answer is known, then a
tiny real four-player experiment through the runner and the report."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from scipy import stats as sps

from krosbalance.analysis import sections
from krosbalance.analysis.report import build_document, write_report
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.strength import fit_effects
from krosbalance.studies.seats import lines as seat_lines
from krosbalance.studies.seats import plots as seat_plots
from krosbalance.studies.seats import tables as seats
from tests.analysis.fixtures import planted_tables, write_results
from tests.analysis.verdict_checks import assert_report_leads_with_the_answer

POOL = tuple(f"c{i}" for i in range(8))
Winner = Callable[[list[list[str]], list[int], list[int], np.random.Generator], "int | None"]


def seat_world(
    n_deals: int,
    winner: Winner,
    *,
    mode: str = "free_for_all",
    seed: int = 0,
    pool: tuple[str, ...] = POOL,
    ais: tuple[str, ...] = ("focus-fire",),
    positions_follow_teams: bool = True,
    start: int = 0,
    plant: str = "",
) -> pd.DataFrame:
    """A matches table of four seats: each deal seats four teams (two characters of ``pool``) in
    its four rotations on one deal; ``winner(teams, positions, partners, rng)`` names the winning
    partnership (None: a draw), with teams and positions indexed by seat. The play position follows
    the team (as Initiative makes it) or is drawn afresh in every rotation. ``plant`` puts that
    character in the first team of every table."""
    rng = np.random.default_rng(seed)
    partners = [0, 1, 0, 1] if mode == "two_vs_two" else [0, 1, 2, 3]
    rows = []
    mid = start
    for deal in range(n_deals):
        table = [sorted(rng.choice(pool, size=2).tolist()) for _ in range(4)]
        if plant:
            table[0] = sorted([plant, table[0][1]])
        ai = ais[deal % len(ais)]
        team_rank = rng.permutation(4)  # the table team's rank in the play order
        for rotation in range(4):
            if not positions_follow_teams:
                team_rank = rng.permutation(4)
            teams = [table[(s + rotation) % 4] for s in range(4)]
            order = sorted(range(4), key=lambda s: team_rank[(s + rotation) % 4])
            if mode == "two_vs_two":  # the partnerships alternate (R-A159)
                first = order[0]
                second = next(s for s in order if partners[s] != partners[first])
                order = [
                    first,
                    second,
                    next(s for s in range(4) if s != first and partners[s] == partners[first]),
                ]
                order.append(next(s for s in range(4) if s not in order))
            position = [order.index(s) + 1 for s in range(4)]
            won = winner(teams, position, partners, rng)
            rows.append(
                {
                    "match_id": mid,
                    "pairing": 0,
                    "deal": deal,
                    "board": "arena-pit",
                    "ruleset": f"arena[mode={mode}]",
                    "variant": mode,
                    "winner": won,
                    "end_reason": "gg" if won is not None else "turn_limit",
                    "error": "",
                    "first_player": order[0],
                    "rotation": rotation,
                    "partnerships": ",".join(map(str, partners)),
                    "play_order": ",".join(map(str, order)),
                    **{f"team{s}": ",".join(teams[s]) for s in range(4)},
                    **{f"ai{s}": ai for s in range(4)},
                }
            )
            mid += 1
    out = pd.DataFrame(rows)
    out["winner"] = out["winner"].astype("Int64")
    return out


def first_always_wins(teams, position, partners, rng):
    return partners[position.index(1)]


def at_random(teams, position, partners, rng):
    return int(rng.choice(sorted(set(partners))))


def _two_vs_two_first(p: float) -> Winner:
    def winner(teams, position, partners, rng):
        first = partners[position.index(1)]
        return first if rng.random() < p else 1 - first

    return winner


def _star(p: float, star: str = "star") -> Winner:
    """The one seat fielding ``star`` wins with probability ``p``; otherwise a seat at random."""

    def winner(teams, position, partners, rng):
        holders = [s for s, t in enumerate(teams) if star in t]
        if len(holders) == 1 and rng.random() < p:
            return partners[holders[0]]
        return int(rng.choice(sorted(set(partners))))

    return winner


def _analysis(matches: pd.DataFrame) -> seats.SeatAnalysis:
    return seats.analyse(matches)


# ------------------------------------------------------------------------------------ counting seats
def test_seat_count_is_two_without_seat_columns_and_the_table_size_with_them() -> None:
    two, _ = planted_tables(n_pairings=3, seed=1)
    assert seats.seat_count(two) == 2
    assert seats.seat_count(two.iloc[0:0]) == 2
    four = seat_world(2, at_random)
    assert seats.seat_count(four) == 4
    # a failed match has no play order, but its seats' teams name four players
    failed = four.assign(play_order="", error="boom")
    assert seats.seat_count(failed) == 4


def test_seat_table_has_one_row_per_seat_with_its_position_partners_and_win() -> None:
    m = seat_world(3, first_always_wins, mode="two_vs_two")
    t = seats.seat_table(m)
    assert len(t) == 4 * len(m)
    for mid, rows in t.groupby("match_id"):
        assert sorted(rows["position"]) == [1, 2, 3, 4]
        assert set(rows["positions"]) == {"1+3", "2+4"}  # the partnerships alternate in play order
        assert rows["won"].sum() == 2 and set(rows.loc[rows["won"], "positions"]) == {"1+3"}
        order = [int(s) for s in m.loc[m["match_id"] == mid, "play_order"].iloc[0].split(",")]
        assert rows.set_index("seat").loc[order[0], "position"] == 1
    assert set(t["tier"]) == {"heuristic"} and set(t["mode"]) == {"2 v 2"}


# ------------------------------------------------------------------------------------ positions
def test_a_position_that_always_wins_has_rate_one_and_a_tiny_chi_square_p() -> None:
    a = _analysis(seat_world(40, first_always_wins))
    rates = a.positions.set_index("position")
    assert rates.loc[1, "win_rate"] == 1.0 and rates.loc[1, "ci_low"] > 0.9
    assert (rates.loc[[2, 3, 4], "win_rate"] == 0).all()
    assert rates["n"].eq(160).all() and rates["even"].eq(0.25).all()
    test = a.position_tests.iloc[0]
    assert test["decided"] == 160 and test["df"] == 3 and test["p_value"] < 1e-10
    assert a.position_tests["tier"].tolist() == ["heuristic"]
    assert "focus-fire" in a.position_tests["ais"].iloc[0]


def test_when_nothing_matters_no_position_is_shown_to_matter() -> None:
    a = _analysis(seat_world(60, at_random, positions_follow_teams=False, seed=3))
    assert a.position_tests["p_value"].iloc[0] > 0.05
    assert a.positions["win_rate"].between(0.15, 0.35).all()


def test_the_chi_square_is_deflated_by_the_deal_clusters() -> None:
    """The four rotations of a deal that always end alike are one observation, not four: the design
    effect is about 4 and divides the statistic."""

    def one_team_wins_its_table(teams, position, partners, rng):
        return partners[min(range(4), key=lambda s: (teams[s], s))]  # the same team in every rotation

    t = seats.equal_share_tests(seats.seat_table(seat_world(40, one_team_wins_its_table, seed=11)))
    assert 2.5 < t["deff"].iloc[0] <= 4.5
    assert t["chi2_adjusted"].iloc[0] == pytest.approx(t["chi2"].iloc[0] / t["deff"].iloc[0])
    naive = float(sps.chi2.sf(t["chi2"].iloc[0], 3))
    assert t["p_value"].iloc[0] > naive


def test_draws_count_as_non_wins_and_stay_out_of_the_test() -> None:
    def draw_or_first(teams, position, partners, rng):
        return None if rng.random() < 0.5 else partners[position.index(1)]

    a = _analysis(seat_world(40, draw_or_first, seed=5))
    rates = a.positions.set_index("position")
    draws = int(rates.loc[1, "draws"])
    assert 40 < draws < 120
    assert rates.loc[1, "n"] == 160 and rates.loc[1, "wins"] == 160 - draws
    assert rates.loc[1, "win_rate"] == pytest.approx((160 - draws) / 160)
    assert rates.loc[1, "even"] == pytest.approx((160 - draws) / 160 / 4)
    assert a.position_tests["decided"].iloc[0] == 160 - draws


# ------------------------------------------------------------------------------------ partnerships
def test_two_vs_two_partnership_of_the_first_player_wins_and_the_holm_p_is_small() -> None:
    a = _analysis(seat_world(50, _two_vs_two_first(0.85), mode="two_vs_two", seed=2))
    p = a.partnerships.set_index("positions")
    assert set(p.index) == {"1+3", "2+4"}
    assert 0.75 < p.loc["1+3", "win_rate"] < 0.95 and p.loc["1+3", "ci_low"] > 0.5
    assert p.loc["2+4", "win_rate"] == pytest.approx(1 - p.loc["1+3", "win_rate"])
    assert (p["p_holm"] >= p["p_value"]).all() and p["p_holm"].max() < 0.001
    assert p["even"].eq(0.5).all() and p["n"].eq(200).all()
    # the partners' seat rates are equal, and the position test is the partnership test
    rates = a.positions.set_index("position")["win_rate"]
    assert rates[1] == rates[3] and rates[2] == rates[4]
    assert a.position_tests["categories"].iloc[0] == "1+3 / 2+4"
    assert a.position_tests["p_value"].iloc[0] < 0.001


def test_a_free_for_all_has_no_partnership_rows() -> None:
    assert _analysis(seat_world(5, at_random)).partnerships.empty


def test_holm_adjusts_and_keeps_missing_values() -> None:
    adjusted = seats.holm(np.array([0.01, 0.04, np.nan, 0.03]))
    assert np.isnan(adjusted[2])
    assert adjusted[0] == pytest.approx(0.03) and adjusted[[1, 3]] == pytest.approx([0.06, 0.06])


# ------------------------------------------------------------------------------------ rotations
def test_rotations_balance_the_seats_not_the_positions_when_the_position_follows_the_team() -> None:
    a = _analysis(seat_world(30, first_always_wins, seed=4))
    by_seat = a.by_seat
    # each team sits in every seat once a deal, and the team acting first wins every rotation
    assert by_seat["win_rate"].eq(0.25).all() and by_seat["n"].eq(120).all()
    assert a.seat_tests["p_value"].iloc[0] > 0.99
    assert a.stability["share"].iloc[0] == 1.0 and a.stability["complete"].iloc[0] == 30
    moved = _analysis(seat_world(30, first_always_wins, seed=4, positions_follow_teams=False))
    assert moved.stability["share"].iloc[0] < 0.5
    assert moved.seat_tests["p_value"].iloc[0] > 0.01  # the seat still does not matter


# ------------------------------------------------------------------------------------ strength
def test_a_character_that_wins_its_tables_ranks_top_with_an_interval_above_zero() -> None:
    pool = (*POOL, "star")
    s = seats.character_strength(seats.seat_table(seat_world(80, _star(0.6), pool=pool, seed=6)))
    chars = s[s["kind"] == "character"]
    assert chars["term"].iloc[0] == "star"
    top = chars.iloc[0]
    assert top["ci_low"] > 0 and top["method"] == "mle" and top["interval"] == "deal-clustered"
    assert chars["coef"].sum() == pytest.approx(0, abs=1e-8)  # effects sum to zero
    covariates = s[s["kind"] == "covariate"]["term"].tolist()
    assert covariates == ["(position 2)", "(position 3)", "(position 4)"]
    ranked = seats.character_ranking(s)
    assert ranked.loc[ranked["term"] == "star", "rank"].item() == 1


def test_separation_falls_back_to_the_penalised_fit_and_never_crashes() -> None:
    """Every table has one star team and it always wins: maximum likelihood runs off to infinity."""

    def star_wins(teams, position, partners, rng):
        return partners[next(s for s, t in enumerate(teams) if "star" in t)]

    s = seats.character_strength(seats.seat_table(seat_world(30, star_wins, plant="star", seed=7)))
    chars = s[s["kind"] == "character"]
    star = chars.iloc[0]
    assert star["term"] == "star" and star["coef"] > 0
    assert (chars["method"] == "ridge").all() and chars["note"].str.contains("L2-penalised").all()
    assert np.isfinite(star["ci_low"]) and np.isfinite(star["ci_high"])
    line = seat_lines.strength_line("free_for_all", "heuristic", s)
    assert "penalised fallback" in line and "**star**" in line


def test_two_vs_two_conditional_logit_is_the_logit_of_the_difference() -> None:
    """With two partnerships a match the conditional likelihood is a logit of the difference: the
    fit must match the two-player strength model's on the same data."""
    m = seat_world(80, _star(0.5), mode="two_vs_two", pool=(*POOL, "star"), seed=8)
    u = seats.units(seats.seat_table(m))
    s = seats.character_strength(seats.seat_table(m))
    fit = s[s["kind"] == "character"].set_index("term")["coef"]
    first = u[u["positions"] == "1+3"].set_index("match_id")
    other = u[u["positions"] == "2+4"].set_index("match_id").loc[first.index]
    chars = sorted(fit.index)
    x = pd.DataFrame(
        [
            [a.count(c) - b.count(c) for c in chars]
            for a, b in zip(first["characters"], other["characters"], strict=True)
        ],
        columns=chars,
    )
    y = first["won"].to_numpy(float)
    cov = pd.DataFrame({"(positions 1+3)": np.ones(len(y))})
    ref = fit_effects(
        x,
        y,
        cov,
        np.ones(len(y)),
        first["cluster"].to_numpy(),
        dict.fromkeys(chars, 1.0),
        kind="character",
        absent_note="",
    ).set_index("term")
    for c in chars:
        assert fit[c] == pytest.approx(ref.loc[c, "coef"], abs=1e-3)
    position = s[s["term"] == "(positions 2+4)"]["coef"].item()
    assert position == pytest.approx(-ref.loc["(positions 1+3)", "coef"], abs=1e-3)
    assert (s["method"] == "mle").all() and (ref["method"] == "mle").all()


def test_too_few_matches_say_not_enough_data() -> None:
    a = _analysis(seat_world(1, at_random))
    chars = a.strength[a.strength["kind"] == "character"]
    assert chars["coef"].isna().all() and chars["note"].str.startswith("not enough data").all()
    lines = seat_lines.summary_lines(a)
    assert any("not enough data" in line for line in lines)


def test_the_ai_tier_groups_the_heuristic_ais_and_marks_mixed_tables() -> None:
    m = seat_world(6, at_random, ais=("focus-fire", "kiter", "random"))
    m.loc[m["deal"] == 0, "ai3"] = "random"  # one table of focus-fire with a random seat
    t = seats.seat_table(m)
    tiers = t.drop_duplicates("match_id").groupby("tier")["match_id"].count().to_dict()
    assert tiers == {"heuristic": 12, "baseline": 8, "mixed": 4}
    rates = seats.position_rates(t)
    assert rates.loc[rates["tier"] == "heuristic", "ais"].iloc[0] == "focus-fire, kiter"
    by_ai = seats.position_rates(t, seats.BY_AI)
    assert set(by_ai["table_ai"]) == {"focus-fire", "kiter", "random", "mixed"}


def test_summary_lines_give_n_an_interval_and_the_ai_tier_for_every_figure() -> None:
    a = _analysis(
        pd.concat(
            [
                seat_world(30, _star(0.6), pool=(*POOL, "star"), seed=9),
                seat_world(30, _two_vs_two_first(0.7), mode="two_vs_two", seed=10, start=120),
            ],
            ignore_index=True,
        )
    )
    lines = seat_lines.summary_lines(a)
    figures = [line for line in lines if "%" in line or "log-odds" in line]
    assert len(figures) >= 5
    for line in figures:
        assert "n=" in line or " of " in line, line
        assert "[" in line, line
    for line in lines[1:-1]:
        assert "AI tier heuristic" in line, line
    assert any("players 1 and 3" in line and "Holm" in line for line in lines)
    assert any("chi-square p" in line for line in lines)


# ------------------------------------------------------------------------------------ plots
@pytest.mark.parametrize("kind", ["positions", "seats", "strength"])
def test_plots_return_a_figure_and_draw_into_a_given_ax(kind) -> None:
    a = _analysis(seat_world(20, _star(0.5), pool=(*POOL, "star")))
    draw = {
        "positions": lambda ax=None: seat_plots.plot_position_rates(a.positions, ax),
        "seats": lambda ax=None: seat_plots.plot_position_rates(a.by_seat, ax, key="seat"),
        "strength": lambda ax=None: seat_plots.plot_seat_strength(a.strength, ax),
    }[kind]
    fig = draw()
    assert isinstance(fig, Figure) and fig.axes[0].has_data()
    own = Figure()
    ax = own.add_subplot()
    assert draw(ax) is own and ax.has_data()


def test_plots_of_empty_tables_say_not_enough_data() -> None:
    empty = seats.analyse(seat_world(1, at_random).iloc[0:0])
    for fig in (
        seat_plots.plot_position_rates(empty.positions),
        seat_plots.plot_seat_strength(empty.strength),
    ):
        assert "not enough data" in [t.get_text() for t in fig.axes[0].texts]


# ------------------------------------------------------------------------------------ the report
def test_the_seats_section_is_a_leading_mode_section() -> None:
    rs = ResultSet(matches=pd.DataFrame({"ruleset": ["blast"], "match_id": [0]}))
    found = [s for s in sections.ruleset_sections(rs) if s.name == "seats"]
    assert len(found) == 1 and found[0].mode and found[0].leading


def test_a_two_player_report_has_no_seats_section(tmp_path: Path, small) -> None:
    m, f = small
    res = write_results(tmp_path / "res", m, f)
    assert seats.read_seat_matches(ResultSet.load(res)).empty
    write_report(res, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "## Seats" not in md and "two-player analysis" not in md
    assert "## First-player advantage" in md and "## Matchups" in md
    assert not any(p.name.startswith("seat_") for p in (tmp_path / "rep" / "tables").iterdir())


FOUR = """
name = "four-report"
master_seed = 7
matches_per_pairing = 3
paired_seeds = true
boards = ["arena-pit"]
ais = ["focus-fire"]
ruleset = "arena"
[teams]
mode = "random_tables"
pool = { set = "arena-box" }
[options]
mode = "free_for_all"
turn_limit = 80
[[variants]]
name = "free_for_all"
[[variants]]
name = "two_vs_two"
options = { mode = "two_vs_two" }
"""


@pytest.fixture(scope="module")
def four_player_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from krosbalance.sim.runner import run_experiment

    root = tmp_path_factory.mktemp("four")
    source = root / "four.toml"
    source.write_text(textwrap.dedent(FOUR), encoding="utf-8")
    run_experiment(source, root / "out", jobs=1, progress=False)
    return root / "out"


def test_a_real_four_player_experiment_gets_a_seats_section_and_one_sentence_replacements(
    four_player_results: Path, tmp_path: Path
) -> None:
    rs = ResultSet.load(four_player_results)
    a = seats.for_result_set(rs)
    assert a is not None and a.n_seats == 4
    assert set(a.seats["arm"]) == {"free_for_all", "two_vs_two"}
    assert len(a.seats) == 4 * len(a.seats["match_id"].unique())
    assert set(a.partnerships["positions"]) <= {"1+3", "2+4"}
    title, doc, tables = build_document(rs)
    assert_report_leads_with_the_answer(doc, tables, "character strength at the table")
    headings = [v for k, v in doc.blocks if k == "h2"]
    assert headings.index("Seats") < headings.index("AIs")  # a leading section
    after = {
        headings_text: doc.blocks[i + 1]
        for i, (kind, headings_text) in enumerate(doc.blocks)
        if kind == "h2" and i + 1 < len(doc.blocks)
    }
    for heading in (
        "Character win rates (raw)",
        "Teammate-adjusted strength",
        "How much the verdict depends on the AI and the board",
        "Balance summary",
        "First-player advantage",
        "Matchups",
    ):
        kind, text = after[heading]
        assert kind == "p" and text.startswith("This section is a two-player analysis"), heading
        assert "Seats section" in text and text.count(". ") == 0  # one sentence
    for heading in ("Damage and knock-outs", "Match length and endings", "Board", "Errors", "Data", "AIs"):
        assert not after[heading][1].startswith("This section is a two-player"), heading
    assert {"seat_positions", "seat_strength", "seat_partnerships", "seat_by_seat", "damage", "cells"} <= set(
        tables
    )
    assert not {"first_player", "matchups", "adjusted_strength", "balance", "win_rates"} & set(tables)
    summary = next(v for k, v in doc.blocks if k == "ul")
    assert any("win rate by play position" in line and "AI tier heuristic" in line for line in summary)
    assert not any("first player won" in line.lower() for line in summary)
    out = tmp_path / "rep"
    write_report(four_player_results, out)
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Seats" in md and "could not be computed" not in md
    assert (out / "tables" / "seat_positions.csv").is_file() and (out / "seat_positions.png").is_file()
    assert not (out / "tables" / "first_player.csv").exists()


def test_the_verdict_measures_each_ai_on_its_own_tables_not_its_tier_pooled(monkeypatch) -> None:
    """The answer is one AI's and the comparison the next AI down's (issue 39), so the verdict's rows
    are per AI: a star that wins only at the search AI's tables is strong in the search AI's row and
    average in each heuristic's, and no row pools focus-fire with kiter or counts a mixed table."""
    from krosbalance.studies.seats import verdict as seat_verdict_module

    pool = (*POOL[:7], "star")
    search = seat_world(60, _star(0.9), ais=("lookahead-4p",), pool=pool, plant="star", seed=3)
    cheap = seat_world(
        60, at_random, ais=("focus-fire", "kiter"), pool=pool, plant="star", seed=4, start=len(search)
    )
    mixed = seat_world(4, at_random, ais=("kiter",), pool=pool, seed=5, start=len(search) + len(cheap))
    mixed["ai3"] = "focus-fire"
    m = pd.concat([search, cheap, mixed], ignore_index=True)
    m["deal"] = m["match_id"] // 4
    monkeypatch.setattr(seats, "for_result_set", lambda rs: seats.analyse(m))
    verdict = seat_verdict_module.seat_verdict(None, {})
    assert verdict is not None
    data = verdict.data
    assert set(data["ai"]) == {"lookahead-4p", "focus-fire", "kiter"}
    star = data[data["figure"] == "star"].set_index("ai")
    assert star.loc["lookahead-4p", "ci_low"] > 0.5
    for cheap_ai in ("focus-fire", "kiter"):
        assert star.loc[cheap_ai, "ci_low"] < 0 < star.loc[cheap_ai, "ci_high"]
        assert star.loc[cheap_ai, "n"] < star.loc["lookahead-4p", "n"]


def test_with_no_table_of_one_ai_the_verdict_pools_every_table_as_the_two_player_one_does(
    monkeypatch,
) -> None:
    """An AI ladder seats different AIs at every table: no row measures one AI, so the picture pools
    them (named so), as the two-player character verdict does, rather than saying nothing."""
    from krosbalance.studies.seats import verdict as seat_verdict_module

    m = seat_world(30, at_random, ais=("kiter",))
    m["ai1"] = m["ai3"] = "lookahead-4p"
    monkeypatch.setattr(seats, "for_result_set", lambda rs: seats.analyse(m))
    verdict = seat_verdict_module.seat_verdict(None, {})
    assert verdict is not None
    assert set(verdict.data["group"]) == {"pooled (every AI)"}
    assert set(verdict.data["ai"]) == {""}
    assert len(verdict.data) == len(POOL)
    assert "pooled over every AI" in verdict.caption
