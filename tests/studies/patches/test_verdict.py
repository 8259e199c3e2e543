"""The verdict picture of the balance-patch study (krosbalance.studies.patches.verdict) (the report opens with it); the team study's is in
tests/studies/teams/test_verdict.py."""

from __future__ import annotations

import pandas as pd

from krosbalance.analysis import sections as sections_module
from krosbalance.analysis.resultset import ResultSet
from krosbalance.studies.patches import verdict as study_verdicts
from tests.analysis.fixtures import TRUE_STRENGTH, planted_tables


def test_a_patched_run_opens_with_the_patched_figure_per_arm() -> None:
    shipped, _ = planted_tables(n_pairings=300, seed=3)
    buffed, _ = planted_tables(
        n_pairings=300,
        seed=4,
        strength={**TRUE_STRENGTH, "anchor": 0.7},
        first_id=len(shipped),
        first_pairing=300,
    )
    matches = pd.concat([shipped.assign(variant=""), buffed.assign(variant="anchor-buff")], ignore_index=True)
    manifest = {"patches": {"anchor-buff": {"patch": "anchor-buff", "changes": ["anchor: HP 8 → 12"]}}}
    rs = ResultSet(matches, manifest=manifest)
    verdict = study_verdicts.patch_verdict(rs, {})
    assert verdict is not None and not verdict.empty
    figures = set(verdict.data["figure"])
    assert all(f.startswith("anchor · ") for f in figures)  # only the patched figure, once per arm
    assert len(figures) == 2
    by_arm = verdict.data.set_index("figure")["est"]
    assert by_arm["anchor · anchor-buff"] > by_arm["anchor · (shipped cards)"]  # planted: -0.7 → +0.7


def test_a_run_without_patches_has_no_patch_verdict() -> None:
    matches, _ = planted_tables(n_pairings=50)
    assert study_verdicts.patch_verdict(ResultSet(matches), {}) is None


def test_the_patch_section_carries_its_verdict() -> None:
    sections = sections_module._all_sections()  # the shared sections and every study's
    assert sections["balance_patches"].verdict is study_verdicts.patch_verdict
