"""The strength study's headline quantity, as an adaptive sample measures it (``[target]``,
:mod:`krosbalance.sim.target`): each figure's teammate-adjusted strength, in log-odds, with the 95%
interval the report gives it (:func:`krosbalance.analysis.strength.adjusted_strength`, the one
estimator; nothing is re-estimated here).

A study that can size its sample from a target declares such a module as its ``target`` part: a
``QUANTITY`` (what each number is, read as "every <QUANTITY>'s 95% CI half-width"), its ``UNIT``,
optionally a ``DEFAULT_HALF_WIDTH`` in that unit (else 0.15), ``problem(experiment)`` (why the
target cannot apply to the experiment, '' when it can) and ``half_widths(matches, experiment)``
(the half-width of each headline number from one AI's matches rows of that experiment)."""

from __future__ import annotations

from typing import Any

from krosbalance.sim.target import interval_half_widths, two_player_problem

QUANTITY = "figure's strength"
UNIT = "log-odds"


def problem(experiment: Any) -> str:
    """Why a target cannot size this experiment's sample ('' when it can): the strength model reads
    two-player matches."""
    return two_player_problem(experiment)


def half_widths(matches: Any, experiment: Any = None) -> dict[str, float]:
    """Each figure's 95% CI half-width (log-odds) from the matches rows of one AI (both sides), as
    the report's strength table computes it; ``inf`` for a figure the rows cannot estimate yet (the
    experiment is not needed)."""
    from krosbalance.analysis.strength import adjusted_strength  # heavy: pandas, scipy, statsmodels

    strength = adjusted_strength(matches)
    if strength.empty:
        return {}
    figures = strength[strength["kind"] == "character"]
    return interval_half_widths(figures["term"], figures["ci_low"], figures["ci_high"])
