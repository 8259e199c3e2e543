"""A study's answer picture as data: the :class:`Verdict` table and how one of its rows reads.

The verdict module draws and words it, and the headline (:mod:`.headline`) reads the strongest AI's
rows of it; both stand on this module, so the wording of the answer and the picture it comes from
import one way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from krosbalance.analysis import equivalence

COLUMNS = ("figure", "group", "tier", "est", "ci_low", "ci_high", "n", "ai")
"""The verdict table: one row per figure (display name) and AI group (an AI, or a tier's AIs
pooled) of ``tier``, with the estimate, its 95% interval, n and ``ai``: the one AI whose matches
(both sides played by it) the row measures, '' for a row pooled over several AIs. The headline
answer is read off the rows of the strongest AI (:mod:`krosbalance.analysis.headline`)."""
SETTLED, MOVING, UNDECIDED = equivalence.SETTLED, equivalence.MOVING, equivalence.UNDECIDED
ONE_TIER = "one tier"
NO_INTERVAL = "no interval"
"""A figure both compared AIs measured, one of them without an interval (a Δ of exactly 0 from an
arm that changed no match under it, say): neither judged nor a one-tier figure."""
#: the equivalence margin on a proportion scale (win rates): ±0.15 log-odds around 50% is ±3.75 points
PCT_MARGIN = 0.0375
Z95 = 1.959963984540054


@dataclass
class Verdict:
    """A study's answer: the verdict table and how to read it.

    Attributes:
        study: what was measured, for the title (``character strength``).
        measure: the x axis (``teammate-adjusted strength, log-odds vs the average character``).
        data: the rows of :data:`COLUMNS`.
        reference: the value meaning "no effect" (0, or 0.5 for a win rate), drawn as a line.
        as_pct: whether estimates are proportions (shown as percentages).
        lines: the study's own findings for the summary, most important first.
        caption: how the numbers were made (model, interval, design), under the picture.
        ruleset: the ruleset the figures were played in (which AIs the ladder validated for it).
        rows: what one row is, in the plural, for sentences that count them ("3 of 5 prices
            settled"): a price sweep's rows are prices, not figures.
    """

    study: str
    measure: str
    data: pd.DataFrame
    reference: float = 0.0
    as_pct: bool = False
    lines: list[str] = field(default_factory=list)
    caption: str = ""
    ruleset: str = "arena"
    rows: str = "figures"

    @property
    def empty(self) -> bool:
        return self.data.empty or self.data["est"].notna().sum() == 0


def verdict_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The verdict table from row dicts (missing ``n`` -> NaN, missing ``ai`` -> '': a pooled row),
    in :data:`COLUMNS` order."""
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    for col in ("est", "ci_low", "ci_high", "n"):
        df[col] = pd.to_numeric(df[col], errors="coerce")
    df["ai"] = df["ai"].astype(object).where(df["ai"].notna(), "").astype(str)
    return df


def one_ai(label: str) -> str:
    """The verdict's ``ai`` of a row labelled by its AI matchup: the AI when one AI played both
    sides, '' for ``a vs b`` (a lopsided matchup measures no one AI)."""
    return "" if " vs " in str(label) else str(label)


def in_win_pct(verdict: Verdict) -> bool:
    """Whether the verdict's estimates are log-odds a designer reads better as a win %."""
    return not verdict.as_pct and "log-odds" in verdict.measure


def holds_reference(verdict: Verdict, row: Any) -> bool:
    """Whether a row's 95% interval holds the "no effect" value: it cannot be told from noise."""
    return bool(pd.isna(row.ci_low) or row.ci_low <= verdict.reference <= row.ci_high)
