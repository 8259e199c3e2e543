from __future__ import annotations

import json

import pandas as pd
import pytest

from krosbalance.analysis.resultset import ResultSet
from tests.analysis.fixtures import SPEC_TEXT, planted_tables, write_results


def test_load_concatenates_and_sorts_shards(tmp_path, small) -> None:
    m, f = small
    write_results(tmp_path, m, f)
    rs = ResultSet.load(tmp_path)
    assert rs.matches["match_id"].is_monotonic_increasing
    assert len(rs.matches) == len(m) and len(rs.fighters) == len(f)
    assert rs.spec_text == SPEC_TEXT
    assert rs.manifest["experiment"] == "planted"
    assert rs.events is None
    pd.testing.assert_frame_equal(rs.matches, m.sort_values("match_id").reset_index(drop=True))
    assert str(rs.matches["winner"].dtype) == "Int64"


def test_ok_and_error_matches(small) -> None:
    m, f = small
    rs = ResultSet(m, f)
    assert len(rs.ok_matches) + len(rs.error_matches) == len(m)
    assert (rs.error_matches["error"] != "").all()
    assert set(rs.ok_fighters["match_id"]) <= set(rs.ok_matches["match_id"])
    assert "ok=" in repr(rs)


def test_parquet_round_trip(tmp_path, small) -> None:
    m, f = small
    events = pd.DataFrame({"match_id": [0, 0, 1], "turn": [1, 2, 1], "kind": ["turn_ended"] * 3})
    rs = ResultSet(
        m, f, events=events, spec_text=SPEC_TEXT, manifest={"experiment": "planted", "master_seed": 3}
    )
    rs.save(tmp_path / "copy")
    back = ResultSet.load(tmp_path / "copy")
    pd.testing.assert_frame_equal(back.matches, rs.matches)
    pd.testing.assert_frame_equal(
        back.fighters, rs.fighters.sort_values(["match_id", "side", "uid"]).reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(back.events, events)
    assert back.spec_text == SPEC_TEXT and back.manifest == rs.manifest
    pd.testing.assert_frame_equal(back.character_win_rates(), rs.character_win_rates())
    with pytest.raises(FileExistsError):
        rs.save(tmp_path / "copy")
    rs.save(tmp_path / "copy", overwrite=True)
    assert len(ResultSet.load(tmp_path / "copy").matches) == len(m)


def test_load_missing_directory(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        ResultSet.load(tmp_path)


def test_load_without_fighters(tmp_path) -> None:
    m, _ = planted_tables(n_pairings=3, seed=2)
    (tmp_path / "matches").mkdir()
    m.to_parquet(tmp_path / "matches" / "part-00000000.parquet")
    (tmp_path / "manifest.json").write_text(json.dumps({"experiment": "x"}))
    rs = ResultSet.load(tmp_path)
    assert rs.fighters.empty and rs.damage_stats().empty
    assert not rs.character_win_rates().empty


def test_methods_delegate(small) -> None:
    rs = ResultSet(*small)
    for method in (
        "character_win_rates",
        "damage_stats",
        "ko_stats",
        "matchup_matrix",
        "first_player_advantage",
        "match_length",
        "adjusted_strength",
        "balance_summary",
        "dominated_teams",
    ):
        assert isinstance(getattr(rs, method)(), pd.DataFrame), method


def test_the_summary_has_each_teams_ai_whether_or_not_the_tables_were_read(tmp_path, small) -> None:
    """Read lazily the summary is a scan with ``ai_a``/``ai_b``; once ``ok_matches`` has read the
    tables it is built from them, and must keep the same columns (issue 40)."""
    m, f = small
    write_results(tmp_path, m, f)
    scanned = ResultSet.load(tmp_path).summary().matches
    read = ResultSet.load(tmp_path)
    assert len(read.ok_matches)  # reads the tables
    in_memory = read.summary().matches
    assert {"ai_a", "ai_b"} <= set(scanned.columns)
    assert {"ai_a", "ai_b"} <= set(in_memory.columns)
    swapped = in_memory["swapped"].astype(bool) if "swapped" in in_memory else False
    assert (in_memory["ai_a"] == in_memory["ai0"].where(~swapped, in_memory["ai1"])).all()
