"""Moved to :mod:`krosbalance.studies.teams.meta` (issue 38: one home per study). This name stays for
notebooks written before (notebooks/team-study.ipynb imported it); new code imports the study's module."""

from krosbalance.studies.teams.meta import *  # noqa: F403
