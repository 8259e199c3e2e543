"""A results folder is checked before it is read (issue 22.3): the runner's shard list decides what the
report and ``--resume`` read; copies, strangers and damaged sets are named once and never counted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis.report import write_report
from krosbalance.analysis.resultset import ResultSet
from krosbalance.sim import ledger
from krosbalance.sim.runner import read_table, run_experiment
from tests.sim.fakes import FakeCatalog, fake_play

CAT = FakeCatalog()
TINY = """
name = "tiny"
master_seed = 7
matches_per_pairing = 2
boards = ["arena-elemental"]
ais = [["focus_fire", "random"]]

[teams]
mode = "pairs"
pairs = [[["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
          ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]],
         [["queen_of_the_tofus", "bill_tell", "oscar_kass", "lil_healey"],
          ["anna_tommy", "kassius_kaos", "king_of_the_gobballs", "bad_aboum"]]]
"""
N = 8  # 2 pairings x 2 deals x 2 sides


def _run(tmp_path: Path, out: Path, *, resume: bool = False, notes: list[str] | None = None) -> None:
    source = tmp_path / "tiny.toml"
    source.write_text(TINY, encoding="utf-8")
    run_experiment(
        source,
        out,
        play=fake_play,
        catalog=CAT,
        progress=False,
        batch_size=2,
        flush_matches=2,  # one set of shards per batch: several sets to lose
        resume=resume,
        notify=(notes.append if notes is not None else None),
    )


@pytest.fixture
def run_folder(tmp_path: Path) -> Path:
    out = tmp_path / "R"
    _run(tmp_path, out)
    return out


def _ids(out: Path) -> list[int]:
    return sorted(int(i) for i in read_table(out, "matches")["match_id"])


def test_a_fresh_run_starts_with_an_empty_shard_list_and_says_nothing(tmp_path: Path) -> None:
    notes: list[str] = []
    _run(tmp_path, tmp_path / "fresh", notes=notes)
    assert notes == []
    assert ledger.check(tmp_path / "fresh").complete


def test_a_folder_without_a_shard_list_reads_shards_of_any_name(tmp_path: Path, run_folder: Path) -> None:
    """Folders written by hand or by older versions name their shards as they like."""
    legacy = tmp_path / "legacy"
    (legacy / "matches").mkdir(parents=True)
    frame = read_table(run_folder, "matches")
    frame.iloc[:4].to_parquet(legacy / "matches" / "shard-000.parquet")
    frame.iloc[4:].to_parquet(legacy / "matches" / "shard-001.parquet")
    found = ledger.check(legacy)
    assert found.complete and sum(s.n_matches for s in found.sets) == N
    assert ResultSet.load(legacy).n_matches == N


def test_the_runner_lists_every_set_it_commits(run_folder: Path) -> None:
    found = ledger.check(run_folder)
    assert found.listed and found.complete
    assert sum(s.n_matches for s in found.sets) == N
    listed = {p for t in ledger.TABLES for p in found.files(t)}
    on_disk = {p for t in ("matches", "fighters") for p in (run_folder / t).glob("*.parquet")}
    assert listed == on_disk
    assert json.loads((run_folder / "manifest.json").read_text())["shard_list"] == ledger.LEDGER


def test_a_copied_shard_is_not_counted_twice(run_folder: Path) -> None:
    """Reproducer: `cp R/matches/part-00000000.parquet R/matches/backup.parquet` made the report
    say "16 error-free matches out of 16" for 8 matches."""
    shutil.copy(run_folder / "matches" / "part-00000000.parquet", run_folder / "matches" / "backup.parquet")
    rs = ResultSet.load(run_folder)
    assert rs.n_matches == N
    assert rs.summary().n_matches == N
    assert len(rs.matches) == N
    notes = rs.folder_notes()
    assert len(notes) == 1 and "matches/backup.parquet" in notes[0] and "not read" in notes[0]


def test_a_garbage_shard_is_skipped_by_the_report_and_set_aside_by_resume(
    run_folder: Path, tmp_path: Path
) -> None:
    """Reproducer: a garbage shard ended `report` and `--resume` in ArrowInvalid tracebacks."""
    (run_folder / "matches" / "part-99999999.parquet").write_bytes(b"not parquet at all")
    assert ResultSet.load(run_folder).n_matches == N
    notes: list[str] = []
    _run(tmp_path, run_folder, resume=True, notes=notes)
    assert len(notes) == 1 and "part-99999999.parquet" in notes[0] and ledger.SET_ASIDE in notes[0]
    assert (run_folder / ledger.SET_ASIDE / "matches" / "part-99999999.parquet").is_file()
    assert ledger.check(run_folder).complete
    assert _ids(run_folder) == list(range(N))


def test_a_deleted_fighters_shard_is_reported_and_replayed_by_resume(
    run_folder: Path, tmp_path: Path
) -> None:
    """Reproducer: a deleted fighters shard was never replayed and the report did not say so."""
    victim = sorted((run_folder / "fighters").glob("part-*.parquet"))[1]
    victim.unlink()
    rs = ResultSet.load(run_folder)
    assert rs.lost_matches() == 2
    assert rs.n_matches == N - 2  # the set's matches are left out, not read without their fighters
    assert any("is missing" in n and victim.name in n for n in rs.folder_notes())
    notes: list[str] = []
    _run(tmp_path, run_folder, resume=True, notes=notes)
    assert len(notes) == 1 and "played again" in notes[0]
    assert ledger.check(run_folder).complete
    assert _ids(run_folder) == list(range(N))
    fighters = read_table(run_folder, "fighters")
    assert sorted(set(fighters["match_id"])) == list(range(N))


def test_an_altered_shard_of_the_same_size_is_caught_by_its_checksum(
    run_folder: Path, tmp_path: Path
) -> None:
    shard = sorted((run_folder / "matches").glob("part-*.parquet"))[0]
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    assert any("checksum" in n for n in ledger.check(run_folder).notes())
    _run(tmp_path, run_folder, resume=True)
    assert _ids(run_folder) == list(range(N))


def test_the_report_says_when_a_table_is_incomplete(run_folder: Path, tmp_path: Path) -> None:
    sorted((run_folder / "matches").glob("part-*.parquet"))[0].unlink()
    report = write_report(run_folder, tmp_path / "report")
    html = report.read_text(encoding="utf-8")
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    for text in (html, md):
        assert "Results folder check" in text and "Incomplete" in text and "--resume" in text


def test_bad_lines_of_the_shard_list_are_named_and_their_sets_replayed(
    run_folder: Path, tmp_path: Path
) -> None:
    path = run_folder / ledger.LEDGER
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], "{garbage", lines[0], *lines[2:]]) + "\n", encoding="utf-8")
    found = ledger.check(run_folder)
    assert len(found.bad_lines) == 2  # the garbage line and the repeated one
    assert sum(s.n_matches for s in found.sets) == N - 2
    _run(tmp_path, run_folder, resume=True)
    assert _ids(run_folder) == list(range(N))
    assert ledger.check(run_folder).complete


def test_a_folder_without_a_shard_list_is_read_with_guards_and_adopted_on_resume(
    run_folder: Path, tmp_path: Path
) -> None:
    (run_folder / ledger.LEDGER).unlink()
    shutil.copy(
        run_folder / "matches" / "part-00000000.parquet", run_folder / "matches" / "part-00000099.parquet"
    )
    shutil.copy(run_folder / "matches" / "part-00000002.parquet", run_folder / "matches" / "backup.parquet")
    (run_folder / "matches" / "part-77777777.parquet").write_bytes(b"\x00" * 64)
    found = ledger.check(run_folder)
    assert not found.listed
    assert sum(s.n_matches for s in found.sets) == N
    reasons = " ".join(found.notes())
    assert "already holds" in reasons and "not a readable Parquet" in reasons and "missing" in reasons
    assert reasons.count("backup.parquet") == 1  # a copy under another name repeats ids: not read
    assert ResultSet.load(run_folder).n_matches == N
    _run(tmp_path, run_folder, resume=True)
    assert (run_folder / ledger.LEDGER).is_file()
    assert ledger.check(run_folder).complete
    assert _ids(run_folder) == list(range(N))


def test_a_folder_with_nothing_intact_gives_one_clear_error(run_folder: Path) -> None:
    for shard in (run_folder / "matches").glob("*.parquet"):
        shard.write_bytes(b"garbage")
    with pytest.raises(FileNotFoundError, match="no intact matches"):
        ResultSet.load(run_folder)


def test_a_saved_result_set_gets_a_shard_list(run_folder: Path, tmp_path: Path) -> None:
    saved = ResultSet.load(run_folder).save(tmp_path / "copy")
    assert ledger.check(saved).listed and ledger.check(saved).complete
    shutil.copy(saved / "matches" / "part-00000000.parquet", saved / "matches" / "again.parquet")
    assert ResultSet.load(saved).n_matches == N
    assert np.array_equal(ResultSet.load(saved).matches["match_id"], np.arange(N))


def test_the_report_command_names_each_file_it_skips_once(
    run_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from krosbalance import cli

    (run_folder / "fighters" / "part-55555555.parquet").write_bytes(b"garbage")
    shutil.copy(run_folder / "matches" / "part-00000000.parquet", run_folder / "matches" / "backup.parquet")
    assert cli.main(["report", str(run_folder), "--to", str(tmp_path / "rep")]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 2
    assert any("backup.parquet" in w for w in warnings) and any("part-55555555" in w for w in warnings)


# ------------------------------------------------------------------ issue 36: the ids of every shard


def _unlisted(run_folder: Path) -> Path:
    """The run folder as an older version left it: no shard list (and a manifest that names none)."""
    (run_folder / ledger.LEDGER).unlink()
    manifest = json.loads((run_folder / "manifest.json").read_text(encoding="utf-8"))
    del manifest["shard_list"]
    (run_folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return run_folder


def _rewrite(path: Path, frame: pd.DataFrame) -> None:
    frame.to_parquet(path, index=False)


def _shard(run_folder: Path, k: int, table: str = "matches") -> Path:
    return sorted((run_folder / table).glob("part-*.parquet"))[k]


def test_without_a_shard_list_ids_repeated_inside_one_shard_are_not_counted(
    run_folder: Path, tmp_path: Path
) -> None:
    """Reproducer: one shard holding every match twice made the report say "16 error-free matches
    out of 16" for 8, and ``--resume`` exit 0 keeping it."""
    _unlisted(run_folder)
    for table in ("matches", "fighters"):
        frame = read_table(run_folder, table)
        for shard in (run_folder / table).glob("*.parquet"):
            shard.unlink()
        _rewrite(run_folder / table / "part-00000000.parquet", pd.concat([frame, frame]))
    found = ledger.check(run_folder)
    assert found.sets == [] and [n for n in found.notes() if "part-00000000" in n] == [
        "matches/part-00000000.parquet: holds 8 match id(s) more than once (first: 0); not read",
        "fighters/part-00000000.parquet: belongs to a matches shard that is not read; not read",
    ]
    with pytest.raises(FileNotFoundError, match="more than once"):
        ResultSet.load(run_folder)
    notes: list[str] = []
    _run(tmp_path, run_folder, resume=True, notes=notes)
    assert len(notes) == 2 and all(ledger.SET_ASIDE in n for n in notes)
    assert _ids(run_folder) == list(range(N)) and ledger.check(run_folder).complete


def test_without_a_shard_list_ids_beyond_the_run_and_another_rulesets_shard_are_left_out(
    run_folder: Path, tmp_path: Path
) -> None:
    """Reproducer: ids beyond the run's matches and a Duel shard in an Arena run were counted (92 of
    92), and ``--resume`` kept them. Each is left out with one line, and resume replays what is missing."""
    _unlisted(run_folder)
    beyond = read_table(run_folder, "matches").iloc[:2].assign(match_id=[N, N + 1])
    _rewrite(run_folder / "matches" / "part-00000008.parquet", beyond)
    duel = pd.read_parquet(_shard(run_folder, 1)).assign(ruleset="duel")
    _rewrite(_shard(run_folder, 1), duel)
    found = ledger.check(run_folder)
    assert sum(s.n_matches for s in found.sets) == N - 2
    assert found.notes() == [
        "matches/part-00000002.parquet: holds matches of ruleset 'duel', not this run's 'arena'; not read",
        "matches/part-00000008.parquet: holds 2 match id(s) outside this run's 0-7 (first: 8); not read",
        "fighters/part-00000002.parquet: belongs to a matches shard that is not read; not read",
    ]
    rs = ResultSet.load(run_folder)
    assert rs.n_matches == rs.summary().n_matches == N - 2
    _run(tmp_path, run_folder, resume=True)
    matches = read_table(run_folder, "matches")
    assert matches["match_id"].tolist() == list(range(N)) and set(matches["ruleset"]) == {"arena"}
    assert (run_folder / ledger.SET_ASIDE / "matches" / "part-00000008.parquet").is_file()


def test_with_a_shard_list_ids_another_listed_set_holds_are_not_counted(
    run_folder: Path, tmp_path: Path
) -> None:
    """Reproducer: a listed set repeating another's ids was counted (90 of 80): the list was trusted."""
    copy = run_folder / "matches" / "part-00000099.parquet"
    shutil.copy(_shard(run_folder, 0), copy)
    shutil.copy(_shard(run_folder, 0, "fighters"), run_folder / "fighters" / copy.name)
    paths = {t: run_folder / t / copy.name for t in ("matches", "fighters")}
    ledger.commit(run_folder, ledger.describe("part-00000099", paths, [0, 1]))
    found = ledger.check(run_folder)
    assert sum(s.n_matches for s in found.sets) == N
    assert found.notes() == [
        "part-00000099 (2 matches, ids 0-1): matches/part-00000099.parquet holds 2 match id(s) an earlier "
        "set already holds (a copy?); its matches are left out (--resume replays those no other set holds)"
    ]
    assert found.lost_matches == 0  # the copy's matches are read, from the set it copied
    assert ResultSet.load(run_folder).summary().n_matches == N
    _run(tmp_path, run_folder, resume=True)
    assert _ids(run_folder) == list(range(N)) and ledger.check(run_folder).complete


@pytest.mark.parametrize("listed", [False, True])
def test_a_shard_of_the_wrong_schema_is_named_with_its_column_and_not_read(
    run_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], listed: bool
) -> None:
    """Reproducer: a shard whose ``turns`` were text, or that had no ``pairing``, ended ``report`` in
    ArrowInvalid / IntCastingNaNError tracebacks."""
    from krosbalance import cli

    if not listed:
        _unlisted(run_folder)
    texts = pd.read_parquet(_shard(run_folder, 1))
    _rewrite(_shard(run_folder, 1), texts.assign(turns=texts["turns"].astype(str)))
    _rewrite(_shard(run_folder, 2), pd.read_parquet(_shard(run_folder, 2)).drop(columns=["pairing"]))
    if listed:  # the list rewritten to match, as if the run had written them
        entries = [
            ledger.describe(s.name, {t: s.path(run_folder, t) for t in s.tables()}, [s.first_id, s.last_id])
            if s.n_matches == 2
            else s
            for s in ledger.read_ledger(run_folder)[0]
        ]
        ledger.write_ledger(run_folder, entries)
    assert cli.main(["report", str(run_folder), "--to", str(tmp_path / "rep")]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Error" not in err
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert any(
        "matches/part-00000002.parquet" in w and "column 'turns' is string, not int64" in w for w in warnings
    )
    assert any("matches/part-00000004.parquet" in w and "has no column 'pairing'" in w for w in warnings)
    assert ResultSet.load(run_folder).summary().n_matches == N - 4
    _run(tmp_path, run_folder, resume=True)
    assert _ids(run_folder) == list(range(N)) and ledger.check(run_folder).complete


def test_without_a_shard_list_a_shard_of_another_run_of_the_same_experiment_is_left_out(
    run_folder: Path, tmp_path: Path
) -> None:
    """A shard records its run's fingerprint: one from the same experiment run with another master
    seed (its ids and rows fit this run) is named and not read, and ``--resume`` plays its matches."""
    other = tmp_path / "other"
    source = tmp_path / "tiny-seed-8.toml"
    source.write_text(TINY.replace("master_seed = 7", "master_seed = 8"), encoding="utf-8")
    run_experiment(source, other, play=fake_play, catalog=CAT, progress=False, batch_size=2, flush_matches=2)
    _unlisted(run_folder)
    shutil.copy(_shard(other, 0), _shard(run_folder, 0))
    shutil.copy(_shard(other, 0, "fighters"), _shard(run_folder, 0, "fighters"))
    found = ledger.check(run_folder)
    assert sum(s.n_matches for s in found.sets) == N - 2
    (note, *_) = found.notes()
    assert note.startswith("matches/part-00000000.parquet: was written by another run (fingerprint ")
    _run(tmp_path, run_folder, resume=True)
    assert _ids(run_folder) == list(range(N))
    _run(tmp_path, tmp_path / "fresh")
    resumed, fresh = (
        read_table(out, "matches").sort_values("match_id") for out in (run_folder, tmp_path / "fresh")
    )
    assert resumed["seed"].tolist() == fresh["seed"].tolist()
