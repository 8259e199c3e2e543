"""The headline is the strongest validated AI's, with one clause on the next AI down: tests that fail
when the answer reads another AI's rows."""

from __future__ import annotations

from krosbalance.ai.ladder import LadderStanding
from krosbalance.analysis import headline as hl
from krosbalance.analysis import verdict as vd

TIERS = {"strong": "search", "weak": "heuristic"}


def standings(strong_rating: float = 1.5, weak_rating: float = 0.2) -> dict[str, LadderStanding]:
    return {
        ai: LadderStanding(ai, TIERS[ai], r, r - 0.1, r + 0.1, 100, True)
        for ai, r in (("strong", strong_rating), ("weak", weak_rating))
    }


def verdict(
    rows: list[tuple[str, str, float, float, int]], as_pct: bool = False, ruleset: str = "arena"
) -> vd.Verdict:
    """Rows of (figure, ai, estimate, interval half-width, n)."""
    data = vd.verdict_frame(
        [
            {
                "figure": f,
                "group": vd.group_label(ai, TIERS[ai]),
                "tier": TIERS[ai],
                "est": e,
                "ci_low": e - h,
                "ci_high": e + h,
                "n": n,
                "ai": ai,
            }
            for f, ai, e, h, n in rows
        ]
    )
    measure = "win rate" if as_pct else "strength (log-odds vs the average character)"
    return vd.Verdict("test", measure, data, 0.5 if as_pct else 0.0, as_pct, ruleset=ruleset)


# the two AIs rank the figures the other way round
OPPOSED = [
    ("fig-1", "strong", 0.60, 0.10, 400),
    ("fig-2", "strong", -0.60, 0.10, 400),
    ("fig-1", "weak", -0.50, 0.10, 400),
    ("fig-2", "weak", 0.50, 0.10, 400),
]


def test_the_answer_is_measured_on_the_strongest_ais_rows() -> None:
    lines = hl.headline_lines(verdict(OPPOSED), standings())
    assert len(lines) == 2
    assert lines[0].startswith("Under strong, the strongest validated AI played")
    assert "highest fig-1 +0.60 [+0.50, +0.70]" in lines[0] and "lowest fig-2 -0.60" in lines[0]
    assert "n=400" in lines[0] and "(≈ 65% [62%, 67%] win)" in lines[0]  # win % beside log-odds
    assert (
        lines[1].startswith("Next AI down, weak: fig-1 -0.50")
        and "still moving: strong rates it higher" in lines[1]
    )


def test_the_ladder_decides_which_ai_answers() -> None:
    """The same rows with the ladder the other way round: the other AI answers."""
    lines = hl.headline_lines(verdict(OPPOSED), standings(strong_rating=0.1, weak_rating=0.3))
    # the tiers still put the search AI on top: validation and tier come before the rating
    assert lines[0].startswith("Under strong")
    unvalidated = {
        "strong": LadderStanding("strong", "search", 1.5, 1.4, 1.6, 100, False),
        **{"weak": standings()["weak"]},
    }
    lines = hl.headline_lines(verdict(OPPOSED), unvalidated)
    assert lines[0].startswith("Under weak, the strongest validated AI played")
    assert "highest fig-2 +0.50" in lines[0]
    assert lines[1].startswith("Next AI down, strong (not validated): fig-2 -0.60")


def test_settled_and_undecided_are_said_with_what_would_tell() -> None:
    agree = [("fig-1", "strong", 0.40, 0.05, 2000), ("fig-1", "weak", 0.41, 0.05, 2000)]
    assert (
        "settled (the two agree within ±0.15 log-odds)" in hl.headline_lines(verdict(agree), standings())[1]
    )
    wide = [
        ("fig-1", "strong", 0.40, 0.40, 100),
        ("fig-2", "strong", -0.40, 0.40, 100),
        ("fig-1", "weak", 0.30, 0.40, 100),
        ("fig-2", "weak", -0.30, 0.40, 100),
    ]
    clause = hl.headline_lines(verdict(wide), standings())[1]
    assert "undecided: about" in clause and "more matches under each would tell" in clause


def test_a_run_of_one_ai_says_so() -> None:
    alone = [r for r in OPPOSED if r[1] == "strong"]
    lines = hl.headline_lines(verdict(alone), standings())
    assert lines[0].startswith("Under strong") and lines[1].startswith("Only strong measured these figures")


def test_too_few_matches_under_the_top_ai_are_said_honestly() -> None:
    few = [(f, ai, e, h, 12) for f, ai, e, h, _ in OPPOSED]
    line = hl.headline_lines(verdict(few), standings())[0]
    assert "only n=12 matches" in line and "too few" in line


def test_a_ruleset_the_ladder_was_not_played_in_gives_a_provisional_answer() -> None:
    line = hl.headline_lines(verdict(OPPOSED, ruleset="blast"), standings())[0]
    assert line.startswith("Under strong, the strongest AI played") and "not validated for blast" in line


def test_win_rates_are_judged_in_points_and_shown_as_percentages() -> None:
    rates = [("fig-1", "strong", 0.55, 0.01, 900), ("fig-1", "weak", 0.56, 0.01, 900)]
    lines = hl.headline_lines(verdict(rates, as_pct=True), standings())
    assert "fig-1 55.0% [54.0%, 56.0%]" in lines[0] and "win)" not in lines[0]
    assert "settled" in lines[1] and "points" in lines[1]


def test_rows_pooled_over_several_ais_give_no_ai_headline() -> None:
    pooled = verdict(OPPOSED)
    pooled.data["ai"] = ""
    assert hl.headline_lines(pooled, standings()) == []
    assert vd.answer_lines(pooled)  # the tier picture's answer stands in


def test_the_comparison_section_holds_the_other_ais() -> None:
    lines = hl.comparison_lines(verdict(OPPOSED), standings())
    assert len(lines) == 1 and lines[0].startswith("weak (heuristic): highest fig-2 +0.50")


def test_the_picture_compares_the_top_two_ais() -> None:
    data = verdict(OPPOSED).data
    assert vd.compared(data, "arena", standings()) == ("ai", ["strong", "weak"])
    status = vd.convergence(data, False, "arena", standings()).set_index("figure")["status"]
    assert set(status) == {vd.MOVING}


def test_a_shift_of_win_rate_reads_in_signed_points() -> None:
    shifts = verdict(
        [("fig-1", "strong", 0.10, 0.05, 200), ("fig-2", "strong", -0.02, 0.05, 200)], as_pct=True
    )
    shifts.reference = 0.0
    line = hl.headline_lines(shifts, standings())[0]
    assert "highest fig-1 +10.0 pts [+5.0, +15.0], n=200" in line


def test_within_a_tier_the_ladder_rating_picks_the_answering_ai() -> None:
    """Two AIs of one tier: the higher rated answers, whichever way the ladder puts them."""
    rows = [("fig-1", "strong", 0.6, 0.1, 400), ("fig-1", "weak", -0.5, 0.1, 400)]
    same_tier = {"strong": "heuristic", "weak": "heuristic"}
    data = verdict(rows)
    data.data["tier"] = data.data["ai"].map(same_tier)

    def ladder(strong: float, weak: float) -> dict[str, LadderStanding]:
        return {
            ai: LadderStanding(ai, "heuristic", r, r - 0.1, r + 0.1, 100, True)
            for ai, r in (("strong", strong), ("weak", weak))
        }

    assert hl.headline_lines(data, ladder(0.5, 0.2))[0].startswith("Under strong")
    assert hl.headline_lines(data, ladder(0.2, 0.5))[0].startswith("Under weak")
