"""The search-tier benchmark functions that ``make bench`` calls: they run and report sane figures."""

from __future__ import annotations

from krosbalance.sim.bench_search import copies_per_second, main, mid_game_state, search_seconds_per_match


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
