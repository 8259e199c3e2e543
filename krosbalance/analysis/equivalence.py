"""Settled, still moving or undecided: do two AIs of different skill measure a figure alike?

A verdict is about the figure, not the bots, once stronger play stops moving it. "The two 95%
intervals overlap" cannot say that: with few matches every interval is wide and every verdict
"converges" by construction. The question is one of *equivalence*, asked with two one-sided tests
(TOST, Schuirmann 1987) against a stated margin: the difference between the two AIs' estimates is
practically nil when its 90% interval lies inside ``(-margin, +margin)`` (both one-sided tests at
5%). Then:

* **settled**: the two AIs agree within the margin (TOST rejects a difference of ``margin`` or more);
* **still moving**: the difference's 95% interval excludes 0 and the AIs do not agree within the
  margin: the stronger AI moved the figure, in the direction given;
* **undecided**: neither: n cannot tell. The matches that would tell are estimated from the observed
  difference, the standard error shrinking as 1/sqrt(n): enough to show agreement when the
  difference is inside the margin, else enough to show the move.

The default margin is ±0.15 log-odds (about ±3.7 points of win rate around 50%), the half-width the
studies aim their headline intervals at. The two estimates come from disjoint matches (each AI plays
its own), so their difference's variance is the sum of theirs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy.stats import norm

#: the equivalence margin (log-odds) a verdict is settled within, unless a study states another
MARGIN = 0.15
#: the tests' level: TOST's two one-sided tests at 5% each (a 90% interval), a move at 5% two-sided
ALPHA = 0.05
SETTLED, MOVING, UNDECIDED = "settled", "still moving", "undecided"


@dataclass(frozen=True)
class Agreement:
    """Two AIs' estimates of one figure compared: the difference (stronger minus weaker), its
    intervals, the TOST p-value, the verdict, the direction of a move ("up": the stronger AI rates
    the figure higher) and, when undecided, the extra matches each AI would need."""

    difference: float
    se: float
    low90: float
    high90: float
    low95: float
    high95: float
    p_equivalent: float
    verdict: str
    direction: str
    more_stronger: int
    more_weaker: int


def compare(
    stronger: float,
    stronger_se: float,
    weaker: float,
    weaker_se: float,
    n_stronger: int = 0,
    n_weaker: int = 0,
    margin: float = MARGIN,
    alpha: float = ALPHA,
) -> Agreement:
    """Compare the stronger AI's estimate with the weaker one's (log-odds and standard errors from
    disjoint matches; ``n_*`` are the matches behind each, used only to say how many more would
    decide an undecided verdict)."""
    if margin <= 0:
        raise ValueError(f"the equivalence margin must be positive, not {margin}")
    diff = float(stronger - weaker)
    se = math.hypot(float(stronger_se), float(weaker_se))
    z90, z95 = norm.ppf(1 - alpha), norm.ppf(1 - alpha / 2)
    if not math.isfinite(se) or se <= 0:
        nan = float("nan")
        return Agreement(diff, se, nan, nan, nan, nan, nan, UNDECIDED, "", 0, 0)
    p_equivalent = float(max(norm.sf((diff + margin) / se), norm.sf((margin - diff) / se)))
    low90, high90 = diff - z90 * se, diff + z90 * se
    low95, high95 = diff - z95 * se, diff + z95 * se
    direction = "up" if diff > 0 else "down"
    if -margin < low90 and high90 < margin:
        return Agreement(diff, se, low90, high90, low95, high95, p_equivalent, SETTLED, "", 0, 0)
    if low95 > 0 or high95 < 0:
        return Agreement(diff, se, low90, high90, low95, high95, p_equivalent, MOVING, direction, 0, 0)
    factor = _variance_factor(abs(diff), se, margin, z90, z95)
    more = (_more(n_stronger, factor), _more(n_weaker, factor))
    return Agreement(diff, se, low90, high90, low95, high95, p_equivalent, UNDECIDED, "", *more)


def _variance_factor(gap: float, se: float, margin: float, z90: float, z95: float) -> float:
    """How many times today's matches would decide, if the observed difference held: the squared
    ratio of today's standard error to the one that first shows agreement (possible only inside the
    margin) or the move (possible only away from 0), whichever comes first."""
    needed = max((margin - gap) / z90, gap / z95)
    return max(1.0, (se / needed) ** 2)


def _more(n: int, factor: float) -> int:
    if n <= 0:
        return 0
    return int(math.ceil(n * (factor - 1.0)))


def agreement_line(term: str, a: Agreement, stronger: str, weaker: str, margin: float = MARGIN) -> str:
    """One sentence a designer reads: the verdict, the difference with its interval, what would tell."""
    shown = f"{a.difference:+.2f} [{a.low95:+.2f}, {a.high95:+.2f}]"
    if a.verdict == SETTLED:
        return f"{term}: settled — {stronger} and {weaker} agree within ±{margin:.2f} log-odds ({shown})."
    if a.verdict == MOVING:
        way = "higher" if a.direction == "up" else "lower"
        return f"{term}: still moving — {stronger} rates it {way} than {weaker} ({shown})."
    if a.more_stronger or a.more_weaker:
        need = f"about {a.more_stronger:,} more matches with {stronger} and {a.more_weaker:,} with {weaker} would tell"
    else:
        need = "more matches would tell"
    return f"{term}: undecided — {shown} cannot be told from noise; {need}."


@dataclass(frozen=True)
class Trend:
    """A figure's strength against the AIs' ladder ratings: the fitted slope (the figure's log-odds
    per log-odds of AI rating, ``krosbalance/ai/data/ladder.toml``'s Bradley-Terry scale) with its 95%
    interval, over ``points`` AIs."""

    slope: float
    low: float
    high: float
    points: int


def skill_trend(ratings: np.ndarray, strengths: np.ndarray, ses: np.ndarray) -> Trend:
    """Weighted least squares of strength on rating, each AI weighted by its estimate's precision and
    the variances taken as known (scale fixed at 1: the estimates' own standard errors, not the
    scatter between so few AIs, measure the noise). Needs two AIs with ratings and finite errors."""
    x, y, s = (np.asarray(v, dtype=float) for v in (ratings, strengths, ses))
    keep = np.isfinite(x) & np.isfinite(y) & np.isfinite(s) & (s > 0)
    x, y, s = x[keep], y[keep], s[keep]
    if len(x) < 2 or np.ptp(x) == 0:
        nan = float("nan")
        return Trend(nan, nan, nan, int(len(x)))
    design = sm.add_constant(x)
    fit = sm.WLS(y, design, weights=1.0 / s**2).fit(cov_type="fixed scale")
    low, high = fit.conf_int(alpha=ALPHA)[1]
    return Trend(float(fit.params[1]), float(low), float(high), int(len(x)))


def trend_table(long: pd.DataFrame) -> pd.DataFrame:
    """Per figure (``term``) of a long table with ``rating``, ``coef`` and ``se`` per AI: its skill
    trend (slope per unit of rating, 95% interval, AIs fitted)."""
    rows = []
    for term, sub in long.groupby("term", sort=True):
        t = skill_trend(sub["rating"].to_numpy(), sub["coef"].to_numpy(), sub["se"].to_numpy())
        rows.append((term, t.slope, t.low, t.high, t.points))
    return pd.DataFrame(rows, columns=["term", "slope", "slope_low", "slope_high", "trend_points"])
