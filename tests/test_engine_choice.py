"""The engine seam (issue 37, ``krosbalance.engine_choice``): the native core plays every match it can,
the reference everything else, transparently; ``engine="core"`` refuses in one line what the core
cannot play; a core fault is its match's error row; the runner's tables are the same on either engine
(bar the ``engine`` column), with one job or two; a run without the core says so once."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from krosbalance import engine_choice, native
from krosbalance.cli import main
from krosbalance.errors import CoreFault, EngineError
from krosbalance.play import play_match
from krosbalance.sim import tables
from krosbalance.sim.experiment import expand, load_experiment
from krosbalance.sim.match import run_match
from krosbalance.sim.runner import read_manifest, read_table, run_experiment

needs_core = pytest.mark.skipif(not native.available(), reason=str(native.why_unavailable()))

T0 = ["anna_tommy", "anna_tommy", "bill_tell", "bill_tell"]
T1 = ["oscar_kass", "oscar_kass", "lil_healey", "lil_healey"]


SUMMONER = ["bad_aboum", "queen_of_the_tofus", "king_of_the_gobballs", "anna_tommy"]

RANDOM = """
name = "engines"
master_seed = 37
matches_per_pairing = 2
boards = ["arena-elemental"]
ais = [["random", "random"]]

[teams]
mode = "splits"
pool = ["captain_amakna", "merkator", "queen_of_the_tofus", "oscar_kass", "bill_tell", "bad_aboum"]
"""
# 7 pairings x 1 board x 2 deals x 2 sides = 28 matches


def experiment_file(tmp_path: Path, text: str = RANDOM) -> Path:
    path = tmp_path / "engines.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_engine_override(monkeypatch):
    monkeypatch.delenv(native.ENGINE_ENV, raising=False)
    engine_choice._REFUSED.clear()
    engine_choice._PREPARED.clear()


def same_result(a, b) -> None:
    for name in (
        "winner",
        "end_reason",
        "turns",
        "first_player",
        "teams",
        "board",
        "ruleset",
        "seed",
        "versions",
        "values",
        "partnerships",
        "play_order",
        "events",
    ):
        assert getattr(a, name) == getattr(b, name), name
    assert [f.as_row() | f.values for f in a.fighters] == [f.as_row() | f.values for f in b.fighters]


# ------------------------------------------------------------------------------- the dispatch


@needs_core
@pytest.mark.parametrize("record", ["none", "summary"])
@pytest.mark.parametrize("teams", [(T0, T1), (SUMMONER, T1)], ids=["plain", "summons"])
def test_auto_plays_what_the_core_can_in_the_core_with_the_reference_result(record, teams):
    for seed in range(4):
        core = play_match(*teams, seed=seed, record=record, options={"turn_limit": 40})
        reference = play_match(
            *teams, seed=seed, record=record, options={"turn_limit": 40}, engine="reference"
        )
        assert (core.engine, reference.engine) == ("core", "reference")
        same_result(core, reference)


def _four_teams() -> tuple[list[str], ...]:
    """Four legal four-player teams of the box (level sum 6, R-A150), spread over its legal teams."""
    from krosbalance.rulesets.registry import get_ruleset
    from tests.fixtures.golden.arena_golden import BOX_POOL

    legal = get_ruleset("arena", {"mode": "free_for_all"}).all_teams(sorted(BOX_POOL))
    return tuple(list(legal[k * len(legal) // 4]) for k in range(4))


FOUR = _four_teams()


@needs_core
@pytest.mark.parametrize(
    "teams, kwargs",
    [
        ((T0, T1), {"options": {"demonic_rewards": True, "turn_limit": 30}}),
        ((SUMMONER, T1), {"options": {"demonic_rewards": True, "reward_reveal": "staged"}}),
        ((T0, T1), {"forbid": {"anna_tommy": ["spell:transposition"]}, "options": {"turn_limit": 30}}),
        (FOUR, {"options": {"mode": "free_for_all", "turn_limit": 20}}),
        (FOUR, {"options": {"mode": "two_vs_two", "demonic_rewards": True, "turn_limit": 20}}),
    ],
    ids=["rewards", "staged-rewards", "restricted", "four-free-for-all", "two-vs-two-rewards"],
)
def test_auto_plays_rewards_restricted_and_four_seats_in_the_core_with_the_reference_result(teams, kwargs):
    for seed in range(3):
        core = play_match(*teams, seed=seed, record="summary", **kwargs)
        reference = play_match(*teams, seed=seed, record="summary", engine="reference", **kwargs)
        assert (core.engine, reference.engine) == ("core", "reference")
        same_result(core, reference)


@needs_core
def test_the_core_gives_typed_events_in_full_without_checkpoints():
    core = play_match(T0, T1, seed=3, record="full", engine="core")
    reference = play_match(T0, T1, seed=3, record="full", engine="reference")
    same_result(core, reference)
    assert core.checkpoints == [] and reference.checkpoints
    # ``auto`` leaves a full record (a replay: checkpoints) to the reference
    assert play_match(T0, T1, seed=3, record="full").engine == "reference"


@needs_core
@pytest.mark.parametrize(
    "kwargs, why",
    [
        ({"ai": "REFUSED"}, "does not play the AI"),
        ({"ai": ["random", "REFUSED"]}, "does not play the AI"),
        # the core plays duels (issue 41), not yet restricted play in a duel
        (
            {
                "ruleset": "duel",
                "board": "duel-docks",
                "teams": (["anna_tommy"], ["oscar_kass"]),
                "forbid": 0,
            },
            "restricted play in a duel",
        ),
    ],
)
def test_auto_falls_back_to_the_reference_and_core_refuses_in_one_line(kwargs, why, user_ai):
    kwargs = dict(kwargs)
    if "forbid" in kwargs:  # the team's first spell, read from its card
        from krosbalance.content.registry import default_registry

        first = kwargs["teams"][0][0]
        kwargs["forbid"] = {first: [f"spell:{default_registry().load_character(first).spells[0].id}"]}
    if "ai" in kwargs:
        ai = kwargs["ai"]
        kwargs["ai"] = [user_ai if a == "REFUSED" else a for a in ai] if isinstance(ai, list) else user_ai
        kwargs["options"] = {"turn_limit": 4}
    teams = kwargs.pop("teams", (T0, T1))
    assert play_match(*teams, seed=1, **kwargs).engine == "reference"
    with pytest.raises(EngineError, match=why) as caught:
        play_match(*teams, seed=1, engine="core", **kwargs)
    assert "\n" not in str(caught.value)


@needs_core
def test_a_refused_shape_is_asked_of_the_core_once(monkeypatch, user_ai):
    from krosbalance import native_match

    calls = []
    original = native_match.prepare_core

    def counting(*args, **kwargs):
        calls.append(kwargs["ai"])
        return original(*args, **kwargs)

    refused = user_ai
    monkeypatch.setattr(native_match, "prepare_core", counting)
    for seed in range(3):
        assert play_match(T0, T1, seed=seed, ai=refused, options={"turn_limit": 4}).engine == "reference"
        assert play_match(T0, T1, seed=seed, options={"turn_limit": 4}).engine == "core"
    # a shape played is checked and built once too: its next matches reuse the call
    assert calls == [refused, "random"]


@needs_core
def test_a_shape_played_again_gives_what_a_fresh_one_gives():
    first = [play_match(T0, T1, seed=seed, ai="focus_fire", options={"turn_limit": 6}) for seed in range(3)]
    assert len(engine_choice._PREPARED) == 1
    for seed, result in enumerate(first):
        engine_choice._PREPARED.clear()
        assert play_match(T0, T1, seed=seed, ai="focus_fire", options={"turn_limit": 6}) == result
    # an option of another type is another shape (1 and True are equal as dict keys)
    key = engine_choice._fast_key
    assert key((T0, T1), "arena-elemental", "random", {"x": 1}, "arena", None, None) != key(
        (T0, T1), "arena-elemental", "random", {"x": True}, "arena", None, None
    )


def test_without_the_core_auto_plays_the_reference_and_core_refuses(monkeypatch):
    monkeypatch.setattr(native, "available", lambda: False)
    monkeypatch.setattr(native, "why_unavailable", lambda: "the native core is not installed")
    assert play_match(T0, T1, seed=2, options={"turn_limit": 4}).engine == "reference"
    with pytest.raises(EngineError, match="not installed"):
        play_match(T0, T1, seed=2, engine="core")


def test_the_environment_variable_overrides_the_argument(monkeypatch):
    monkeypatch.setenv(native.ENGINE_ENV, "reference")
    assert play_match(T0, T1, seed=2, options={"turn_limit": 4}, engine="core").engine == "reference"
    with pytest.raises(EngineError, match="expected one of"):
        play_match(T0, T1, seed=2, engine="native")


def test_team_errors_are_the_references_on_either_engine():
    from krosbalance.errors import TeamError

    for engine in ("auto", "reference"):
        with pytest.raises(TeamError, match="team0"):
            play_match(["nobody_at_all"], T1, engine=engine)


def _too_small_board(team_size: int) -> str:
    """A registry board with fewer deployment cells on some edge than ``team_size`` Krosmasters."""
    from krosbalance.content.registry import default_registry

    registry = default_registry()
    for board_id in registry.list_boards():
        board = registry.load_board(board_id)
        if min(bin(zone).count("1") for zone in board.deploy[:2]) < team_size:
            return board_id
    pytest.skip("no registry board is too small for a team")


@needs_core
@pytest.mark.parametrize("engine", ["auto", "core"])
def test_a_board_too_small_for_the_team_is_the_references_team_error_on_either_engine(engine):
    """R-A25: fewer free deployment cells than Krosmasters is a team error, never a fault of the core."""
    from krosbalance.errors import TeamError

    with pytest.raises(TeamError, match="free deployment cells"):
        play_match(T0, T1, board=_too_small_board(len(T0)), seed=1, engine=engine)


# ---------------------------------------------------------------------------------- core faults


class PanicException(BaseException):  # noqa: N818 - pyo3_runtime's name, a BaseException as PyO3's is
    """Stands for ``pyo3_runtime.PanicException``, which a Rust panic raises through PyO3."""


def panicking_core(monkeypatch, seeds):
    """The core panics on the matches of these seeds and plays the others."""
    from krosbalance import native_match

    original = native_match.PreparedMatch.play

    def core(self, seed, *args, **kwargs):
        if seed in seeds:
            raise PanicException("index out of bounds: the len is 3 but the index is 7")
        return original(self, seed, *args, **kwargs)

    monkeypatch.setattr(native_match.PreparedMatch, "play", core)


@needs_core
def test_a_core_panic_is_a_core_fault_never_swallowed(monkeypatch):
    panicking_core(monkeypatch, {5})
    with pytest.raises(CoreFault, match="KROSBALANCE_ENGINE=reference") as caught:
        play_match(T0, T1, seed=5)
    assert isinstance(caught.value.__cause__, PanicException)
    assert "seed 5" in str(caught.value) and "index out of bounds" in str(caught.value)


@needs_core
def test_a_core_fault_becomes_its_matchs_error_row_and_the_run_goes_on(tmp_path, monkeypatch):
    source = experiment_file(tmp_path)
    specs = expand(load_experiment(source))
    bad = specs[6]
    panicking_core(monkeypatch, {bad.seed})
    row = run_match(bad)
    (failed,), (error,) = row.matches, row.errors
    assert failed["engine"] == "core" and failed["end_reason"] == "error"
    assert failed["error"].startswith("CoreFault: the native core failed on this match")
    assert f"KROSBALANCE_ENGINE=reference krosbalance replay RESULTS {bad.match_id}" in failed["error"]
    assert error["seed"] == bad.seed and json.loads(error["spec"])["match_id"] == bad.match_id
    assert "PanicException" in error["traceback"] and "CoreFault" in error["traceback"]

    out = tmp_path / "out"
    summary = run_experiment(source, out, jobs=1, batch_size=8, progress=False)
    matches = read_table(out)
    bad_rows = matches[matches["seed"] == bad.seed]  # both sides of the deal share its seed
    assert summary.n_errors == len(bad_rows) == 2 and (bad_rows["engine"] == "core").all()
    good = matches[matches["seed"] != bad.seed]
    assert len(good) == 26 and (good["error"] == "").all() and (good["engine"] == "core").all()
    assert set(read_table(out, "errors")["match_id"]) == set(bad_rows["match_id"])
    # and the reference plays the failed match, as the message says
    assert run_match(bad, lambda *a, **k: play_match(*a, **k, engine="reference")).matches[0]["error"] == ""


# ------------------------------------------------------------------------- the runner's tables


@needs_core
def test_tables_are_the_same_on_either_engine_with_one_job_or_two(tmp_path):
    source = experiment_file(tmp_path)
    runs = {}
    for engine in ("reference", "core"):
        for jobs in (1, 2):
            out = tmp_path / f"{engine}-{jobs}"
            run_experiment(source, out, jobs=jobs, batch_size=7, progress=False, engine=engine)
            runs[engine, jobs] = (read_table(out), read_table(out, "fighters"), read_manifest(out))
    ref_matches, ref_fighters, _ = runs["reference", 1]
    assert len(ref_matches) == 28 and (ref_matches["error"] == "").all()
    assert ref_fighters["is_summon"].any()  # the summoners' pieces are in the tables too
    for (engine, jobs), (matches, fighters, manifest) in runs.items():
        assert (matches["engine"] == engine).all(), (engine, jobs)
        pd.testing.assert_frame_equal(matches.drop(columns="engine"), ref_matches.drop(columns="engine"))
        pd.testing.assert_frame_equal(fighters, ref_fighters)
        assert manifest["engine"] == engine
        assert manifest["core_version"] == (native.version() if engine == "core" else None)


@needs_core
def test_the_manifest_of_an_auto_run_names_the_core(tmp_path):
    out = tmp_path / "auto"
    run_experiment(experiment_file(tmp_path), out, jobs=1, progress=False)
    manifest = read_manifest(out)
    assert manifest["engine"] == "auto" and manifest["core_version"] == native.version()
    assert manifest["engine_note"] is None
    assert (read_table(out)["engine"] == "core").all()


def test_a_folder_without_the_engine_column_still_reads_and_reports(tmp_path, monkeypatch):
    """Results written before issue 37 (no ``engine`` column), alone or beside new shards."""
    source = experiment_file(tmp_path)
    old_columns = {k: v for k, v in tables.MATCH_COLUMNS.items() if k != "engine"}
    kwargs = {"jobs": 1, "batch_size": 10, "flush_matches": 20, "flush_seconds": 1e9, "progress": False}
    with monkeypatch.context() as m:
        m.setattr(tables, "MATCH_COLUMNS", old_columns)
        run_experiment(source, tmp_path / "old", engine="reference", **kwargs)
    run_experiment(source, tmp_path / "new", **kwargs)
    assert "engine" not in read_table(tmp_path / "old").columns

    # a folder of both: the first set of shards written before issue 37, the second after
    mixed = tmp_path / "mixed"
    shutil.copytree(tmp_path / "new", mixed)
    old_sets = (tmp_path / "old" / "shards.jsonl").read_text().splitlines()
    new_sets = (mixed / "shards.jsonl").read_text().splitlines()
    assert len(old_sets) == len(new_sets) == 2
    for table in ("matches", "fighters"):
        name = f"part-{0:08d}.parquet"
        shutil.copyfile(tmp_path / "old" / table / name, mixed / table / name)
    (mixed / "shards.jsonl").write_text("\n".join([old_sets[0], new_sets[1]]) + "\n")

    for folder in (tmp_path / "old", mixed):
        matches = read_table(folder)
        assert len(matches) == 28 and (matches["error"] == "").all()
        assert main(["report", str(folder), "--to", str(tmp_path / "report" / folder.name)]) == 0
    mixed_matches = read_table(mixed)
    assert mixed_matches["engine"].isna().sum() == 20


# ------------------------------------------------------------------------------- the warning


def run_cli(tmp_path: Path, capsys, *extra: str) -> list[str]:
    source = experiment_file(tmp_path, RANDOM.replace("matches_per_pairing = 2", "matches_per_pairing = 1"))
    out = tmp_path / f"cli-{len(list(tmp_path.iterdir()))}"
    assert main(["run", str(source), "--out", str(out), "--no-progress", "--jobs", "2", *extra]) == 0
    return [line for line in capsys.readouterr().err.splitlines() if "native core" in line]


def test_a_run_without_the_core_says_so_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(native, "installed", lambda: False)
    monkeypatch.setattr(native, "available", lambda: False)
    (line,) = run_cli(tmp_path, capsys)
    assert line.startswith("warning: the native core (krosbalance_core) is not installed")
    assert "reference engine plays" in line and "`make` with cargo on PATH" in line
    # the reference chosen is a choice, not a fallback: no warning
    assert run_cli(tmp_path, capsys, "--engine", "reference") == []
    monkeypatch.setenv(native.ENGINE_ENV, "reference")
    assert run_cli(tmp_path, capsys) == []


def test_a_run_with_the_core_says_nothing_of_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(native, "installed", lambda: True)
    assert engine_choice.missing_core_warning() is None


def test_every_arena_event_kind_is_its_class_name_in_snake_case():
    """What ``engine_choice`` falls back on where a compiled event class cannot be made without fields
    (Arena's events; Duel's ``DuelTurnEnded`` is ``turn_ended``, read by the duel bindings)."""
    import re

    classes = engine_choice._event_classes("arena")
    assert {"turn_started", "damaged", "match_ended"} <= set(classes)
    for kind, cls in classes.items():
        assert re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", cls.__name__).lower() == kind
