"""The chunked scan and the deal-pattern compression give the numbers of the full tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis import balance, dependence, ladder, scan, stats, strength
from krosbalance.analysis.resultset import ResultSet
from krosbalance.tools.memory_bench import synthetic_results
from tests.analysis.fixtures import planted_by_ai, planted_ladder, planted_tables, write_results


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> tuple[ResultSet, pd.DataFrame, pd.DataFrame]:
    """A few thousand matches of the runner's exact schema on a fixed design (so deals repeat)."""
    root = synthetic_results(tmp_path_factory.mktemp("box") / "res", 2100, seed=3, shard_matches=350)
    rs = ResultSet.load(root)
    return rs, rs.matches, rs.fighters


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(
        a.reset_index(drop=True), b.reset_index(drop=True), check_dtype=False, rtol=1e-7, atol=1e-9
    )


def test_compression_is_exact_for_every_match_statistic(box) -> None:
    _, m, _ = box
    c = scan.compress_matches(m)
    assert len(c) < 0.8 * len(m)  # the design repeats: fewer patterns than matches
    assert c["weight"].sum() == len(m)  # every match once
    assert c.drop_duplicates("cluster")["weight"].sum() == len(m) // 2  # every deal once (paired seeds)
    for fn in (stats.character_win_rates, stats.matchup_matrix, stats.first_player_advantage):
        _same(fn(m), fn(c))
    _same(strength.adjusted_strength(m), strength.adjusted_strength(c))
    _same(balance.balance_summary(m), balance.balance_summary(c))
    _same(dependence.headline_by(m, "ai_matchup"), dependence.headline_by(c, "ai_matchup"))


def test_compression_keeps_errors_and_clusters(small) -> None:
    m, _ = small
    c = scan.compress_matches(m)
    assert (c["error"] != "").sum() > 0
    assert c.loc[c["error"] != "", "weight"].sum() == (m["error"] != "").sum()
    _same(stats.character_win_rates(m), stats.character_win_rates(c))
    ladder_m = planted_ladder(n_deals=40)
    _same(
        ladder.ladder_ratings(ladder_m, lambda a: "heuristic"),
        ladder.ladder_ratings(scan.compress_matches(ladder_m), lambda a: "heuristic"),
    )


@pytest.mark.parametrize("chunk", [300])
def test_summary_of_shards_equals_the_full_tables(box, chunk) -> None:
    rs, m, f = box
    s = scan.summarize(rs.root, chunk_matches=chunk)
    full = scan.Summary.from_tables(m, f)
    assert s.n_matches == full.n_matches == len(m)
    assert s.matches.drop_duplicates("cluster")["weight"].sum() == len(m) // 2  # chunks never split a deal
    for fn in (stats.character_win_rates, stats.matchup_matrix, stats.first_player_advantage):
        _same(fn(s.matches), fn(full.matches))
    _same(strength.adjusted_strength(s.matches), strength.adjusted_strength(full.matches))
    _same(stats.match_length_table(s.turns), stats.match_length_table(m))
    _same(stats.damage_table(s.fighters), stats.damage_stats(m, f))
    _same(stats.ko_table(s.fighters), stats.ko_stats(m, f))
    assert s.versions["engine_version"] == sorted(set(m["engine_version"]))
    assert s.first_match == {"arena-elemental": 0}


def test_summary_counts_errors_and_keeps_the_first_ones(tmp_path) -> None:
    m, f = planted_tables(n_pairings=300, seed=4, error_rate=0.05)
    write_results(tmp_path, m, f)
    s = scan.summarize(tmp_path, chunk_matches=50)
    bad = m[m["error"] != ""]
    assert s.n_errors == len(bad) > 0
    assert sorted(s.errors["match_id"]) == sorted(bad["match_id"])[: len(s.errors)]
    _same(stats.damage_table(s.fighters), stats.damage_stats(m, f))


def test_resultset_is_lazy_and_its_statistics_never_load_the_tables(box) -> None:
    rs = ResultSet.load(box[0].root)
    assert rs.n_matches == len(box[1])
    rates = rs.character_win_rates()
    rs.adjusted_strength(), rs.balance_summary(), rs.match_length(), rs.damage_stats(), rs.strength_by_ai()
    assert "matches" not in rs._tables and "fighters" not in rs._tables  # statistics came from the scan
    _same(rates, stats.character_win_rates(rs.matches))  # the full table on demand gives the same
    assert "matches" in rs._tables and "repr" not in repr(rs)


def test_resultset_in_memory_uses_its_tables(small) -> None:
    m, f = small
    rs = ResultSet(m, f)
    _same(rs.character_win_rates(), stats.character_win_rates(m))
    summary = rs.summary().matches  # the tables themselves, with each team's AI as a scan gives it
    pd.testing.assert_frame_equal(summary[list(m.columns)], m)
    assert {"ai_a", "ai_b"} <= set(summary.columns)


def test_events_of_one_match_are_read_alone(tmp_path, small) -> None:
    m, f = small
    events = pd.DataFrame(
        {"match_id": [0, 0, 1], "seq": [0, 1, 0], "turn": [1, 2, 1], "kind": ["turn_ended"] * 3}
    )
    ResultSet(m, f, events=events).save(tmp_path / "r")
    rs = ResultSet.load(tmp_path / "r")
    one = rs.events_of(0)
    assert one["seq"].tolist() == [0, 1] and "events" not in rs._tables
    assert ResultSet.load(tmp_path / "r").events_of(5).empty


def test_several_ais_and_boards_compress_too() -> None:
    m, _ = planted_by_ai(120, boards=("tiny", "wide"))
    c = scan.compress_matches(m)
    _same(dependence.strength_by(m, "board"), dependence.strength_by(c, "board"))
    assert np.isclose(c["weight"].sum(), len(m))
