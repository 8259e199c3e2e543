"""The AI ladder: Bradley-Terry ratings, the win-rate matrix, the validity gate and the standing file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from krosbalance.ai.ladder import load_ladder
from krosbalance.analysis import ladder
from tests.analysis.fixtures import PLANTED_RATINGS, planted_ladder, planted_tables

TIERS = {"floor": "baseline", "plain": "heuristic", "clever": "heuristic", "deep": "search"}


@pytest.fixture(scope="module")
def matches() -> pd.DataFrame:
    return planted_ladder(n_deals=150, seed=5)


@pytest.fixture(scope="module")
def ratings(matches) -> pd.DataFrame:
    return ladder.ladder_ratings(matches, TIERS.get)


def test_ratings_recover_the_planted_order_with_intervals(ratings) -> None:
    assert ratings["ai"].tolist() == sorted(PLANTED_RATINGS, key=PLANTED_RATINGS.get, reverse=True)
    assert ratings["rating"].sum() == pytest.approx(0.0, abs=1e-8)  # the field's average AI at 0
    assert ((ratings["ci_low"] < ratings["rating"]) & (ratings["rating"] < ratings["ci_high"])).all()
    assert (ratings["interval"] == "deal-clustered").all() and (ratings["n"] == 900).all()
    assert ratings.set_index("ai")["tier"].to_dict() == TIERS
    assert ladder.rating_covariance(ratings).shape == (4, 4)


def test_win_matrix_is_consistent_and_clustered(matches) -> None:
    w = ladder.win_matrix(matches).set_index(["ai", "opponent"])
    assert len(w) == 12 and (w["n"] == 300).all()
    for (a, b), row in w.iterrows():
        assert row["win_rate"] + w.loc[(b, a), "win_rate"] == pytest.approx(1.0)  # no draws
    assert (w["deff"] >= 1).all() and (w["deff"] > 1).any()  # the shared dice correlate twins
    assert w.loc[("deep", "floor"), "ci_low"] > 0.5


def test_the_gate_passes_when_tiers_are_ordered(ratings) -> None:
    gate = ladder.validity_gate(ratings)
    assert len(gate) == 5  # floor<plain, floor<clever, floor<deep, plain<deep, clever<deep
    assert ladder.gate_passed(gate)
    assert all(ladder.validated_ais(ratings, gate).values())


def test_the_gate_fails_and_unvalidates_a_search_ai_that_is_not_stronger(matches) -> None:
    tiers = {**TIERS, "clever": "search", "deep": "heuristic"}  # a "search" AI below a heuristic one
    r = ladder.ladder_ratings(matches, tiers.get)
    gate = ladder.validity_gate(r)
    assert not ladder.gate_passed(gate)
    ok = ladder.validated_ais(r, gate)
    assert ok == {"deep": True, "clever": False, "plain": True, "floor": True}


def test_an_ai_of_unknown_tier_or_alone_in_its_tier_is_not_validated(matches) -> None:
    r = ladder.ladder_ratings(matches, {**TIERS, "deep": "unknown"}.get)
    ok = ladder.validated_ais(r, ladder.validity_gate(r))
    assert ok["deep"] is False
    only_heuristics = matches[
        matches["ai0"].isin(["plain", "clever"]) & matches["ai1"].isin(["plain", "clever"])
    ]
    r = ladder.ladder_ratings(only_heuristics, TIERS.get)
    assert not any(ladder.validated_ais(r, ladder.validity_gate(r)).values())  # no baseline to beat


def test_standing_file_round_trips_through_the_reader(tmp_path, matches) -> None:
    path = ladder.write_ladder(matches, tmp_path / "ladder.toml", experiment="planted", tier_of=TIERS.get)
    text = path.read_text(encoding="utf-8")
    assert 'experiment = "planted"' in text and "matches = 1800" in text
    back = load_ladder(path)
    expected = ladder.standings(matches, TIERS.get)
    assert set(back) == set(PLANTED_RATINGS)
    for name, s in back.items():
        e = expected[name]
        assert (s.tier, s.n, s.validated) == (e.tier, e.n, e.validated)
        assert (s.rating, s.ci_low, s.ci_high) == pytest.approx((e.rating, e.ci_low, e.ci_high), abs=1e-4)


def test_a_ruleset_ladder_is_written_beside_the_others_which_stay_as_they_were(tmp_path, matches) -> None:
    from krosbalance.ai.ladder import ladder_sources, load_ladders

    path = tmp_path / "ladder.toml"
    ladder.write_ladder(matches, path, experiment="arena-run", tier_of=TIERS.get)
    arena = load_ladder(path)
    ladder.write_ladder(matches.iloc[: len(matches) // 2], path, "duel-run", TIERS.get, ruleset="duel")
    both = load_ladders(path)
    assert set(both) == {"arena", "duel"}
    assert both["arena"] == arena and load_ladder(path, "arena") == arena
    assert {s.ruleset for s in both["duel"].values()} == {"duel"}
    assert both["duel"]["plain"].n < arena["plain"].n
    sources = ladder_sources(path)
    assert (sources["arena"].experiment, sources["duel"].experiment) == ("arena-run", "duel-run")
    with pytest.raises(ValueError, match="mix rulesets"):
        ladder.write_ladder(matches.assign(ruleset=["arena", "duel"] * (len(matches) // 2)), path)


def test_names_that_are_not_bare_toml_keys_are_quoted(tmp_path) -> None:
    from krosbalance.ai.ladder import LadderStanding

    table = {"look ahead": LadderStanding("look ahead", "search", 1.0, 0.5, 1.5, 10, False)}
    (tmp_path / "l.toml").write_text(ladder.ladder_toml(table))
    assert load_ladder(tmp_path / "l.toml")["look ahead"].tier == "search"


def test_no_ladder_without_two_different_ais(tmp_path) -> None:
    m, _ = planted_tables(20, seed=1)
    assert ladder.cross_ai_matches(m).empty
    assert ladder.ladder_ratings(m).empty and ladder.win_matrix(m).empty
    with pytest.raises(ValueError, match="no match pairs two different AIs"):
        ladder.write_ladder(m, tmp_path / "x.toml")


def test_team_composition_is_held_fixed_when_sides_field_different_teams() -> None:
    m, _ = planted_tables(300, seed=6, draw_rate=0.0)
    # "strong" AI always plays side 0's team; the teams differ: the model must not credit the teams to it
    m = m.assign(ai0=np.where(m["swapped"], "b", "a"), ai1=np.where(m["swapped"], "a", "b"))
    r = ladder.ladder_ratings(m, lambda a: "heuristic").set_index("ai")
    assert r.loc["a", "ci_low"] < 0 < r.loc["a", "ci_high"]  # the AIs are equal by construction


def test_four_seat_matches_are_read_as_two_sides_on_their_own_ladder(matches) -> None:
    """Four-player Arena's ladder (``arena-4p``): a four-seat match with one AI in seats 0 and 2 and
    another in 1 and 3 reads as those two sides (the winning seat or partnership ``% 2``), so the
    planted ladder told as free-for-all tables gives the ratings it gives as two-seat matches; a
    table whose AIs do not alternate is left out; the matches' ladder is ``arena-4p``."""
    from krosbalance.analysis.top_ai import run_ruleset

    rng = np.random.default_rng(3)
    four = matches.assign(
        ai2=matches["ai0"],
        ai3=matches["ai1"],
        team2=matches["team0"],
        team3=matches["team1"],
        winner=matches["winner"] + 2 * rng.integers(0, 2, size=len(matches)),  # seat 0/2 or 1/3
        first_player=matches["first_player"] + 2 * rng.integers(0, 2, size=len(matches)),
    )
    odd = four.iloc[:1].assign(ai2=four["ai1"].iloc[0], match_id=10**6)  # AIs not alternating
    four = pd.concat([four, odd], ignore_index=True)
    assert len(ladder.cross_ai_matches(four)) == len(ladder.cross_ai_matches(matches))
    two_sided = ladder.ladder_ratings(matches, TIERS.get).set_index("ai")["rating"]
    four_sided = ladder.ladder_ratings(four, TIERS.get).set_index("ai")["rating"]
    assert np.allclose(four_sided.sort_index(), two_sided.sort_index(), atol=1e-6)
    assert ladder.matches_ruleset(four) == "arena-4p" and ladder.matches_ruleset(matches) == "arena"
    assert run_ruleset(four) == "arena-4p" and run_ruleset(matches) == "arena"
