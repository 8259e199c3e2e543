"""Moved to :mod:`krosbalance.studies.teams.section` (issue 38: one home per study). This name stays for
notebooks written before (notebooks/team-study.ipynb imported it); new code imports the study's module."""

from krosbalance.studies.teams.section import *  # noqa: F403
