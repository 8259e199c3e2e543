"""A tiny fix file (two rounds of one figure's HP on one pairing) for the fix finder's tests."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from krosbalance.content.registry import list_characters
from krosbalance.sim.experiment import loads_experiment

BASE = textwrap.dedent(
    """
    name = "fixing"
    master_seed = 9
    matches_per_pairing = 1
    ais = ["random"]
    [teams]
    mode = "splits"
    pool = [{ set = "arena-box" }]
    """
)


TINY = textwrap.dedent(
    """
    name = "tiny-fix"
    master_seed = 5
    matches_per_pairing = 2
    ais = ["random"]
    [teams]
    mode = "pairs"
    pairs = [[{a}, {b}]]
    [fix]
    band = 0.01
    fields = ["hp"]
    figures = [{f}]
    rounds = 2
    verify_deals = 2
    """
)


@pytest.fixture
def tiny_file(tmp_path: Path) -> Path:
    box = list_characters(set="arena-box")
    exp = loads_experiment(BASE)
    a, b = exp.pairings[0]
    path = tmp_path / "tiny.toml"
    path.write_text(
        TINY.format(a=json.dumps(list(a)), b=json.dumps(list(b)), f=json.dumps(a[0])), encoding="utf-8"
    )
    assert set(a) | set(b) <= set(box)
    return path
