"""Shared synthetic data for the study tests: the analysis tests' planted world (tests/analysis/
fixtures.py), built once per session."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.analysis.fixtures import planted_tables


@pytest.fixture(scope="session")
def planted() -> tuple[pd.DataFrame, pd.DataFrame]:
    """2000 matches of the planted world (see tests/analysis/fixtures.py), with a few error rows."""
    return planted_tables(n_pairings=1000, seed=1, error_rate=0.005)


@pytest.fixture(scope="session")
def small() -> tuple[pd.DataFrame, pd.DataFrame]:
    """120 matches of the same world among 10 teams: enough for every section, fast to plot."""
    return planted_tables(n_pairings=60, seed=7, error_rate=0.02, max_teams=10)
