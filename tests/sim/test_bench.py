"""The benchmark behind `make bench` runs and reports what it says it measures."""

from krosbalance.sim import bench


def test_bench_reports_matches_per_second_and_speedup(capsys):
    assert (
        bench.main(["--seconds", "0.3", "--warmup", "0.1", "--speedup", "random", "--speedup-deals", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert "matches/s" in out
    assert "runner, random box round robin, 70 matches" in out and "speed-up" in out


def test_box_splits_are_the_35_four_vs_four_splits():
    splits = bench.box_splits()
    assert len(splits) == 35
    assert all(len(a) == 4 and len(b) == 4 and not set(a) & set(b) for a, b in splits)
