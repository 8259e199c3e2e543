"""Restricted play: what each element of a figure is worth, from arms that forbid it.

An experiment with ``forbid`` arms (:mod:`krosbalance.sim.restricted`) plays every deal once with the
figure unrestricted (the baseline arm) and once per element with that element forbidden, on the
same seeds. For each AI tier and each restricted arm this module compares the arm with the baseline
on the matches where the figure plays on exactly one side:

- ``delta`` (log-odds): the teammate-adjusted character-strength model of
  :mod:`krosbalance.analysis.strength`, fitted on both arms' matches together, with one more term —
  +1 when the restricted figure is on side 0 of a restricted-arm match, -1 on side 1, 0 in the
  baseline — whose coefficient is the change of the figure's strength when the element is
  forbidden (negative: the element made it stronger). Both arms' matches of a deal are one cluster,
  so the interval is deal-clustered over the pairs (CR1 sandwich);
- ``changed``: the share of paired matches whose winner differs between the arms (0: the AI never
  used the element in these deals, so forbidding it changed nothing);
- ``delta_win``: the paired difference of the figure's side's win rate (a win 1, a draw 1/2, a loss
  0), restricted minus baseline, averaged per deal and then over deals, with a t interval across
  deals — the same comparison on the scale a designer reads.

``strength`` is the figure's log-odds effect in the baseline arm alone (the same model), for scale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.analysis.design import clusters, weights
from krosbalance.analysis.stats import (
    ALPHA,
    bounded_mean_interval,
    ok_matches,
    split_team,
    winner_series,
)
from krosbalance.analysis.strength import adjusted_strength, fit_effects, strength_design

TERM = "(restricted)"
#: how the kinds of elements are shown (an ``action:`` element is one of the rules' options)
KIND_LABELS = {"spell": "spell", "power": "power", "action": "option"}
COLUMNS = [
    "tier",
    "figure",
    "kind",
    "element",
    "arm",
    "n",
    "deals",
    "strength",
    "delta",
    "ci_low",
    "ci_high",
    "p_value",
    "interval",
    "method",
    "win_base",
    "win_restricted",
    "delta_win",
    "win_low",
    "win_high",
    "changed",
]


def arm_elements(forbids: Mapping[str, Mapping[str, Sequence[str]]]) -> list[tuple[str, str, str]]:
    """(arm, figure, element) of every arm that forbids one element to one figure (the arms the
    table measures; an arm forbidding several is measured as one element named by the arm)."""
    out = []
    for arm, forbid in forbids.items():
        if len(forbid) != 1:
            continue
        ((figure, elements),) = forbid.items()
        element = elements[0] if len(elements) == 1 else "+".join(elements)
        out.append((arm, figure, element))
    return out


def baseline_arm(variants: Sequence[str], forbids: Mapping[str, Any]) -> str | None:
    """The unrestricted arm: the one named ``unrestricted``, else the first arm that forbids nothing."""
    free = [v for v in variants if v not in forbids]
    if "unrestricted" in free:
        return "unrestricted"
    return free[0] if free else None


def tier_of(matches: pd.DataFrame) -> pd.Series:
    """The AI of each match (``kiter``), or ``A vs B`` when the two sides' AIs differ."""
    a, b = matches["ai0"].astype(str), matches["ai1"].astype(str)
    return a.where(a == b, a + " vs " + b)


def _figure_side(matches: pd.DataFrame, figure: str) -> np.ndarray:
    """+1 when the figure is on side 0 only, -1 on side 1 only, 0 on both or neither."""
    on0 = np.array([figure in split_team(t) for t in matches["team0"]])
    on1 = np.array([figure in split_team(t) for t in matches["team1"]])
    return on0.astype(int) - on1.astype(int)


def _delta_fit(both: pd.DataFrame, restricted: np.ndarray, alpha: float) -> pd.Series | None:
    """The ``(restricted)`` row of the strength model fitted on both arms (see the module docstring)."""
    x, y, cov = strength_design(both)
    decided = winner_series(both).notna().to_numpy()
    cov[TERM] = restricted[decided]
    m = both[decided]
    played = {c: float(len(m)) for c in x.columns}
    fit = fit_effects(
        x, y, cov, weights(m), clusters(m), played, kind="character", absent_note="", alpha=alpha
    )
    row = fit[fit["term"] == TERM]
    return None if row.empty else row.iloc[0]


def _paired_wins(base: pd.DataFrame, arm: pd.DataFrame, figure: str, alpha: float) -> tuple[float, ...]:
    """(baseline win rate, restricted win rate, paired difference, its CI low, high, deals, share of
    the paired matches whose result differs)."""
    keys = ["pairing", "deal", "swapped"]

    def score(m: pd.DataFrame) -> pd.Series:
        side = _figure_side(m, figure)
        w = winner_series(m)
        won = np.where(w.isna(), 0.5, np.where(w.to_numpy() == np.where(side > 0, 0, 1), 1.0, 0.0))
        return pd.Series(won, index=pd.MultiIndex.from_frame(m[keys]))

    a, b = score(base), score(arm)
    both = pd.concat([a.rename("base"), b.rename("arm")], axis=1, join="inner")
    if both.empty:
        return (np.nan,) * 5 + (0, np.nan)
    change = both["arm"] - both["base"]
    diff = change.groupby(level=["pairing", "deal"]).mean()
    mean, low, high = bounded_mean_interval(diff.to_numpy(), -1.0, 1.0, alpha)
    changed = float((change != 0).mean())
    return float(both["base"].mean()), float(both["arm"].mean()), mean, low, high, len(diff), changed


def restricted_table(
    matches: pd.DataFrame,
    forbids: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """One row per AI tier and restricted arm (see the module docstring for the columns' meaning);
    an empty table when the matches have no baseline arm or no single-element arm."""
    m = ok_matches(matches)
    if m.empty or "variant" not in m.columns:
        return pd.DataFrame(columns=COLUMNS)
    variants = [str(v) for v in pd.unique(m["variant"].astype(str))]
    base_name = baseline_arm(variants, forbids)
    if base_name is None:
        return pd.DataFrame(columns=COLUMNS)
    m = m.assign(tier=tier_of(m))
    rows = []
    for tier, sub in m.groupby("tier", sort=False):
        base_all = sub[sub["variant"] == base_name]
        strengths: dict[str, float] = {}
        for arm, figure, element in arm_elements(forbids):
            arm_all = sub[sub["variant"] == arm]
            base = base_all[np.abs(_figure_side(base_all, figure)) == 1]
            restricted = arm_all[np.abs(_figure_side(arm_all, figure)) == 1]
            if base.empty or restricted.empty:
                continue
            if figure not in strengths:
                s = adjusted_strength(base, alpha=alpha)
                hit = s[s["term"] == figure]
                strengths[figure] = float(hit["coef"].iloc[0]) if not hit.empty else np.nan
            both = pd.concat([base, restricted], ignore_index=True)
            term = np.concatenate([np.zeros(len(base)), _figure_side(restricted, figure).astype(float)])
            fit = _delta_fit(both, term, alpha)
            win_base, win_arm, d_win, w_low, w_high, deals, changed = _paired_wins(
                base, restricted, figure, alpha
            )
            kind = element.partition(":")[0] if "+" not in element else "several"
            rows.append(
                {
                    "tier": tier,
                    "figure": figure,
                    "kind": KIND_LABELS.get(kind, kind),
                    "element": element.partition(":")[2] if "+" not in element else element,
                    "arm": arm,
                    "n": len(restricted),
                    "deals": deals,
                    "strength": strengths[figure],
                    "delta": np.nan if fit is None else float(fit["coef"]),
                    "ci_low": np.nan if fit is None else float(fit["ci_low"]),
                    "ci_high": np.nan if fit is None else float(fit["ci_high"]),
                    "p_value": np.nan if fit is None else float(fit["p_value"]),
                    "interval": "" if fit is None else str(fit["interval"]),
                    "method": "" if fit is None else str(fit["method"]),
                    "win_base": win_base,
                    "win_restricted": win_arm,
                    "delta_win": d_win,
                    "win_low": w_low,
                    "win_high": w_high,
                    "changed": changed,
                }
            )
    out = pd.DataFrame(rows, columns=COLUMNS)
    return out.sort_values(["figure", "tier", "delta"], kind="stable").reset_index(drop=True)
