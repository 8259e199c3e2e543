"""The team study's verdict picture (the report opens with it)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from krosbalance.analysis import sections as sections_module
from krosbalance.studies.teams import section as team_section
from krosbalance.studies.teams import verdict as verdict_module
from krosbalance.studies.teams.verdict import team_verdict


def test_a_team_study_opens_with_its_top_teams_per_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [("heuristic", f"t{i}", f"Team {i}", 2.0 - 0.1 * i) for i in range(14)]
    rows += [("search", "t0", "Team 0", 1.5), ("search", "t13", "Team 13", 0.2)]
    ratings = pd.DataFrame(rows, columns=["tier", "team", "label", "rating"]).assign(
        ci_low=lambda d: d["rating"] - 0.3, ci_high=lambda d: d["rating"] + 0.3, n=100
    )
    ratings.attrs["cov"] = {"heuristic": pd.DataFrame([[1.0]])}  # as team_ratings leaves it
    study = team_section.TeamStudy({}, [], ratings, pd.DataFrame())
    monkeypatch.setattr(verdict_module, "folder_is", lambda rs, name: name == "teams")
    monkeypatch.setattr(team_section, "team_study", lambda rs: study)
    run = SimpleNamespace(summary=lambda: SimpleNamespace(matches=pd.DataFrame()))  # no AI names a tier
    verdict = team_verdict(run, {})
    assert verdict is not None
    shown = set(verdict.data["figure"])
    assert shown == {f"Team {i}" for i in range(team_section.TOP_SHOWN)}  # Team 13 is not in the top
    assert set(verdict.data["tier"]) == {"heuristic", "search"}


def test_the_team_section_carries_its_verdict() -> None:
    sections = sections_module._all_sections()  # the shared sections and every study's
    assert sections["teams"].verdict is team_verdict
