from __future__ import annotations

import pandas as pd

from krosbalance.analysis import narrative


def _strength(rows: list[tuple[str, float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "term": t,
                "kind": "character",
                "coef": c,
                "se": 0.1,
                "ci_low": lo,
                "ci_high": hi,
                "p_value": 0.5,
                "n": 10,
                "method": "mle",
                "note": "",
            }
            for t, c, lo, hi in rows
        ]
    )


def test_no_significance_claimed_when_ci_covers_zero() -> None:
    s = _strength([("a", 0.3, -0.1, 0.7), ("b", -0.3, -0.7, 0.1)])
    text = " ".join(narrative.strength_findings(s, pd.DataFrame()))
    assert "includes zero" in text and "excludes zero" not in text
    assert "stronger than the average" not in text


def test_significance_claimed_when_ci_excludes_zero() -> None:
    s = _strength([("a", 0.9, 0.5, 1.3), ("b", -0.9, -1.3, -0.5)])
    text = " ".join(narrative.strength_findings(s, pd.DataFrame()))
    assert "**a**" in text and "stronger than the average character" in text
    assert "weaker than the average character" in text


def test_first_player_wording() -> None:
    base = {"n_matches": 100, "draws": 0, "n": 100, "first_wins": 55, "win_rate_all": 0.55}
    ns = pd.DataFrame([{**base, "win_rate": 0.55, "ci_low": 0.45, "ci_high": 0.64, "p_value": 0.37}])
    assert "not significantly" in narrative.first_player_finding(ns)
    sig = pd.DataFrame([{**base, "win_rate": 0.65, "ci_low": 0.55, "ci_high": 0.73, "p_value": 0.004}])
    assert "significantly more than half" in narrative.first_player_finding(sig)
    none = pd.DataFrame(
        [
            {
                **base,
                "n": 0,
                "win_rate": float("nan"),
                "ci_low": float("nan"),
                "ci_high": float("nan"),
                "p_value": float("nan"),
            }
        ]
    )
    assert "not enough data" in narrative.first_player_finding(none)


def test_matchup_wording_respects_interval() -> None:
    mm = pd.DataFrame(
        [
            {
                "team": "x",
                "opponent": "y",
                "n": 2,
                "wins": 2,
                "draws": 0,
                "losses": 0,
                "win_rate": 1.0,
                "ci_low": 0.34,
                "ci_high": 1.0,
            },
            {
                "team": "y",
                "opponent": "x",
                "n": 2,
                "wins": 0,
                "draws": 0,
                "losses": 2,
                "win_rate": 0.0,
                "ci_low": 0.0,
                "ci_high": 0.66,
            },
        ]
    )
    text = narrative.matchup_finding(mm)
    assert "[x] beat [y]" in text and "includes 50%" in text


def test_with_ci_formatting() -> None:
    assert narrative.with_ci(0.5, 0.4, 0.6, as_pct=True) == "50.0% [40.0%, 60.0%]"
    assert narrative.with_ci(1.234, float("nan"), float("nan")) == "1.23"


def test_losing_to_a_single_opponent_is_not_called_dominance():
    import pandas as pd

    from krosbalance.analysis.narrative import dominated_finding

    table = pd.DataFrame({"team": ["a,b", "c,d", "e,f"], "opponents": [1, 1, 3]})
    text = dominated_finding(table)
    assert "1 team(s) are dominated" in text and "[e, f] (3 opponents)" in text
    assert "2 team(s) lost to the only opponent they met" in text
    assert "[a,b]" not in text


def test_first_player_sentence_reports_the_adjusted_term():
    import pandas as pd

    from krosbalance.analysis.narrative import first_player_finding

    first = pd.DataFrame(
        {"n": [1000], "win_rate": [0.45], "ci_low": [0.42], "ci_high": [0.48], "p_value": [0.001]}
    )
    strength = pd.DataFrame({"term": ["(first player)"], "coef": [0.08], "ci_low": [-0.03], "ci_high": [0.2]})
    text = first_player_finding(first, strength)
    assert "second-player advantage" in text and "confounded with team composition" in text
    assert "not shown to matter" in text


def test_ai_lines_warn_about_unvalidated_ais_only() -> None:
    ais = pd.DataFrame(
        {
            "ai": ["random", "kiter"],
            "tier": ["baseline", "heuristic"],
            "rating": [-2.0, float("nan")],
            "ci_low": [-2.2, float("nan")],
            "ci_high": [-1.8, float("nan")],
            "validated": [True, False],
        }
    )
    lines = narrative.ai_lines(ais)
    assert "random (baseline; ladder rating -2.00 [-2.20, -1.80], validated)" in lines[0]
    assert "kiter (heuristic; not on the ladder)" in lines[0]
    assert lines[1].startswith("**Warning: not validated AIs (kiter)")
    assert len(narrative.ai_lines(ais.iloc[:1])) == 2  # validated, but random play only: said so
    assert "Only random play" in narrative.ai_lines(ais.iloc[:1])[1]


def test_verdict_lines_name_characters_and_the_ais_they_depend_on() -> None:
    verdicts = pd.DataFrame(
        {
            "character": ["a", "b", "c"],
            "verdict": ["over-powered", "depends on AI", "not shown"],
            "basis": ["validated tier(s): heuristic (x, y)"] * 3,
            "dissent": ["", "", ""],
        }
    )
    by_ai = pd.DataFrame(
        {
            "group": ["pooled", "x", "y", "x", "y"],
            "term": ["b", "b", "b", "a", "a"],
            "coef": [0.1, 0.7, -0.4, 1, 1],
        }
    )
    (line,) = narrative.verdict_lines(verdicts, by_ai)
    assert "(validated tier(s): heuristic (x, y))" in line
    assert "**over-powered**: a" in line and "**depends on AI**: b (+0.70 under x, -0.40 under y)" in line
    assert "c" not in line.split("depends on AI")[1].split("(")[0]


def test_stability_and_ladder_lines() -> None:
    tau = pd.DataFrame(
        {"group_a": ["x"], "group_b": ["y"], "characters": [8], "tau": [0.2], "p_value": [0.5]}
    )
    assert "changes with the AI" in narrative.stability_line(tau, "AIs")
    assert narrative.stability_line(tau.iloc[0:0], "AIs") == ""
    ratings = pd.DataFrame(
        {
            "ai": ["s", "h"],
            "tier": ["search", "heuristic"],
            "rating": [1.0, -1.0],
            "ci_low": [0.5, -1.5],
            "ci_high": [1.5, -0.5],
        }
    )
    gate = pd.DataFrame({"lower": ["h"], "higher": ["s"], "holds": [False]})
    line = narrative.ladder_line(ratings, gate, passed=False)
    assert line.startswith("AI ladder (Bradley-Terry log-odds): s (search) 1.00 [0.50, 1.50]")
    assert "**the validity gate fails** (s over h not shown)" in line


def test_a_percentage_interval_that_is_not_zero_wide_never_prints_as_one() -> None:
    from krosbalance.analysis.narrative import with_ci

    assert with_ci(0.0, 0.0, 0.0004, as_pct=True) == "0.00% [0.00%, 0.04%]"
    assert with_ci(0.5, 0.4, 0.6, as_pct=True) == "50.0% [40.0%, 60.0%]"
