"""Mutated content files and damaged results folders, generated from a seed (issue 22's fuzz).

Content: one shipped character or reward file is mutated (a value replaced by an odd one, a key deleted
or added, the text cut, bytes spliced in, nesting made deep) in a copy of the content; ``list`` and
``validate`` never show a traceback, exit 0 or 2, and an experiment that validates plays its first match.
Results: a small finished run folder gets one to three damages (a copied, truncated, garbage or deleted
shard, a bad shard-list line, a deleted shard list); ``report`` never shows a traceback nor counts a match
twice, and ``--resume`` ends with every match exactly once.

A slice runs in ``make test``; ``make battery`` runs a few hundred cases of each.
"""

from __future__ import annotations

import random
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from krosbalance import cli
from krosbalance.content import registry as registry_module
from krosbalance.content.registry import DEFAULT_CHARACTER_FOLDERS, DEFAULT_REWARD_FOLDER, Registry
from krosbalance.sim import catalog, ledger
from krosbalance.sim.experiment import load_experiment
from krosbalance.sim.match import run_match
from krosbalance.sim.runner import read_table, run_experiment
from krosbalance.sim.trial import first_match_of_each_arm
from tests.sim.fakes import FakeCatalog, fake_play
from tests.test_fuzz_experiments import _toml, mutate

ROOT = Path(__file__).resolve().parents[1]
CHARACTER_FOLDER = DEFAULT_CHARACTER_FOLDERS[0]
EXPERIMENTS = {"character": "smoke.toml", "reward": "rewards-value-quick.toml"}


# --------------------------------------------------------------------------------------------- content


def _raw_damage(text: str, rng: np.random.Generator) -> bytes:
    """The file's text cut short, with bytes spliced in, or wrapped in deep nesting."""
    kind = int(rng.integers(3))
    data = text.encode("utf-8")
    if kind == 0:
        return data[: int(rng.integers(1, len(data)))]
    if kind == 1:
        at = int(rng.integers(len(data)))
        return data[:at] + bytes(rng.integers(0, 256, 16, dtype=np.uint8)) + data[at:]
    return data + b"\ndeep = " + b"[" * 800 + b"]" * 800 + b"\n"


def _content_case(seed: int, tmp_path: Path) -> tuple[str, Registry]:
    """A copy of the content with one file mutated: which kind it was and the registry that reads it."""
    rng = np.random.default_rng(seed)
    kind = "character" if seed % 2 == 0 else "reward"
    source = CHARACTER_FOLDER if kind == "character" else DEFAULT_REWARD_FOLDER
    copy = tmp_path / kind
    shutil.copytree(source, copy)
    files = sorted(p for p in copy.glob("*.toml"))
    victim = files[int(rng.integers(len(files)))]
    text = victim.read_text(encoding="utf-8")
    if rng.random() < 0.7:
        victim.write_text(_toml(mutate(tomllib.loads(text), rng)), encoding="utf-8")
    else:
        victim.write_bytes(_raw_damage(text, rng))
    if kind == "character":
        return kind, Registry(copy, *DEFAULT_CHARACTER_FOLDERS[1:])
    return kind, Registry(rewards=(copy,))


def _check_content(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kind, registry = _content_case(seed, tmp_path)
    monkeypatch.setattr(registry_module, "_DEFAULT", registry)
    catalog.arm_ruleset.cache_clear()
    try:
        listed = cli.main(["list", "characters"])  # anything but a KrosbalanceError escapes: a failure
        experiment_file = ROOT / "simulations" / EXPERIMENTS[kind]
        status = cli.main(["validate", str(experiment_file)])
        captured = capsys.readouterr()
        assert listed in (0, 2) and status in (0, 2), (seed, captured.err)
        assert "Traceback" not in captured.err, (seed, captured.err)
        errors = [line for line in captured.err.strip().splitlines() if line]
        assert all(line.startswith("error: ") for line in errors), (seed, captured.err)
        assert len(errors) == len(set(errors)), (seed, "a mistake printed twice", captured.err)
        if status == 0:
            spec = first_match_of_each_arm(load_experiment(experiment_file))[0]
            played = run_match(spec)
            assert not played.errors, (seed, played.errors[0]["traceback"][-800:])
    finally:
        catalog.arm_ruleset.cache_clear()


@pytest.mark.parametrize("seed", range(12))
def test_mutated_content_files_slice(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _check_content(seed, tmp_path, monkeypatch, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12, 212))
def test_mutated_content_files_battery(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _check_content(seed, tmp_path, monkeypatch, capsys)


# --------------------------------------------------------------------------------------------- results

RUN = """
name = "fuzzed"
master_seed = 11
matches_per_pairing = 3
boards = ["arena-elemental"]
ais = [["focus_fire", "random"]]

[teams]
mode = "pairs"
pairs = [[["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"],
          ["bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]]]
"""
N_RUN = 6


def _run(tmp_path: Path, out: Path, resume: bool = False) -> None:
    source = tmp_path / "fuzzed.toml"
    source.write_text(RUN, encoding="utf-8")
    run_experiment(
        source,
        out,
        play=fake_play,
        catalog=FakeCatalog(),
        progress=False,
        batch_size=2,
        flush_matches=2,
        resume=resume,
        notify=lambda line: None,
    )


def _damage(out: Path, rng: random.Random) -> str:
    shards = sorted(p for t in ledger.TABLES if (out / t).is_dir() for p in (out / t).iterdir())
    victim = rng.choice(shards)
    kind = rng.choice(["copy", "truncate", "garbage", "delete", "bad line", "no list", "empty file"])
    if kind == "copy":
        shutil.copy(victim, victim.with_name(f"backup-{rng.randrange(100)}.parquet"))
    elif kind == "truncate":
        data = victim.read_bytes()
        victim.write_bytes(data[: rng.randrange(len(data))])
    elif kind == "garbage":
        (victim.parent / f"part-{rng.randrange(10**8):08d}.parquet").write_bytes(rng.randbytes(200))
    elif kind == "delete":
        victim.unlink()
    elif kind == "bad line":
        with (out / ledger.LEDGER).open("a", encoding="utf-8") as fh:
            fh.write(rng.choice(['{"set": "part-00000000"}', "[1, 2]", "\x00\x01", '{"set": 5}']) + "\n")
    elif kind == "no list":
        (out / ledger.LEDGER).unlink(missing_ok=True)
    else:
        victim.write_bytes(b"")
    return f"{kind} {victim.relative_to(out)}"


def _check_results(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(seed)
    out = tmp_path / "R"
    _run(tmp_path, out)
    damages = [_damage(out, rng) for _ in range(rng.randint(1, 3))]
    status = cli.main(["report", str(out), "--to", str(tmp_path / "report")])
    captured = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in captured.err, (seed, damages, captured.err)
    if status == 0:
        matches = read_table(out, "matches")
        assert matches["match_id"].is_unique and len(matches) <= N_RUN, (seed, damages)
        assert set(matches["match_id"]) <= set(range(N_RUN)), (seed, damages)
    _run(tmp_path, out, resume=True)
    matches = read_table(out, "matches")
    assert sorted(matches["match_id"]) == list(range(N_RUN)), (seed, damages)
    fighters = read_table(out, "fighters")
    assert sorted(set(fighters["match_id"])) == list(range(N_RUN)), (seed, damages)
    assert ledger.check(out).complete, (seed, damages, ledger.check(out).notes())


@pytest.mark.parametrize("seed", range(12))
def test_damaged_results_folders_slice(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _check_results(seed, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12, 312))
def test_damaged_results_folders_battery(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check_results(seed, tmp_path, capsys)
