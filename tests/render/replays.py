"""Small real matches of every ruleset for the replay tests, teams chosen by set (never by name)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from krosbalance.engine.results import MatchResult
from krosbalance.sim.experiment import MatchSpec, expand, load_experiment
from krosbalance.sim.match import play_spec

EXPERIMENTS = {
    "arena": """
name = "replay-arena"
master_seed = 11
matches_per_pairing = 2
boards = ["arena-elemental"]
ais = ["focus_fire"]
[teams]
mode = "random_deal"
pool = { set = "arena-box" }
""",
    "arena-2v2": """
name = "replay-2v2"
master_seed = 12
matches_per_pairing = 1
boards = ["arena-elemental"]
ais = ["focus_fire"]
[teams]
mode = "random_tables"
pool = { set = "arena-box" }
[options]
mode = "two_vs_two"
turn_limit = 320
""",
    "blast": """
name = "replay-blast"
master_seed = 13
matches_per_pairing = 2
boards = ["blast-a"]
ais = ["blast_glyph"]
ruleset = "blast"
[teams]
mode = "random_deal"
pool = "all"
""",
    "duel": """
name = "replay-duel"
master_seed = 14
matches_per_pairing = 1
boards = ["duel-workshop"]
ais = ["duel_brawler"]
ruleset = "duel"
[teams]
mode = "round_robin"
pool = [{ set = "duel-pack" }]
""",
}


def experiment_file(kind: str, folder: Path) -> Path:
    path = folder / f"{kind}.toml"
    path.write_text(EXPERIMENTS[kind], encoding="utf-8")
    return path


@cache
def _specs(kind: str, folder: str) -> tuple[MatchSpec, ...]:
    return tuple(expand(load_experiment(experiment_file(kind, Path(folder)))))


@cache
def played(kind: str, index: int, folder: str) -> tuple[MatchSpec, MatchResult]:
    """Match ``index`` of the ruleset's small experiment, played with ``record="full"``."""
    spec = _specs(kind, folder)[index]
    return spec, play_spec(spec, record="full")
