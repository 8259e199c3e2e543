"""Mutated experiment files, generated from a seed: ``validate`` never shows a traceback, and a file it
calls ok plays its first match without an error (no "validate ok, every match fails").

A slice runs in ``make test``; ``make battery`` runs a few hundred cases.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from krosbalance import cli
from krosbalance.sim.experiment import load_experiment
from krosbalance.sim.match import run_match
from krosbalance.sim.trial import first_match_of_each_arm

ROOT = Path(__file__).resolve().parents[1]
BASES = ("smoke.toml", "arena-4p.toml", "blast-challenges.toml", "rewards-value-quick.toml")
ODD_VALUES: tuple[Any, ...] = (
    0,
    -1,
    10**15,
    1.5,
    True,
    "",
    "no_such_thing",
    "x" * 300,
    [],
    [[]],
    {},
    {"set": "no-such-set"},
    [["bill_tell"]],
    {"tree": 1},
)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"


def _toml(data: dict[str, Any]) -> str:
    """A TOML text of ``data`` (tables as inline tables, arrays of tables as arrays of inline tables)."""
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in data.items())


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path of the document (into tables and arrays)."""
    out: list[tuple[Any, ...]] = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        out.append((*prefix, key))
        out += _paths(value, (*prefix, key))
    return out


def mutate(data: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """One to three mutations: a value replaced by an odd one, a key deleted, or an unknown key."""
    import copy

    doc = copy.deepcopy(data)
    for _ in range(int(rng.integers(1, 4))):
        paths = _paths(doc)
        if not paths:
            break
        path = paths[int(rng.integers(len(paths)))]
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        action = int(rng.integers(3))
        if action == 0:
            parent[path[-1]] = copy.deepcopy(ODD_VALUES[int(rng.integers(len(ODD_VALUES)))])
        elif action == 1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent["no_such_key"] = 1
    return doc


def _case(seed: int, tmp_path: Path) -> Path:
    rng = np.random.default_rng(seed)
    base = ROOT / "simulations" / BASES[seed % len(BASES)]
    data = tomllib.loads(base.read_text(encoding="utf-8"))
    data["matches_per_pairing"] = 1
    path = tmp_path / f"case-{seed}.toml"
    path.write_text(_toml(mutate(data, rng)), encoding="utf-8")
    return path


def _check(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _case(seed, tmp_path)
    status = cli.main(["validate", str(path)])  # anything but a KrosbalanceError escapes: a failure
    captured = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in captured.err, (seed, path.read_text(), captured.err)
    if status == 2:
        assert all(line.startswith("error: ") for line in captured.err.strip().splitlines()), captured.err
        return
    experiment = load_experiment(path)
    spec = first_match_of_each_arm(experiment)[0]
    played = run_match(spec)
    assert not played.errors, (seed, path.read_text(), played.errors[0]["traceback"][-800:])


@pytest.mark.parametrize("seed", range(24))
def test_mutated_experiment_files_slice(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(seed, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(24, 324))
def test_mutated_experiment_files_battery(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(seed, tmp_path, capsys)
