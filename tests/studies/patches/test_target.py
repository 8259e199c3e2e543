"""The patches study's headline quantity for ``[target]`` and a fix file's ``verify_half_width``:
every figure's strength half-width in every arm, from the report's own estimator (``arm_strengths``);
the verification's strongest added AI played to it in rounds, its stage writing and reading back."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from krosbalance.ai.ladder import load_ladder
from krosbalance.ai.ladder_order import strength_order
from krosbalance.ai.registry import ai_problem, ai_tier, list_ais
from krosbalance.analysis.dependence import POOLED
from krosbalance.content.registry import list_characters
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import load_experiment, loads_experiment
from krosbalance.sim.fix_table import parse_fix
from krosbalance.sim.patches import Patch
from krosbalance.sim.runner import fingerprint
from krosbalance.sim.stages import experiment_toml
from krosbalance.sim.target import target_of
from krosbalance.studies.patches import target
from krosbalance.studies.patches.fixer import verify_experiment
from krosbalance.studies.patches.planner import planned_stages
from krosbalance.studies.patches.proposal import Proposal
from krosbalance.studies.patches.tables import arm_strengths
from tests.studies.patches.test_fixer import BASE
from tests.studies.patches.test_tables import _matches


def test_half_widths_are_each_arms_strength_intervals() -> None:
    matches = _matches(np.random.default_rng(3), 400, ["shipped", "proposed"])
    widths = target.half_widths(matches)
    table = arm_strengths(matches, by="ai_matchup")
    table = table[table["group"] == POOLED]
    assert len(widths) == len(table) == 8  # four figures, two arms
    for r in table.itertuples(index=False):
        assert widths[f"{r.term} · {r.arm}"] == pytest.approx((r.ci_high - r.ci_low) / 2)
    assert target.half_widths(matches.iloc[:0]) == {}


def test_a_sweep_or_four_seats_cannot_be_sized() -> None:
    assert "sweep" in target.problem(SimpleNamespace(sweep=json.dumps({"kind": "figure"}), seats=2))
    assert "two-player" in target.problem(SimpleNamespace(sweep="", seats=4))
    assert target.problem(SimpleNamespace(sweep="", seats=2)) == ""


def _search_ais() -> list[str]:
    search = [a for a in list_ais() if ai_tier(a) == "search" and not ai_problem(a, "arena")]
    return strength_order(search, "arena", load_ladder())


def test_the_verification_plays_its_strongest_ai_to_the_half_width(tmp_path: Path) -> None:
    strongest, weaker = _search_ais()[0], _search_ais()[-1]
    table = {
        "fields": ["hp"],
        "verify_deals": 2,
        "verify_ais": [weaker, {"ai": strongest, "deals": 3}],
        "verify_half_width": 0.2,
        "verify_max_deals": 12,
    }
    spec = parse_fix(table, "fix.toml")
    assert (spec.verify_half_width, spec.verify_max_deals) == (0.2, 12)
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    proposal = Proposal(
        Patch("p", {"characters": {fig: {"hp": 9}}}), ((fig, "hp", 1),), pd.DataFrame(), 0.15, True, "t"
    )
    verify = verify_experiment(exp, spec, proposal)
    planned = target_of(verify)
    assert planned is not None and planned.study == "patches" and planned.half_width == 0.2
    (ai,) = planned.ais
    assert (ai.ai, ai.round_deals, ai.max_deals) == (strongest, 3, 12)
    assert verify.ais[ai.matchup] == (strongest, strongest)
    assert verify.deals_per_matchup == (2, 1, 12)  # the file's AI, the weaker verifier, the cap
    back = loads_experiment(experiment_toml(verify))  # a stage is written as a file and read back
    assert fingerprint(back) == fingerprint(verify) and back.target == verify.target
    source = tmp_path / "fix.toml"
    source.write_text(
        BASE.replace("[teams]", "[fix]\nverify_ais = ['random']\nverify_half_width = 0.2\n[teams]"),
        encoding="utf-8",
    )
    stages, upper = planned_stages(load_experiment(source))
    assert upper and len(stages) == 4  # two rounds of probe and verification, the cap counted


def test_bad_verify_target_keys_are_one_clear_line_each() -> None:
    for table, field, words in (
        ({"verify_ais": ["random"], "verify_half_width": 0}, "fix.verify_half_width", "> 0"),
        ({"verify_half_width": 0.15}, "fix.verify_half_width", "verify_ais"),
        ({"verify_ais": ["random"], "verify_max_deals": 5}, "fix.verify_max_deals", "verify_half_width"),
        (
            {"verify_ais": [{"ai": "random", "deals": 4}], "verify_half_width": 0.1, "verify_max_deals": 2},
            "fix.verify_max_deals",
            ">= the verify AI's deals",
        ),
    ):
        with pytest.raises(ExperimentError) as info:
            parse_fix({"fields": ["hp"], **table}, "fix.toml")
        assert info.value.field == field and words in info.value.reason and "\n" not in str(info.value)
