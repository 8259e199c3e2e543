"""The verdict picture a report opens with: convergence between the two strongest tiers, the
five-line summary, and each study's report leading with its own answer."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from krosbalance.analysis import verdict as vd
from krosbalance.analysis.report import build_document, write_report
from krosbalance.analysis.resultset import ResultSet
from tests.analysis.verdict_checks import assert_report_leads_with_the_answer


def frame(rows: list[tuple[str, str, float, float, float]]) -> pd.DataFrame:
    return vd.verdict_frame(
        [
            {"figure": f, "group": t, "tier": t, "est": e, "ci_low": lo, "ci_high": hi, "n": 50}
            for f, t, e, lo, hi in rows
        ]
    )


def test_the_two_strongest_tiers_settle_move_or_cannot_tell_yet() -> None:
    data = frame(
        [
            ("a", "search", 0.50, 0.45, 0.55),
            ("a", "heuristic", 0.52, 0.47, 0.57),  # agrees within ±0.15
            ("a", "baseline", -1.0, -1.2, -0.8),  # far off, but the weakest tier is not compared
            ("b", "search", 0.5, 0.4, 0.6),
            ("b", "heuristic", -0.5, -0.6, -0.4),  # moved
            ("c", "search", 0.1, 0.0, 0.2),  # no heuristic estimate
            ("d", "search", 0.1, -0.3, 0.5),
            ("d", "heuristic", 0.2, -0.2, 0.6),  # overlapping wide intervals: cannot tell
        ]
    )
    assert vd.strongest_tiers(data) == ["search", "heuristic"]
    table = vd.convergence(data).set_index("figure")
    assert table["status"].to_dict() == {"a": vd.SETTLED, "b": vd.MOVING, "c": vd.ONE_TIER, "d": vd.UNDECIDED}
    assert table.loc["d", "more_top"] > 0 and table.loc["b", "difference"] > 0
    line = vd.convergence_line(vd.Verdict("x", "y", data))
    assert line.startswith("1 of 3 figures settled") and "still moving: b" in line and "undecided: d" in line
    prices = vd.convergence_line(vd.Verdict("x", "y", data, rows="prices"))
    assert prices.startswith("1 of 3 prices settled"), "a sweep's rows are counted as what they are"


def test_win_rates_are_judged_on_a_margin_of_points() -> None:
    """1 point apart with ±1-point intervals: settled as win rates (±3.75 points), not as log-odds
    ten times larger (±0.15)."""
    data = frame([("a", "search", 0.55, 0.54, 0.56), ("a", "heuristic", 0.56, 0.55, 0.57)])
    assert vd.convergence(data, as_pct=True)["status"].tolist() == [vd.SETTLED]
    wide = data.assign(est=data["est"] * 10, ci_low=data["est"] * 10 - 0.1, ci_high=data["est"] * 10 + 0.1)
    assert vd.convergence(wide)["status"].tolist() == [vd.UNDECIDED]


def test_one_tier_cannot_be_judged() -> None:
    data = frame([("a", "heuristic", 0.1, -0.1, 0.3), ("b", "heuristic", -0.1, -0.3, 0.1)])
    assert set(vd.convergence(data)["status"]) == {vd.ONE_TIER}
    assert vd.convergence_line(vd.Verdict("x", "y", data)).startswith("Stronger play cannot be judged")


def test_the_summary_has_at_most_five_lines_and_keeps_the_warning() -> None:
    data = frame([("a", "search", 0.5, 0.3, 0.7), ("a", "heuristic", 0.6, 0.4, 0.8)])
    verdict = vd.Verdict("x", "y", data, lines=["one", "two", "three"])
    lines = vd.summary(verdict, ["Based on 10 matches."], ["**Warning: not validated AIs (z).**"])
    assert len(lines) == vd.MAX_SUMMARY and lines[0] == "Based on 10 matches."
    assert lines[1:3] == ["one", "two"] and lines[-1].startswith("**Warning")
    assert any("settled" in line for line in lines)


# ---------------------------------------------------------------------------------- the reports

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "results-small"


def test_a_character_study_report_leads_with_strength_per_tier() -> None:
    rs = ResultSet.load(FIXTURE)
    _, doc, tables = build_document(rs)
    assert_report_leads_with_the_answer(doc, tables, "character strength")
    tiers = set(tables["verdict"]["tier"])
    played = set(pd.read_parquet(FIXTURE / "matches")["ai0"].map(vd.ai_tier))
    assert tiers == played  # every tier of the same-AI matchups, the baseline too


def test_the_markdown_report_opens_with_the_picture(tmp_path: Path) -> None:
    write_report(FIXTURE, tmp_path)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    body = md.split("\n", 1)[1].lstrip()
    assert body.startswith("## Verdict\n\n![verdict: character strength per AI](verdict.png)")
    summary = md.split("## Summary\n\n")[1].split("\n\n")[0].splitlines()
    rest = [line for line in summary if not line.startswith("- **Answer:** ")]
    assert summary[0].startswith("- **Answer:** ")  # the study's answer leads the summary
    assert 1 <= len(rest) <= vd.MAX_SUMMARY and all(line.startswith("- ") for line in summary)
    assert md.index("## Summary") < md.index("## Question") < md.index("## Findings") < md.index("## AIs")
    assert (tmp_path / "verdict.png").is_file() and (tmp_path / "tables" / "verdict.csv").is_file()


@pytest.mark.parametrize("seed", [0])
def test_the_report_of_a_study_with_no_estimate_still_leads_with_the_verdict(seed: int) -> None:
    from tests.analysis.fixtures import planted_tables

    m, f = planted_tables(n_pairings=1, seed=seed, draw_rate=1.0)
    _, doc, _ = build_document(ResultSet(m, f))
    assert doc.blocks[0] == ("h2", "Verdict") and doc.blocks[1][0] == "img"
    assert [v for k, v in doc.blocks if k == "h2"][1] == "Summary"


def test_a_figure_both_measured_without_an_interval_under_one_is_no_interval_not_one_tier() -> None:
    """An arm that changes no match under the strong AI (Δ exactly 0, no interval) is measured by
    both groups: it is 'no interval', kept out of the settled count, and the picture says so."""
    data = frame(
        [
            ("a", "search", 0.50, 0.45, 0.55),
            ("a", "heuristic", 0.52, 0.47, 0.57),
            ("b", "search", 0.0, float("nan"), float("nan")),  # the restriction changed nothing
            ("b", "heuristic", -0.4, -0.6, -0.2),
            ("c", "heuristic", 0.1, 0.0, 0.2),  # the strong tier never measured it
        ]
    )
    table = vd.convergence(data).set_index("figure")
    assert table["status"].to_dict() == {"a": vd.SETTLED, "b": vd.NO_INTERVAL, "c": vd.ONE_TIER}
    assert vd.convergence_line(vd.Verdict("x", "y", data)).startswith("1 of 1 figures settled")
