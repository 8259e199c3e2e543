"""The fix finder (krosbalance.studies.patches.fixer, krosbalance.sim.fix_table): its [fix] table, its stages and its optimiser."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from krosbalance.content.registry import default_registry, list_characters
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import loads_experiment
from krosbalance.sim.fix_table import FixSpec, knobs_of, parse_fix, parse_knob_arm
from krosbalance.sim.patched_cards import patched_registry
from krosbalance.sim.patches import Patch
from krosbalance.sim.runner import fingerprint
from krosbalance.sim.stages import experiment_toml
from krosbalance.studies.patches.fixer import load_fix, probe_experiment, verify_experiment
from krosbalance.studies.patches.proposal import Proposal, _predict, sensitivity, slope_verdict, solve

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


def test_solve_changes_the_fewest_values_then_the_smallest() -> None:
    strengths = {"a": -0.6, "b": 0.3, "c": 0.3}
    slopes = {("a", "hp"): 0.2, ("b", "hp"): 0.2, ("c", "hp"): 0.2}
    bounds = {k: (-4, 4) for k in slopes}
    changes, reached, _ = solve(strengths, slopes, bounds, 0.15)
    assert reached
    # one value, the smallest that works: a +4 moves a by 0.2 x 4 x 2/3 and b, c by -0.2 x 4 / 3
    # (a +3 leaves a at -0.2, outside the band)
    assert changes == {("a", "hp"): 4}
    moved = {
        f: s + sum(slopes[k] * d * ((k[0] == f) - 1 / 3) for k, d in changes.items())
        for f, s in strengths.items()
    }
    assert all(abs(v) <= 0.15 + 1e-9 for v in moved.values())


def test_solve_says_when_the_band_cannot_be_reached_and_minimises_the_worst() -> None:
    strengths = {"a": -2.0, "b": 1.0, "c": 1.0}
    slopes = {("a", "hp"): 0.1}
    changes, reached, _ = solve(strengths, slopes, {("a", "hp"): (-2, 2)}, 0.15)
    assert not reached and changes == {("a", "hp"): 2}


def test_solve_without_a_usable_slope_changes_nothing() -> None:
    assert solve({"a": 0.5, "b": -0.5}, {}, {}, 0.15)[:2] == ({}, False)


def test_prediction_moves_every_figure_by_the_sum_to_zero_share() -> None:
    chars = pd.DataFrame({"coef": [-0.6, 0.3, 0.3], "se": [0.1, 0.1, 0.1]}, index=["a", "b", "c"])
    out = _predict(chars, {("a", "hp"): 3}, {("a", "hp"): 0.2}, {("a", "hp"): 0.05}).set_index("term")
    assert np.allclose(out["predicted"], [-0.2, 0.1, 0.1])
    assert np.isclose(out.loc["a", "predicted_se"], np.sqrt(0.01 + (2 / 3 * 3 * 0.05) ** 2))


def test_sensitivity_recovers_a_planted_slope() -> None:
    rng = np.random.default_rng(0)
    figs = ["a", "b", "c", "d"]
    rows = []
    truth = {"a": 0.4, "b": 0.0, "c": -0.2, "d": -0.2}
    for deal in range(3000):
        arm = ["", "a.hp.up2"][deal % 2]
        t0 = list(rng.choice(figs, 2, replace=False))
        t1 = [f for f in figs if f not in t0]
        bonus = 0.3 * 2 * (t0.count("a") - t1.count("a")) if arm else 0.0
        eta = sum(truth[f] for f in t0) - sum(truth[f] for f in t1) + bonus
        win = rng.random() < 1 / (1 + np.exp(-eta))
        rows.append(
            {
                "match_id": deal,
                "pairing": deal,
                "deal": 0,
                "team0": ",".join(t0),
                "team1": ",".join(t1),
                "winner": 0 if win else 1,
                "first_player": 0,
                "error": "",
                "end_reason": "gg",
                "variant": arm,
            }
        )
    fit = sensitivity(pd.DataFrame(rows), {"a.hp.up2": ("a", "hp", 2)})
    slope = fit.set_index("term").loc["hp"]
    assert slope["ci_low"] < 0.3 < slope["ci_high"]


def test_parse_fix_refuses_bad_tables_in_one_line() -> None:
    for table, field in (
        ({"band": -1}, "fix.band"),
        ({"fields": ["charm"]}, "fix.fields"),
        ({"figures": ["nobody"]}, "fix.figures"),
        ({"step": {"hp": 0}}, "fix.step"),
        ({"slopes": "odd"}, "fix.slopes"),
        ({"what": 1}, "fix.what"),
    ):
        with pytest.raises(ExperimentError) as info:
            parse_fix(table, "fix.toml")
        assert info.value.field == field and "\n" not in str(info.value)


def test_probe_and_verify_stages_are_patched_arms_that_load_back_from_their_files() -> None:
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    spec = FixSpec(fields=("hp",), figures=(fig,), verify_deals=2)
    probe = probe_experiment(exp, spec)
    assert [name for name, _ in probe.variants] == ["shipped", f"{fig}.hp.up2"]
    hp = default_registry().load_character(fig).hp
    assert patched_registry(dict(probe.arm_patches)[f"{fig}.hp.up2"]).load_character(fig).hp == hp + 2
    assert fingerprint(loads_experiment(experiment_toml(probe))) == fingerprint(probe)
    patch = Patch("p", {"characters": {fig: {"hp": hp + 1}}})
    proposal = Proposal(patch, ((fig, "hp", 1),), pd.DataFrame(), 0.15, True, "test")
    verify = verify_experiment(exp, spec, proposal)
    assert verify.master_seed != exp.master_seed and verify.matches_per_pairing == 2
    assert [name for name, _ in verify.variants] == ["shipped", "proposed"]
    assert fingerprint(loads_experiment(experiment_toml(verify))) == fingerprint(verify)


def test_the_shipped_fix_file_validates(tmp_path: Path) -> None:
    exp, spec = load_fix(Path(__file__).resolve().parents[3] / "simulations" / "fix-the-box.toml")
    assert spec.band == 0.15 and exp.pairings


def test_solve_uses_a_negative_slope_to_weaken_a_strong_figure() -> None:
    """A dearer spell weakens its figure: a slope below 0 is a lever like any other."""
    strengths = {"a": 0.6, "b": -0.3, "c": -0.3}
    slopes = {("a", "spells.arrow.ap_cost"): -0.9}  # +1 AP: a -0.6, b and c +0.3
    changes, reached, _ = solve(strengths, slopes, {("a", "spells.arrow.ap_cost"): (-1, 1)}, 0.15)
    assert reached and changes == {("a", "spells.arrow.ap_cost"): 1}


def test_a_change_is_bounded_by_the_probe_step_and_by_a_share_of_the_printed_value() -> None:
    spec = FixSpec(fields=("hp",), step={"hp": 2})
    assert spec.bound_of("hp") == 2  # the probe's step: the fit is not extrapolated past it
    assert spec.bound_of("hp", printed=6) == 1  # a quarter of 6 HP, rounded down
    assert spec.bound_of("hp", printed=12) == 2
    assert spec.bound_of("spells.plaguing_arrow.ap_cost", printed=1) == 1  # at least 1
    wide = FixSpec(fields=("hp",), step={"hp": 2}, max_change={"hp": 4}, max_share=0.5)
    assert wide.bound_of("hp", printed=12) == 4 and wide.bound_of("hp", printed=6) == 3


def test_spell_knobs_are_one_per_spell_that_has_the_value() -> None:
    box = list_characters(set="arena-box")
    for fig in box:
        card = default_registry().load_character(fig)
        knobs = knobs_of(fig, ["hp", "spells.ap_cost", "spells.amount"])
        assert knobs[0] == "hp"
        assert {k for k in knobs if k.endswith(".ap_cost")} == {f"spells.{s.id}.ap_cost" for s in card.spells}
        assert {k for k in knobs if k.endswith(".amount")} == {
            f"spells.{s.id}.amount" for s in card.spells if s.amount > 0
        }
        for knob in knobs:
            assert parse_knob_arm(f"{fig}.{knob}.up1") == (fig, knob, 1)


def test_probe_arms_patch_a_spell_value_of_one_figure() -> None:
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    spell = default_registry().load_character(fig).spells[0]
    spec = FixSpec(fields=("spells.ap_cost",), figures=(fig,))
    probe = probe_experiment(exp, spec)
    arm = f"{fig}.spells.{spell.id}.ap_cost.up1"
    assert arm in dict(probe.variants)
    patched = patched_registry(dict(probe.arm_patches)[arm]).load_character(fig)
    assert next(s for s in patched.spells if s.id == spell.id).ap_cost == spell.ap_cost + 1
    assert fingerprint(loads_experiment(experiment_toml(probe))) == fingerprint(probe)


def test_verification_adds_the_stronger_ais_with_one_deal_each() -> None:
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    spec = parse_fix({"fields": ["hp"], "verify_deals": 2, "verify_ais": ["lookahead-fast"]}, "fix.toml")
    patch = Patch("p", {"characters": {fig: {"hp": 9}}})
    verify = verify_experiment(exp, spec, Proposal(patch, ((fig, "hp", 1),), pd.DataFrame(), 0.15, True, "t"))
    assert verify.ais == (("random", "random"), ("lookahead-fast", "lookahead-fast"))
    assert verify.deals_per_matchup == (2, 1)
    assert fingerprint(loads_experiment(experiment_toml(verify))) == fingerprint(verify)


def test_bad_new_fix_keys_are_one_clear_line_each() -> None:
    for table, field, words in (
        ({"fields": ["spells.charm"]}, "fix.fields", "spells.ap_cost"),
        ({"max_share": 0}, "fix.max_share", "share"),
        ({"max_share": 2}, "fix.max_share", "share"),
        ({"verify_ais": ["no_such_ai"]}, "fix.verify_ais", "unknown AI"),
        ({"verify_ais": "lookahead"}, "fix.verify_ais", "list"),
    ):
        with pytest.raises(ExperimentError) as info:
            parse_fix(table, "fix.toml")
        assert info.value.field == field and words in info.value.reason and "\n" not in str(info.value)


def test_a_slope_of_the_unexpected_sign_is_left_out_as_noise() -> None:
    cov = pd.DataFrame(
        {
            "coef": [0.2, -0.8, 0.1, 0.09],
            "ci_low": [0.01, -1.3, -0.2, 0.04],
            "ci_high": [0.4, -0.3, 0.4, 0.14],
        },
        index=["a.spells.t.ap_cost", "b.spells.p.ap_cost", "c.spells.q.ap_cost", "hp"],
    )
    assert slope_verdict(cov, "a.spells.t.ap_cost", "spells.t.ap_cost") == "against"  # dearer helps?
    assert slope_verdict(cov, "b.spells.p.ap_cost", "spells.p.ap_cost") == "use"
    assert slope_verdict(cov, "c.spells.q.ap_cost", "spells.q.ap_cost") == "unused"
    assert slope_verdict(cov, "hp", "hp") == "use"
    assert slope_verdict(cov, "missing", "hp") == "unused"


def test_a_verify_ai_may_ask_for_its_own_deals_as_in_ais() -> None:
    """``verify_ais = [{ ai = ..., deals = n }, "..."]``: the first verifies on n deals per pairing,
    a plain name on one; a bad entry is one clear line. AIs are picked by tier, not by name."""
    from krosbalance.ai.registry import ai_problem, ai_tier, list_ais

    search = [a for a in list_ais() if ai_tier(a) == "search" and not ai_problem(a, "arena")]
    first, second = search[0], search[1]
    spec = parse_fix(
        {"fields": ["hp"], "verify_deals": 2, "verify_ais": [{"ai": first, "deals": 5}, second]}, "fix.toml"
    )
    assert spec.verify_ais == (first, second) and spec.verify_ai_deals == (5, 1)
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    patch = Patch("p", {"characters": {fig: {"hp": 9}}})
    verify = verify_experiment(exp, spec, Proposal(patch, ((fig, "hp", 1),), pd.DataFrame(), 0.15, True, "t"))
    assert verify.ais == (("random", "random"), (first, first), (second, second))
    assert verify.deals_per_matchup == (2, 5, 1)
    assert fingerprint(loads_experiment(experiment_toml(verify))) == fingerprint(verify)
    for bad, words in (({"ai": first, "deals": 0}, "deals must be an integer >= 1"), (3, "each entry is")):
        with pytest.raises(ExperimentError, match=words):
            parse_fix({"fields": ["hp"], "verify_ais": [bad]}, "fix.toml")
