"""The search-tier benchmark functions that ``make bench`` calls: they run and report sane figures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from krosbalance import native
from krosbalance.tools.bench_search import (
    BuildRound,
    _round_from_json,
    copies_per_second,
    core_seconds_per_match,
    main,
    mid_game_state,
    search_seconds_per_match,
    search_table,
)


def test_copies_per_second_copies_a_mid_game_state() -> None:
    state = mid_game_state(turns=2)
    assert state.turn >= 2 and len(state.pieces()) >= 8
    bench = copies_per_second(seconds=0.05)
    assert bench.copies >= 100 and bench.per_second > 0
    assert "copies/s" in bench.line()


def test_search_seconds_per_match_counts_rollouts() -> None:
    bench = search_seconds_per_match("lookahead-fast", "kiter", matches=1)
    assert bench.matches == 1 and bench.seconds > 0
    assert bench.rollouts > 0 and bench.activations > 0
    assert bench.rollouts <= 3 * bench.activations  # lookahead-fast: 3 candidates x 1 dice set
    assert "s/match" in bench.line()


def test_cli_prints_both_figures(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--ai", "lookahead-fast", "--matches", "1", "--copy-seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "copies/s" in out and "lookahead-fast vs kiter" in out


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
def test_core_seconds_per_match_plays_the_search_deals_in_the_core(capsys) -> None:  # type: ignore[no-untyped-def]
    bench = core_seconds_per_match("lookahead-fast", "kiter", matches=2)
    assert bench.matches == 2 and bench.seconds > 0 and bench.heuristic_seconds > 0
    assert bench.ai == "lookahead-fast (core)"
    assert main(["--core", "--ai", "lookahead-fast", "--matches", "1"]) == 0
    assert "lookahead-fast (core) vs kiter" in capsys.readouterr().out


def test_worker_round_trips_through_json_and_the_table_sets_builds_side_by_side(capsys) -> None:  # type: ignore[no-untyped-def]
    args = ["--worker", "--ai", "lookahead-fast", "--matches", "1", "--copy-seconds", "0.05"]
    assert main(args) == 0
    done = _round_from_json(capsys.readouterr().out)
    assert done.build == "reference" and done.copies.copies >= 100
    assert [b.ai for b in done.search] == ["lookahead-fast"] and done.search[0].rollouts > 0
    faster = BuildRound(  # a stand-in for the mypyc copy's round (which takes minutes to build)
        "mypyc",
        replace(done.copies, seconds=done.copies.seconds / 2),
        tuple(replace(b, seconds=b.seconds / 3) for b in done.search),
    )
    table = search_table([(done, faster)])
    assert "reference vs mypyc" in table
    assert "copies/s" in table and "= 2.00x more in mypyc" in table
    assert "lookahead-fast vs kiter, s/match" in table and "= 3.00x faster in mypyc" in table
    assert "vs" not in search_table([(done, None)]).splitlines()[1]
