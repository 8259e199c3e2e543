"""The verdict pictures of the team and balance-patch studies (the report opens with them)."""

from __future__ import annotations

import pandas as pd
import pytest

from krosbalance.analysis import sections as sections_module
from krosbalance.analysis import study_verdicts, team_section
from krosbalance.analysis.resultset import ResultSet
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


def test_a_team_study_opens_with_its_top_teams_per_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [("heuristic", f"t{i}", f"Team {i}", 2.0 - 0.1 * i) for i in range(14)]
    rows += [("search", "t0", "Team 0", 1.5), ("search", "t13", "Team 13", 0.2)]
    ratings = pd.DataFrame(rows, columns=["tier", "team", "label", "rating"]).assign(
        ci_low=lambda d: d["rating"] - 0.3, ci_high=lambda d: d["rating"] + 0.3, n=100
    )
    ratings.attrs["cov"] = {"heuristic": pd.DataFrame([[1.0]])}  # as team_ratings leaves it
    study = team_section.TeamStudy({}, [], ratings, pd.DataFrame())
    monkeypatch.setattr(team_section, "is_team_study", lambda rs: True)
    monkeypatch.setattr(team_section, "team_study", lambda rs: study)
    verdict = study_verdicts.team_verdict(object(), {})
    assert verdict is not None
    shown = set(verdict.data["figure"])
    assert shown == {f"Team {i}" for i in range(team_section.TOP_SHOWN)}  # Team 13 is not in the top
    assert set(verdict.data["tier"]) == {"heuristic", "search"}


def test_the_team_and_patch_sections_carry_their_verdicts() -> None:
    sections = sections_module._all_sections()  # the shared sections and every study's
    assert sections["teams"].verdict is study_verdicts.team_verdict
    assert sections["balance_patches"].verdict is study_verdicts.patch_verdict
