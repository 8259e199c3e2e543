"""The throwaway mypyc copy behind the benchmark's mypyc column (krosbalance.tools.mypyc_copy)."""

import subprocess

import pytest

from krosbalance.tools import bench, mypyc_copy


def test_the_installed_package_runs_as_plain_python():
    assert mypyc_copy.build_mode() == "reference"
    assert "krosbalance.engine.state" in mypyc_copy.hot_modules()
    assert not any(name.endswith("__init__") for name in mypyc_copy.hot_modules())


def test_a_copy_of_the_same_sources_is_reused_not_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv(mypyc_copy.CACHE_ENV, str(tmp_path))
    assert mypyc_copy.cache_root() == tmp_path
    key = mypyc_copy.source_key()
    assert key == mypyc_copy.source_key() and len(key) == 64
    built = tmp_path / key[:20]
    built.mkdir()
    (built / mypyc_copy.DONE).write_text("123.4\n")
    assert mypyc_copy.mypyc_copy(quiet=True) == built  # found: no compiler run
    assert mypyc_copy.build_seconds(built) == pytest.approx(123.4)


@pytest.mark.slow
def test_the_copy_builds_compiles_every_hot_module_and_plays_the_same_matches(tmp_path, monkeypatch):
    """A real copy (a few minutes): every hot module compiled, the benchmark's mypyc side measured on
    it, and a seeded match of each ruleset's workload with the same digest as the reference's."""
    monkeypatch.setenv(mypyc_copy.CACHE_ENV, str(tmp_path))
    copy = mypyc_copy.mypyc_copy(quiet=True)
    code = (
        "from krosbalance.tools.mypyc_copy import expect_build; expect_build(); "
        "from krosbalance.play import play_match; from krosbalance.tools import builds; "
        "w = builds.WORKLOADS; "
        "print(*(builds.match_digest(play_match(*w[r].splits()[0], board=w[r].board, ai='random', "
        "seed=7, record='full', ruleset=r, options=w[r].options, engine='reference')) for r in sorted(w)))"
    )
    child = mypyc_copy.copy_python(copy, ["-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = child.communicate()
    assert child.returncode == 0, err
    from krosbalance.play import play_match
    from krosbalance.tools import builds

    w = builds.WORKLOADS
    mine = [
        builds.match_digest(
            play_match(
                *w[r].splits()[0],
                board=w[r].board,
                ai="random",
                seed=7,
                record="full",
                ruleset=r,
                options=w[r].options,
                engine="reference",
            )
        )
        for r in sorted(w)
    ]
    assert out.split() == mine
    pairs = bench.side_by_side(["random"], seconds=0.2, warmup=0.05, rounds=1, copy=copy)
    (round_,) = pairs["random"]
    assert round_[1] is not None and round_[1].build == "mypyc" and round_[1].matches >= 1


def test_the_cache_keeps_the_newest_finished_copies_and_never_one_being_built(tmp_path):
    import os

    for age, name in enumerate(["d", "c", "b", "a"]):  # a is the oldest
        copy = tmp_path / name
        copy.mkdir()
        (copy / mypyc_copy.DONE).write_text("1\n")
        os.utime(copy / mypyc_copy.DONE, (1_000_000 - age, 1_000_000 - age))
    building = tmp_path / "building-x"
    building.mkdir()
    removed = mypyc_copy.prune(tmp_path, keep=3)
    assert removed == [tmp_path / "a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "building-x", "c", "d"]
