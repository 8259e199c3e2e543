"""Experiments: the face of the modules that read an experiment file and expand it into matches.

An experiment names teams, how they meet, boards, AIs, how many deals per pairing and a master seed;
``expand`` turns it into a flat, stable list of ``MatchSpec`` (one per match, ``match_id`` = position in
that list) that the runner hands to workers. Each job is its own module:

- :mod:`krosbalance.sim.spec`: ``MatchSpec``, everything one match needs;
- :mod:`krosbalance.sim.design`: ``Experiment``, the validated factors and arms;
- :mod:`krosbalance.sim.arms`: ``Arm``, one way every deal is played (options, patch, forbids, reward);
- :mod:`krosbalance.sim.experiment_file`: the file's parsing and validation (its schema is there),
  with :mod:`krosbalance.sim.parse_teams` and :mod:`krosbalance.sim.parse_arms`;
- :mod:`krosbalance.sim.expansion`: ``expand``, the product of pairings, boards, AI matchups,
  deals, arms and seatings;
- :mod:`krosbalance.sim.target`: ``[target]``, the targeted AI's deals played in rounds until the
  study's headline is as precise as asked (the runner plays the rounds).

Nothing in ``krosbalance.sim`` imports this module; it re-exports their public names for the
command line, the studies, the tools and the tests.
"""

from krosbalance.sim.arms import Arm, variant_options
from krosbalance.sim.design import (
    DEALT_MODES,
    MAX_MATCHES,
    NAME_MAX,
    RECORD_LEVELS,
    TABLE_MODES,
    TEAM_KEYS,
    TEAM_MODES,
    TOP_KEYS,
    Experiment,
    folder_name_problem,
)
from krosbalance.sim.expansion import TABLE_STREAM, draw_table, expand, iter_matches
from krosbalance.sim.experiment_file import (
    check_experiment,
    check_experiment_text,
    load_experiment,
    loads_experiment,
)
from krosbalance.sim.file_problems import content_problem
from krosbalance.sim.parse_teams import dealt_pool_problem, legal_teams, pool_splits
from krosbalance.sim.spec import MatchSpec, Team

__all__ = [
    "DEALT_MODES",
    "MAX_MATCHES",
    "NAME_MAX",
    "RECORD_LEVELS",
    "TABLE_MODES",
    "TABLE_STREAM",
    "TEAM_KEYS",
    "TEAM_MODES",
    "TOP_KEYS",
    "Arm",
    "Experiment",
    "MatchSpec",
    "Team",
    "check_experiment",
    "check_experiment_text",
    "content_problem",
    "dealt_pool_problem",
    "draw_table",
    "expand",
    "folder_name_problem",
    "iter_matches",
    "legal_teams",
    "load_experiment",
    "loads_experiment",
    "pool_splits",
    "variant_options",
]
