"""The Divine Challenge study's tables, verdicts and plots, on hand-made matches tables whose answers
are known, and on a few real Blast matches."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from krosbalance.analysis.document import Doc
from krosbalance.sim.tables import ruleset_values
from krosbalance.studies.challenges import tables as ch

IOP = "grande_melee_de_iop"


def extras(
    first: int, glyphs: tuple[int, int], tiers: tuple[tuple[int, int, int], tuple[int, int, int]]
) -> str:
    data: dict[str, object] = {"glyphs0": glyphs[0], "glyphs1": glyphs[1], "challenges": ""}
    for side in (0, 1):
        for tier, turn in zip((1, 3, 5), tiers[side], strict=True):
            data[f"tier{tier}_turn{side}"] = turn
    data[f"uses:{IOP}/baaaston:0"] = 1
    data[f"uses:{IOP}/baaaston:1"] = 0
    return json.dumps(data)


def table(n: int = 200, first_wins_iop: float = 1.0) -> pd.DataFrame:
    """``n`` paired deals: under 'none' the first player wins every other game and games end on
    glyphs; under the Iop arm the first player wins a share ``first_wins_iop`` and every game ends
    by KO; tier 5 is never reached."""
    rng = np.random.default_rng(1)
    rows = []
    for k in range(n):
        first = int(rng.integers(2))
        for arm in ("none", IOP):
            if arm == "none":
                first_won, reason = k % 2 == 0, "glyphs"
            else:
                first_won, reason = k < first_wins_iop * n, "ko"
            rows.append(
                {
                    "match_id": len(rows),
                    "seed": k,
                    "swapped": False,
                    "board": "blast-a",
                    "ai0": "blast_glyph",
                    "ai1": "blast_glyph",
                    "team0": "a,b",
                    "team1": "c,d",
                    "ruleset": "blast",
                    "variant": arm,
                    "options": "{}",
                    "winner": first if first_won else 1 - first,
                    "first_player": first,
                    "end_reason": reason,
                    "turns": 10 if reason == "glyphs" else 6,
                    "error": "",
                    "extras": extras(first, (3, 2), ((2, 4, 0), (3, 0, 0))),
                }
            )
    frame = pd.DataFrame(rows)
    frame["winner"] = frame["winner"].astype("Int64")
    return frame


def test_blast_matches_derives_the_study_columns() -> None:
    frame = ch.blast_matches(table(10))
    assert set(frame["arm"]) == {"none", IOP}
    assert (frame["first_won"] | frame["second_won"] | frame["draw"]).all()
    assert frame["tier1_any"].all() and not frame["tier5_any"].any()
    assert set(frame["end"]) == {"glyphs", "ko"}


def test_arm_summary_rates_and_intervals() -> None:
    summary = ch.arm_summary(ch.blast_matches(table(200))).set_index("arm")
    assert summary.loc["none", "first_win"] == pytest.approx(0.5)
    assert summary.loc[IOP, "first_win"] == pytest.approx(1.0)
    assert summary.loc[IOP, "ko"] == 1.0 and summary.loc["none", "glyph_win"] == 1.0
    assert summary.loc["none", "first_win_lo"] < 0.5 < summary.loc["none", "first_win_hi"]
    assert summary.loc[IOP, "turns"] == pytest.approx(6.0)


def test_verdicts_flag_real_shifts_and_dead_tiers() -> None:
    verdict = ch.verdicts(ch.blast_matches(table(200))).iloc[0]
    assert verdict["n_pairs"] == 200
    assert verdict["first_diff"] == pytest.approx(0.5)
    assert verdict["shifts_first_player"] and verdict["shifts_ko_vs_glyph"]
    assert verdict["dead_tiers"] == "5"


def test_verdicts_stay_quiet_within_the_noise() -> None:
    quiet = table(60, first_wins_iop=0.5)
    quiet.loc[quiet["variant"] == IOP, "end_reason"] = "glyphs"
    verdict = ch.verdicts(ch.blast_matches(quiet)).iloc[0]
    assert not verdict["shifts_first_player"] and not verdict["shifts_ko_vs_glyph"]


def test_tier_table_and_team_win_rates() -> None:
    frame = ch.blast_matches(table(20))
    tiers = ch.tier_table(frame).set_index("tier")
    assert tiers.loc[1, "reached_any"] == 1.0 and tiers.loc[5, "reached_any"] == 0.0
    assert "Baaaston!" in tiers.loc[1, "bonuses"]
    teams = ch.team_win_rates(frame)
    assert set(teams["team"]) == {"a,b", "c,d"} and (teams["n"] == 20).all()


def test_plots_and_report_section() -> None:
    frame = ch.blast_matches(table(30))
    summary = ch.arm_summary(frame)
    for fig in (ch.plot_first_player(summary), ch.plot_endings(summary), ch.plot_tiers(ch.tier_table(frame))):
        assert fig.axes
    doc, tables = Doc(), {}
    ch.report_section(doc, table(30), tables)
    assert {"challenge_verdicts", "challenge_summary", "challenge_tiers"} <= set(tables)
    assert any(kind == "img" for kind, _ in doc.blocks)


def test_a_few_real_blast_matches_go_through_the_study() -> None:
    from krosbalance.content.registry import list_characters
    from krosbalance.play import play_match

    kros = list_characters(game="blast")
    rows = []
    for seed in range(3):
        for arm, challenges in (("none", []), (IOP, [IOP])):
            result = play_match(
                kros[:2],
                kros[2:4],
                board="blast-a",
                ruleset="blast",
                seed=seed,
                options={"challenges": challenges},
            )
            rows.append(
                {
                    "seed": seed,
                    "swapped": False,
                    "board": "blast-a",
                    "ai0": "random",
                    "ai1": "random",
                    "team0": ",".join(kros[:2]),
                    "team1": ",".join(kros[2:4]),
                    "ruleset": result.ruleset,
                    "variant": arm,
                    "options": "{}",
                    "winner": result.winner,
                    "first_player": result.first_player,
                    "end_reason": result.end_reason,
                    "turns": result.turns,
                    "error": "",
                    **ruleset_values(result.values),  # the declared columns, as the runner writes them
                }
            )
    frame = ch.blast_matches(pd.DataFrame(rows).astype({"winner": "Int64"}))
    assert len(frame) == 6 and ch.verdicts(frame)["n_pairs"].iloc[0] == 3


def test_the_report_finds_blast_results_and_reads_only_the_study_columns(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from krosbalance.analysis.resultset import ResultSet
    from krosbalance.analysis.sections import played_rulesets

    def is_blast(rs: ResultSet) -> bool:  # the report shows Blast's sections for the rulesets played
        played = played_rulesets(rs)
        return bool(played) and all(r.startswith("blast") for r in played)

    frame = table(10).assign(match_id=range(20))
    in_memory = ResultSet(frame)
    assert is_blast(in_memory)
    saved = ResultSet.load(in_memory.save(tmp_path / "res"))
    study = ch.study_matches(saved)
    assert is_blast(saved) and set(study.columns) <= set(ch.COLUMNS) and len(study) == 20
    assert not is_blast(ResultSet(frame.assign(ruleset="arena")))
