"""The team study's headline quantity, as an adaptive sample measures it (``[target]`` with
``measure = "teams"``, :mod:`krosbalance.sim.target`): each team's Bradley-Terry rating, in
log-odds, with the interval the report gives it (:func:`~krosbalance.studies.teams.ladder.team_ratings`,
the one estimator). A team ladder's search stage is such an experiment when its ``search`` table
sets ``half_width``: the strongest AI's round robin of the top teams is played in rounds of deals
until every top team's rating is that precise, instead of a fixed number of deals."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths

QUANTITY = "team's rating"
UNIT = "log-odds"
IN_STAGES = "a team ladder sizes its search stage with half_width in [teams.ladder] search"
"""Where a staged file of this study asks for a target (its own ``[target]`` is refused)."""


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): teams are rated from
    two-player matches between explicit teams."""
    if experiment.seats != 2:
        return f"teams are rated in two-player matches; this ruleset seats {experiment.seats}"
    if experiment.mode != "pairs":
        return f"teams are rated from explicit team pairings (mode = 'pairs'), not mode {experiment.mode!r}"
    return ""


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each team's 95% CI half-width (log-odds) from one AI's matches rows, keyed by its label;
    ``inf`` for a team the rows cannot rate yet."""
    from krosbalance.studies.teams.ladder import team_ratings  # heavy: pandas, scipy, statsmodels

    ratings = team_ratings(matches)
    if ratings.empty:
        return {}
    return interval_half_widths(ratings["label"], ratings["ci_low"], ratings["ci_high"])
