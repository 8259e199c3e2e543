"""Experiment arms (``[[variants]]``): every deal is played under each arm on the same seed, the arm
is the matches table's ``variant``, and a bad arm gets a located message."""

from __future__ import annotations

import pytest

from krosbalance.engine.results import MatchResult
from krosbalance.sim.experiment import check_experiment_text, expand, loads_experiment
from krosbalance.sim.tables import match_row

BASE = """
name = "arms"
master_seed = 7
matches_per_pairing = 2
boards = ["blast-a"]
ais = ["random"]
ruleset = "blast"
[teams]
mode = "random_deal"
pool = "all"
[options]
dice_faces = "basic"
"""
ARMS = """
[[variants]]
name = "none"
[[variants]]
name = "iop"
options = { challenges = ["grande_melee_de_iop"] }
"""


def test_every_deal_is_played_under_every_arm_on_the_same_seed() -> None:
    experiment = loads_experiment(BASE + ARMS)
    specs = expand(experiment)
    assert experiment.n_matches == len(specs) == 2 * 2 * 2
    assert [s.match_id for s in specs] == list(range(len(specs)))
    by_arm: dict[str, list[tuple[int, bool, tuple[str, ...]]]] = {}
    for spec in specs:
        by_arm.setdefault(spec.variant, []).append((spec.seed, spec.swapped, spec.team0))
    assert by_arm["none"] == by_arm["iop"]  # paired across arms
    options = {s.variant: s.options for s in specs}
    assert options["none"] == {"dice_faces": "basic"}
    assert options["iop"] == {"dice_faces": "basic", "challenges": ["grande_melee_de_iop"]}


def test_without_variants_one_unnamed_arm() -> None:
    specs = expand(loads_experiment(BASE))
    assert {s.variant for s in specs} == {""} and len(specs) == 4


@pytest.mark.parametrize(
    ("arms", "field"),
    [
        ('[[variants]]\nname = "a"\n[[variants]]\nname = "a"\n', "variants[1].name"),
        ('[[variants]]\nname = "a"\noptions = { challenges = ["zeus"] }\n', "variants[0].options.challenges"),
        ('[[variants]]\nname = "a"\ncolour = 1\n', "variants[0].colour"),
        ("[[variants]]\noptions = {}\n", "variants[0].name"),
    ],
)
def test_bad_arms_are_located(arms: str, field: str) -> None:
    _, errors = check_experiment_text(BASE + arms, "arms.toml")
    assert field in {e.field for e in errors}, [str(e) for e in errors]


def test_the_matches_row_carries_the_arm_and_the_rulesets_declared_values() -> None:
    spec = expand(loads_experiment(BASE + ARMS))[1]
    result = MatchResult(
        winner=0,
        end_reason="glyphs",
        turns=10,
        first_player=0,
        teams=(spec.team0, spec.team1),
        board="blast-a",
        ruleset="blast",
        seed=spec.seed,
        fighters=[],
        values={"glyphs": (3, 1), "dofus": 0},
    )
    row = match_row(spec, result)
    assert row["variant"] == spec.variant
    assert (row["glyphs0"], row["glyphs1"], row["dofus"]) == (3, 1, 0) and "extras" not in row
