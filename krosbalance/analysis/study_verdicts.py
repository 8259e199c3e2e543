"""The verdict pictures of the studies that have their own report section: Demonic Rewards, Divine
Challenges, the Duel Pack and the four-player seats (:mod:`krosbalance.analysis.verdict`).

Each builder reads the same tables its section draws (the section module's public functions) and
returns ``None`` when the result set holds nothing for that study, so the report falls back on the
character-strength verdict. The section registry (:mod:`krosbalance.analysis.sections`) attaches
each builder to its section.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from krosbalance.analysis.dependence import ai_tier
from krosbalance.analysis.verdict import Verdict, group_label, verdict_frame


def reward_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A reward-value experiment (``held_rewards``): each token's Δ win rate per AI, paired deals."""
    from krosbalance.analysis import rewards
    from krosbalance.analysis.fair_price_section import sweep_kind

    if sweep_kind(rs):  # a price sweep: its own verdict (fair_price_section) answers the question
        return None
    matches, _ = rewards.reward_data(rs)
    if not rewards.is_value_experiment(matches):
        return None
    value = rewards.controlled_value(matches)
    if value.empty:
        return None
    rows = [
        {
            "figure": r.name,
            "group": group_label(str(r.ai), str(r.tier)),
            "tier": str(r.tier),
            "est": r.delta,
            "ci_low": r.delta_low,
            "ci_high": r.delta_high,
            "n": r.n,
        }
        for r in value.itertuples(index=False)
    ]
    ranked = rewards.value_for_money(value)
    lines = []
    for ai, group in ranked.groupby("ai", sort=True):
        moved = group[group["differs"]]
        clear = moved[moved["clear"]]["name"].tolist()
        lines.append(
            f"Under {group_label(str(ai), str(group['tier'].iloc[0]))}: {len(moved)} of {len(group)} tokens "
            f"measure like another rank than their assumed one"
            + (
                f", clearly: {', '.join(clear[:5])}" + (" and more" if len(clear) > 5 else "")
                if clear
                else ""
            )
            + "."
        )
    return Verdict(
        "Demonic Reward value",
        "Δ win rate of the team holding the token from the start (paired deals)",
        verdict_frame(rows),
        0.0,
        True,
        lines[:2],
        "Each deal is played without rewards and once per token held face down from the start by team A, "
        "with the same seed: Δ win rate is the paired score difference (win 1, draw ½), 95% Student-t "
        "interval over the deals, n = paired deals. Details in the Demonic Rewards section.",
    )


def challenge_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """A Blast study: each Divine Challenge's shift of the first player's win rate, per AI."""
    from krosbalance.analysis import challenges
    from krosbalance.analysis.fair_price_section import sweep_kind
    from krosbalance.content.blast import blast_cards

    if sweep_kind(rs):  # a tier sweep: its own verdict (fair_price_section) answers the question
        return None
    frame = challenges.blast_matches(challenges.study_matches(rs))
    if frame.empty:
        return None
    table = challenges.verdicts(frame)
    if table.empty:
        return None

    def name(arm: str) -> str:
        try:
            card = blast_cards().challenge(arm)
        except Exception:
            return arm
        return card.name + (" (assumed card)" if card.status == "assumed" else "")

    rows = [
        {
            "figure": name(str(r.arm)),
            "group": group_label(str(r.ai), ai_tier(str(r.ai).split(" vs ")[0])),
            "tier": ai_tier(str(r.ai).split(" vs ")[0]),
            "est": r.first_diff,
            "ci_low": r.first_lo,
            "ci_high": r.first_hi,
            "n": r.n_pairs,
        }
        for r in table.itertuples(index=False)
    ]
    first = sorted({name(str(a)) for a in table.loc[table["shifts_first_player"], "arm"]})
    ko = sorted({name(str(a)) for a in table.loc[table["shifts_ko_vs_glyph"], "arm"]})
    lines = [
        "Beyond the noise (exact McNemar, Holm-adjusted): the first player's edge moves under "
        f"{', '.join(first) or 'no challenge'}; the share of games won by KO rather than glyphs under "
        f"{', '.join(ko) or 'no challenge'}."
    ]
    return Verdict(
        "Divine Challenge effect",
        "shift of the first player's win rate against no challenge (paired deals)",
        verdict_frame(rows),
        0.0,
        True,
        lines,
        "Each deal is played under every arm (no challenge, and each challenge alone): a challenge's effect is "
        "the paired difference of the first player's win rate against 'none' on the same deals, 95% interval, "
        "n = paired deals. Details in the Divine Challenges section.",
    )


def seat_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """Matches of more than two seats: each character's strength at the table, per arm and AI tier."""
    from krosbalance.analysis import seats
    from krosbalance.analysis.names import display_name

    analysis = seats.for_result_set(rs)
    if analysis is None:
        return None
    s = analysis.strength
    chars = s[(s["kind"] == "character") & s["coef"].notna()] if not s.empty else s
    if chars.empty:
        return None
    arms = sorted(set(chars["arm"].astype(str))) if "arm" in chars.columns else []
    rows = [
        {
            "figure": display_name(str(r.term)),
            "group": (f"{r.arm}, " if len(arms) > 1 else "") + f"{r.tier} tier",
            "tier": str(r.tier),
            "est": r.coef,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
        }
        for r in chars.itertuples(index=False)
    ]
    return Verdict(
        "character strength at the table",
        "strength at the table (conditional logit, log-odds vs the average character)",
        verdict_frame(rows),
        0.0,
        False,
        seats.summary_lines(analysis)[:2],
        "Conditional logit grouped by match: a partnership's chance of winning from the characters it fields, "
        "play positions held fixed; log-odds against the average character, 95% intervals, n = decided matches "
        "the character played in. Details in the Seats section.",
    )


def restricted_verdict(rs: Any, tables: dict[str, pd.DataFrame]) -> Verdict | None:
    """Restricted play: Δ strength of each figure with one element forbidden, per AI."""
    from krosbalance.analysis.names import display_name
    from krosbalance.analysis.restricted import restricted_table
    from krosbalance.analysis.restricted_section import forbids_of

    forbids = forbids_of(rs)
    if not forbids:
        return None
    table = restricted_table(rs.matches, forbids)
    table = table[table["delta"].notna()] if not table.empty else table
    if table.empty:
        return None
    rows = [
        {
            "figure": f"{display_name(str(r.figure))} without {r.element}",
            "group": group_label(str(r.tier), ai_tier(str(r.tier))),
            "tier": ai_tier(str(r.tier)),
            "est": r.delta,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "n": r.n,
        }
        for r in table.itertuples(index=False)
    ]
    worst = table.loc[table["delta"].idxmin()]
    lines = [
        f"{display_name(str(worst['figure']))} loses most without {worst['element']}: "
        f"Δ {worst['delta']:+.2f} [{worst['ci_low']:+.2f}, {worst['ci_high']:+.2f}] log-odds under "
        f"{worst['tier']} (n={int(worst['n'])})."
    ]
    return Verdict(
        "restricted play",
        "Δ strength when the element is forbidden (log-odds; below 0: the element helps the figure)",
        verdict_frame(rows),
        0.0,
        False,
        lines,
        "Each restricted arm plays the unrestricted arm's seeds with one spell, power or option forbidden to "
        "the figure (Jaffe et al. 2012); Δ is the restriction term of the character-strength model fitted on "
        "both arms, deal-clustered 95% intervals, n = restricted matches with the figure on one side. Details "
        "in the Restricted play section.",
    )


__all__ = [
    "challenge_verdict",
    "restricted_verdict",
    "reward_verdict",
    "seat_verdict",
]
