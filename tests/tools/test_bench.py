"""The benchmark behind `make bench` runs and reports what it says it measures.

The mypyc column's copy takes minutes to build: the default suite checks the column's table with a
stand-in round and :mod:`krosbalance.tools.mypyc_copy`'s cache; tests/tools/test_mypyc_copy.py's slow
test builds a real copy (``make battery``).
"""

from dataclasses import replace

import pytest

from krosbalance.tools import bench


def test_bench_prints_the_reference_the_search_tier_and_the_runner_speedup(capsys):
    argv = [
        "--seconds",
        "0.3",
        "--warmup",
        "0.1",
        "--rounds",
        "1",
        "--speedup",
        "random",
        "--speedup-deals",
        "1",
        "--search",
        "lookahead-fast",
        "--search-matches",
        "1",
    ]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "no mypyc column (--mypyc adds it)" in out
    table = out.split("matches/s, one core")[1]
    assert "random" in table and "mypyc/ref" in table
    assert "random box round robin, 70 matches" in out and "speed-up" in out
    search = out.split("search tier, one core")[1]
    assert "state copies/s" in search and "lookahead-fast vs kiter, s/match" in search
    assert "vs mypyc" not in search


def test_one_measurement_reports_its_build():
    result = bench.measure("random", seconds=0.1, warmup=0.05)
    assert result.matches >= 1 and result.build == "reference"
    assert "matches/s" in result.line()


def test_box_splits_are_the_35_four_vs_four_splits():
    splits = bench.box_splits()
    assert len(splits) == 35
    assert all(len(a) == 4 and len(b) == 4 and not set(a) & set(b) for a, b in splits)


def test_the_core_is_a_column_where_it_plays_the_ai_and_mypyc_one_when_asked(user_ai):
    from krosbalance import native

    if not native.available():
        pytest.skip(str(native.why_unavailable()))
    from krosbalance.ai.registry import list_ais

    assert bench.measure("random", seconds=0.1, warmup=0.05, engine="core").build == "core"
    assert all(bench.core_plays(name) for name in list_ais("arena") if name != user_ai)
    assert not bench.core_plays(user_ai)  # an AI registered in Python: the core does not play it
    pairs = bench.side_by_side(["random"], seconds=0.2, warmup=0.05, rounds=1)
    (random_round,) = pairs["random"]
    assert random_round[0].build == "reference" and random_round[1] is None
    assert random_round[2] is not None and random_round[2].build == "core"
    # a row without the core (the benchmark's worker processes cannot import a test's AI: the same
    # round with its core side left out stands for it), and a mypyc side (the reference's figures
    # relabelled stand for a copy that takes minutes to build)
    reference = random_round[0]
    pairs["random"] = [(reference, replace(reference, build="mypyc"), random_round[2])]
    pairs[user_ai] = [(reference, None, None)]
    table = bench.side_by_side_table(pairs)
    header, random_row, user_row = table.splitlines()
    assert "mypyc/ref" in header and "core/mypyc" in header and "core/ref" in header
    assert random_row.count("x") >= 3 and ", mypyc " in random_row and ", core " in random_row
    assert " 1.00x" in random_row  # mypyc/ref of the stand-in
    assert ", core " not in user_row and ", mypyc " not in user_row


def test_four_player_tables_seat_legal_teams_and_every_one_of_them():
    from krosbalance.content.registry import list_characters
    from krosbalance.rulesets.registry import get_ruleset

    rules = get_ruleset("arena", bench.FOUR_OPTIONS)
    legal = {tuple(team) for team in rules.all_teams(list_characters(set=bench.BOX_SET))}
    tables = bench.four_player_tables()
    assert tables and all(len(table) == 4 and set(table) <= legal for table in tables)
    assert {team for table in tables for team in table} == legal


def test_the_four_player_bench_plays_four_seats_on_both_engines(capsys):
    from krosbalance import native

    result = bench.measure("random", seconds=0.1, warmup=0.05, seats=4)
    assert result.ai == "4p:random" and result.matches >= 1
    if not native.available():
        return
    assert bench.core_plays("focus_fire", seats=4)
    argv = ["--seconds", "0.2", "--warmup", "0.05", "--rounds", "1", "--four", "focus_fire"]
    assert bench.main(argv) == 0
    four = capsys.readouterr().out.split("four-player Arena (free-for-all)")[1]
    row = next(line for line in four.splitlines() if line.strip().startswith("focus_fire"))
    assert ", core " in row


def test_the_duel_bench_plays_duels_and_puts_the_core_beside_the_builds(capsys):
    from krosbalance import native
    from krosbalance.ai.registry import list_ais

    duel_ai = next(ai for ai in list_ais("duel") if ai not in list_ais("arena"))
    result = bench.measure(duel_ai, board=bench.DUEL_BOARD, seconds=0.1, warmup=0.05, ruleset="duel")
    assert result.ai == f"duel:{duel_ai}" and result.matches >= 1
    argv = ["--seconds", "0.2", "--warmup", "0.05", "--rounds", "1", "--duel", duel_ai]
    assert bench.main(argv) == 0
    duels = capsys.readouterr().out.split("Duel Pack:")[1]
    row = next(line for line in duels.splitlines() if line.strip().startswith(duel_ai))
    assert (", core " in row) == native.available()
