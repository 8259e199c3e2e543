"""The fix finder's rounds, bounds, designer lists and staged resume (krosbalance.studies.patches.fixer)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from krosbalance.content.registry import default_registry, list_characters
from krosbalance.errors import ExperimentError
from krosbalance.sim.experiment import loads_experiment
from krosbalance.sim.fix_table import FixSpec, changes_patch, parse_fix
from krosbalance.sim.patched_cards import patched_registry
from krosbalance.sim.stages import read_stages
from krosbalance.studies.patches.fixer import FixPlanner, load_fix, probe_experiment, run_fix
from krosbalance.studies.patches.proposal import knob_bounds, solve
from tests.studies.patches.conftest import BASE


def _moved(strengths, slopes, changes):
    n = len(strengths)
    return {
        f: s + sum(slopes[k] * d * ((k[0] == f) - 1 / n) for k, d in changes.items())
        for f, s in strengths.items()
    }


def test_milp_recovers_the_known_smallest_patch_on_synthetic_slopes() -> None:
    """Plant strengths that one known patch fixes; the milp finds exactly it, and brute force over
    every patch within the bounds confirms none with fewer values (then smaller changes) works."""
    figures = ["a", "b", "c", "d"]
    slopes = {("a", "hp"): 0.1, ("b", "hp"): 0.1, ("b", "spells.arrow.ap_cost"): -0.4, ("c", "hp"): 0.1}
    bounds = {k: (-2, 2) for k in slopes} | {("b", "spells.arrow.ap_cost"): (-1, 1)}
    planted = {("b", "spells.arrow.ap_cost"): 1, ("a", "hp"): 2}
    neutral = {f: 0.0 for f in figures}
    shift = _moved(neutral, slopes, planted)
    strengths = {f: -v for f, v in shift.items()}  # the planted patch brings all to exactly 0
    changes, reached, solver = solve(strengths, slopes, bounds, 0.05)
    assert reached and "milp" in solver
    assert all(abs(v) <= 0.05 + 1e-9 for v in _moved(strengths, slopes, changes).values())
    keys = list(slopes)
    best = None
    for ds in itertools.product(*[range(bounds[k][0], bounds[k][1] + 1) for k in keys]):
        cand = {k: d for k, d in zip(keys, ds, strict=True) if d}
        if all(abs(v) <= 0.05 + 1e-9 for v in _moved(strengths, slopes, cand).values()):
            score = (len(cand), sum(abs(d) / max(-bounds[k][0], bounds[k][1]) for k, d in cand.items()))
            best = min(best or (score, cand), (score, cand), key=lambda t: t[0])
    assert best is not None
    assert len(changes) == best[0][0] == 2
    assert changes == planted


def test_milp_never_leaves_its_bounds() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        figures = [f"f{i}" for i in range(5)]
        strengths = dict(zip(figures, rng.normal(0, 0.6, 5), strict=True))
        slopes = {(f, "hp"): float(rng.uniform(0.05, 0.3)) for f in figures}
        bounds = {k: (-int(rng.integers(0, 3)), int(rng.integers(0, 3))) for k in slopes}
        changes, _, _ = solve(strengths, slopes, bounds, 0.15)
        for k, d in changes.items():
            assert bounds[k][0] <= d <= bounds[k][1]


def test_a_round_never_moves_a_value_past_its_probed_step_nor_the_share_of_its_printed_value() -> None:
    fig = next(f for f in list_characters(set="arena-box") if default_registry().load_character(f).hp >= 8)
    hp = default_registry().load_character(fig).hp
    spec = FixSpec(fields=("hp",), step={"hp": 2}, max_change={"hp": 4}, max_share=0.25)
    total = min(4, max(1, int(0.25 * hp)))
    low, high = knob_bounds(spec, fig, "hp", 0, 2)
    assert (low, high) == (-min(2, total), min(2, total))  # the step: never extrapolated further
    # a second round, the first having moved it by +2: at most the share in total
    low, high = knob_bounds(spec, fig, "hp", 2, 2)
    assert high == max(0, min(2, total - 2)) and low == -2
    tiny = FixSpec(fields=("hp",), step={"hp": 5}, max_change={"hp": 5}, max_share=1.0)
    low, _ = knob_bounds(tiny, fig, "hp", 0, 5)
    assert hp + low >= 1  # a figure keeps 1 HP


def test_a_later_probe_plays_the_last_proposal_as_its_base_on_fresh_seeds() -> None:
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    hp = default_registry().load_character(fig).hp
    probe = probe_experiment(
        exp, FixSpec(fields=("hp",), step={"hp": 1}), base={(fig, "hp"): 1}, figures=[fig], round_=2
    )
    assert probe.name == "fixing-probe2" and probe.master_seed != exp.master_seed
    patches = dict(probe.arm_patches)
    assert patched_registry(patches["proposed"]).load_character(fig).hp == hp + 1
    assert patched_registry(patches[f"{fig}.hp.up1"]).load_character(fig).hp == hp + 2
    assert [a for a, _ in probe.variants] == ["proposed", f"{fig}.hp.up1"]


def test_forbidden_values_are_not_probed() -> None:
    exp = loads_experiment(BASE)
    fig = list_characters(set="arena-box")[0]
    spec = parse_fix({"fields": ["hp", "spells.ap_cost"], "forbid": [f"{fig}.hp"]}, "fix.toml")
    arms = dict(probe_experiment(exp, spec).variants)
    assert f"{fig}.hp.up2" not in arms
    assert any(a.startswith(f"{fig}.spells.") for a in arms)
    whole = parse_fix({"fields": ["hp"], "forbid": [fig]}, "fix.toml")
    assert not any(a.startswith(f"{fig}.") for a in dict(probe_experiment(exp, whole).variants))


def test_bad_fix_input_is_one_clear_line_each() -> None:
    fig = list_characters(set="arena-box")[0]
    card = default_registry().load_character(fig)
    for table, field, words in (
        ({"fields": ["charisma"]}, "fix.fields", "must list values among"),
        ({"figures": ["no_such_figure"]}, "fix.figures", "no_such_figure"),
        ({"forbid": ["no_such_figure.hp"]}, "fix.forbid", "no_such_figure"),
        (
            {"fields": ["spells.ap_cost"], "forbid": [f"{fig}.spells.no_such_spell.ap_cost"]},
            "fix.forbid",
            "no spell",
        ),
        ({"fields": ["hp"], "forbid": [f"{fig}.mp"]}, "fix.forbid", "not a value fix.fields may change"),
        ({"fields": ["hp"], "max_change": {"hp": 500}}, "fix.max_change.hp", "out of range"),
        ({"fields": ["hp"], "step": {"hp": 0}}, "fix.step", "integers >= 1"),
        ({"fields": ["hp"], "max_change": {"ap": 1}}, "fix.max_change", "fields of fix.fields"),
        ({"max_share": 1.5}, "fix.max_share", "share"),
        ({"rounds": 0}, "fix.rounds", "from 1 to"),
        ({"rounds": 9}, "fix.rounds", "from 1 to"),
    ):
        with pytest.raises(ExperimentError) as info:
            parse_fix(table, "fix.toml")
        message = str(info.value)
        assert info.value.field == field, (table, info.value.field)
        assert words in info.value.reason and "\n" not in message and "fix.toml" in message
    assert card.spells  # the spell case above named a figure with spells


def test_rounds_run_until_the_cap_and_a_resumed_study_plans_the_same_stages(
    tiny_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    summary = run_fix(tiny_file, out, progress=False)
    names = [s["experiment"] for s in read_stages(out)["stages"]]
    assert names == ["tiny-fix-probe", "tiny-fix-verify", "tiny-fix-probe2", "tiny-fix-verify2"]
    meta = read_stages(out)["meta"]["fix"]
    assert [r["round"] for r in meta["rounds"]] == [1, 2] and meta["max_rounds"] == 2
    before = [json.loads((s.folder / "proposal.json").read_text()) for s in summary.stages]
    # interrupt: the last stage is lost; --resume plans and plays it again, the same way
    import shutil

    shutil.rmtree(summary.stages[-1].folder)
    again = run_fix(tiny_file, out, resume=True, progress=False)
    assert [s.folder.name for s in again.stages] == [s.folder.name for s in summary.stages]
    assert [json.loads((s.folder / "proposal.json").read_text()) for s in again.stages] == before
    assert again.stages[0].n_played == 0  # the finished stages were not played again


def test_a_study_stops_after_one_round_when_rounds_is_one(tiny_file: Path, tmp_path: Path) -> None:
    text = tiny_file.read_text().replace("rounds = 2", "rounds = 1")
    one = tmp_path / "one.toml"
    one.write_text(text)
    exp, spec = load_fix(one)
    planner = FixPlanner(exp, spec)
    assert spec.rounds == 1 and planner.first().name == "tiny-fix-probe"
    out = tmp_path / "out1"
    run_fix(one, out, progress=False)
    assert [s["experiment"] for s in read_stages(out)["stages"]] == ["tiny-fix-probe", "tiny-fix-verify"]


def test_changes_patch_writes_printed_plus_change_for_a_spell_and_a_field() -> None:
    fig = next(f for f in list_characters(set="arena-box") if default_registry().load_character(f).spells)
    card = default_registry().load_character(fig)
    spell = card.spells[0]
    patch = changes_patch({(fig, "hp"): -1, (fig, f"spells.{spell.id}.ap_cost"): 1}, "x.toml", "p")
    patched = patched_registry(patch.json).load_character(fig)
    assert patched.hp == card.hp - 1
    assert next(s for s in patched.spells if s.id == spell.id).ap_cost == spell.ap_cost + 1
    assert changes_patch({}, "x.toml", "p").empty


def test_milp_leaves_balanced_figures_alone_and_moves_each_changed_figure_towards_zero() -> None:
    """A designer's patch: a figure inside the band keeps its card; a weak figure is not weakened
    (nor a strong one strengthened) to shift the others; none is pushed past the band's other side,
    even when the band is out of reach."""
    strengths = {"strong": 0.9, "fine": 0.05, "weak": -0.5, "weaker": -0.45}
    slopes = {(f, "hp"): 0.2 for f in strengths} | {(f, "spells.x.ap_cost"): -0.5 for f in strengths}
    bounds = {k: (-2, 2) for k in slopes}
    for band in (0.15, 0.01):  # reachable or not, the same rules hold
        changes, _, _ = solve(strengths, slopes, bounds, band)
        assert changes
        untouched = {f for f, v in strengths.items() if abs(v) <= band}
        assert not {f for f, _ in changes} & untouched
        for (f, name), d in changes.items():
            move = slopes[(f, name)] * d
            assert (move < 0) == (strengths[f] > 0), (f, name, d)
        moved = _moved(strengths, slopes, changes)
        assert moved["strong"] >= -band - 1e-9 and moved["weak"] <= band + 1e-9
    assert "fine" not in {f for f, _ in solve(strengths, slopes, bounds, 0.15)[0]}


def test_a_study_stopped_between_rounds_reports_the_rounds_it_finished(
    tiny_file: Path, tmp_path: Path
) -> None:
    from krosbalance.sim.stages import StageError

    out = tmp_path / "out"
    with pytest.raises(StageError, match="more than 2 stages"):  # stopped after round 1's verification
        run_fix(tiny_file, out, progress=False, max_stages=2)
    meta = read_stages(out)["meta"]["fix"]
    assert [r["round"] for r in meta["rounds"]] == [1]
    assert meta["rounds"][0]["verify"] == "tiny-fix-verify"
    verify = out / read_stages(out)["stages"][1]["folder"]
    assert (verify / "proposal.json").is_file()  # beside the verification, as the report reads it
