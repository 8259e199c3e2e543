"""A study's headline answer: one or two sentences with the numbers (n, 95% interval, the AI that
measured them: the strongest validated AI played, :mod:`krosbalance.analysis.top_ai`, with the next
AI down beside it, :mod:`krosbalance.analysis.headline`), from the same picture the report opens
with (:mod:`krosbalance.analysis.verdict`).

The report's verdict is the first of its sections' verdicts (leading sections first) that the result
set holds, else the characters' strength per AI (:func:`report_verdict`). A study answers from
it (:func:`section_answer`) unless it has numbers of its own to give (the strength study's win rates,
the board study's per-board rates); :func:`headline_answer` asks the study the folder records.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.names import display_name
from krosbalance.analysis.narrative import with_ci
from krosbalance.analysis.seating import more_than_two_seats
from krosbalance.analysis.sections import default_study, folder_study, played_rulesets, ruleset_sections
from krosbalance.analysis.top_ai import FOUR_PLAYER_LADDER, LADDER_RULESETS, base_ruleset
from krosbalance.analysis.verdict import Verdict, answer_lines, character_verdict


def report_verdict(
    rs: Any, tables: dict[str, pd.DataFrame], own_sections: list[Any], matches: pd.DataFrame | None
) -> Verdict:
    """The answer picture's data: the first section (leading ones first) whose study the result set
    holds gives it; else the characters' strength per AI (two-player results: ``matches``). Its
    ``ruleset`` is the run's (:func:`verdict_ruleset`): which AIs the ladder validated for it."""
    ruleset = verdict_ruleset(rs)
    for own in sorted(own_sections, key=lambda s: not s.leading):
        if own.verdict is None:
            continue
        try:
            found = own.verdict(rs, tables)
        except Exception:  # the section itself says what went wrong; fall back on the default
            found = None
        if found is not None and not found.empty:
            found.ruleset = ruleset
            return found
    verdict = character_verdict(matches if matches is not None else pd.DataFrame())
    verdict.ruleset = ruleset
    return verdict


def verdict_ruleset(rs: Any) -> str:
    """The ruleset a run's answer is judged in: the one it played, or, when it played several, the
    first the AI ladder was not played in (an Arena standing validates no AI for Blast). A four-seat
    Arena run is judged by four-player Arena's ladder (``arena-4p``)."""
    played = list(dict.fromkeys(base_ruleset(r) for r in played_rulesets(rs)))
    if played == ["arena"] and more_than_two_seats(rs):
        return FOUR_PLAYER_LADDER  # ladder_order.ladder_ruleset("arena", 4)
    outside = [r for r in played if r not in LADDER_RULESETS]
    return outside[0] if outside else (played[0] if played else LADDER_RULESETS[0])


def _two_player_matches(rs: Any) -> pd.DataFrame | None:
    """The matches the character verdict reads: two-player results only (a four-player table has
    its own picture)."""
    return None if more_than_two_seats(rs) else rs.summary().matches


def section_answer(study: Any, rs: Any, tables: dict[str, pd.DataFrame]) -> list[str]:
    """The answer of a study from its report's picture (:func:`report_verdict` over the sections the
    report shows for ``study``)."""
    verdict = report_verdict(rs, tables, ruleset_sections(rs, study), _two_player_matches(rs))
    return answer_lines(verdict)


def win_rate_line(tables: dict[str, pd.DataFrame]) -> str:
    """The highest and lowest raw win rate of a character (n, 95% interval) and the AIs that played."""
    rates = tables.get("win_rates")
    if rates is None or rates.empty or rates["win_rate"].notna().sum() == 0:
        return ""
    rates = rates.dropna(subset=["win_rate"]).sort_values("win_rate", ascending=False)
    ais = tables.get("ais")
    played = (
        ", ".join(f"{a} ({t})" for a, t in zip(ais["ai"], ais["tier"], strict=True))
        if ais is not None and len(ais)
        else "unknown AIs"
    )

    def one(r: Any) -> str:
        return f"{display_name(str(r.character))} {with_ci(r.win_rate, r.ci_low, r.ci_high, as_pct=True)} (n={int(r.n)})"

    best, worst = next(rates.itertuples()), list(rates.itertuples())[-1]
    if all(_holds_half(r) for r in (best, worst)):
        return (
            f"No character's raw win rate can be told from 50% yet (highest {one(best)}, lowest {one(worst)}, "
            f"95% CI; played by {played}): more deals would tell."
        )
    return (
        f"Highest raw win rate {one(best)}, lowest {one(worst)}, 95% CI; played by {played} "
        "(a raw rate carries the figure's teammates)."
    )


def _holds_half(r: Any) -> bool:
    """Whether a win rate's 95% interval holds 50% (or is undefined): not told from a coin."""
    return bool(pd.isna(r.ci_low) or pd.isna(r.ci_high) or r.ci_low <= 0.5 <= r.ci_high)


def headline_answer(rs: Any, tables: dict[str, pd.DataFrame]) -> list[str]:
    """The answer of the study the folder records (the default study's for an unknown one)."""
    study = folder_study(rs) or default_study()
    return study.answer(rs, tables)


__all__ = ["headline_answer", "report_verdict", "section_answer", "verdict_ruleset", "win_rate_line"]
