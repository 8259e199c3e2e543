"""The crossing fit (krosbalance.analysis.crossing) recovers a known root from synthetic paired data,
and the fair-price section (krosbalance.studies.rewards.fair_price_section) reports it per AI with n and CIs."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

from krosbalance.analysis.crossing import fit_crossing, fits_by, point_effects
from krosbalance.analysis.document import Doc
from krosbalance.content.registry import default_registry


def _synthetic(root: float, slope: float, deals: int, seed: int, grid=(0, 6, 12, 18, 24)) -> pd.DataFrame:
    """Paired deals: the baseline (x NaN) at 50%, each swept value with Δ log-odds slope·(x − root)."""
    rng = np.random.default_rng(seed)
    rows = []
    for deal in range(deals):
        for x in (np.nan, *grid):
            effect = 0.0 if np.isnan(x) else slope * (x - root)
            for _ in range(2):
                rows.append({"deal": deal, "x": x, "score": float(rng.random() < expit(effect)), "ai": "a"})
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("root", "slope"), [(10.0, -0.08), (15.0, -0.12), (4.0, 0.1)])
def test_the_fit_recovers_a_known_crossing_within_its_interval(root: float, slope: float) -> None:
    fit = fit_crossing(_synthetic(root, slope, 1500, seed=int(root)))
    assert fit["root_ci_low"] <= root <= fit["root_ci_high"]
    assert fit["root_ci_high"] - fit["root_ci_low"] < 4  # and precisely: 1,500 deals pin it down
    assert np.sign(fit["slope"]) == np.sign(slope) and fit["in_grid"] and fit["note"] == ""


def test_a_root_beyond_the_grid_says_it_is_extrapolated() -> None:
    fit = fit_crossing(_synthetic(60.0, -0.05, 400, seed=3))
    assert not fit["in_grid"] and "extrapolated" in fit["note"]


def test_a_flat_effect_says_its_root_is_unreliable() -> None:
    frame = _synthetic(0.0, 0.0, 150, seed=4)
    assert "not clearly non-zero" in fit_crossing(frame)["note"]


def test_without_a_baseline_nothing_is_fitted() -> None:
    frame = _synthetic(10.0, -0.1, 50, seed=5)
    frame = frame[frame["x"].notna()]
    assert "baseline" in fit_crossing(frame)["note"] and point_effects(frame).empty


def test_point_effects_give_each_value_against_the_baseline() -> None:
    points = point_effects(_synthetic(12.0, -0.1, 800, seed=6))
    assert points["x"].isna().sum() == 1 and points.loc[points["x"].isna(), "coef"].item() == 0
    shown = points[points["x"].notna()]
    assert (np.diff(shown["coef"].to_numpy()) < 0.15).all()  # falls with x (noise allowed)
    assert (shown["ci_low"] < shown["coef"]).all() and (shown["coef"] < shown["ci_high"]).all()
    assert shown["n_deals"].eq(800).all() and shown["n"].eq(1600).all()


def test_fits_by_fits_each_ai_alone() -> None:
    frame = pd.concat(
        [
            _synthetic(8.0, -0.1, 800, seed=7).assign(ai="a"),
            _synthetic(18.0, -0.1, 800, seed=8).assign(ai="b"),
        ]
    )
    _, fits = fits_by(frame, "ai")
    roots = dict(zip(fits["ai"], fits["root"], strict=True))
    assert abs(roots["a"] - 8) < 3 and abs(roots["b"] - 18) < 3


def _priced_matches(token: str, root: float, deals: int) -> pd.DataFrame:
    """A results table of a price sweep whose token is worth ``root`` kamas."""
    frame = _synthetic(root, -0.1, deals, seed=9)
    rows = []
    for i, r in enumerate(frame.itertuples(index=False)):
        swapped = bool(i % 2)
        options = (
            {} if np.isnan(r.x) else {"start_rewards": [[token], []], "start_reward_prices": [[int(r.x)], []]}
        )
        if swapped and options:
            options = {k: v[::-1] for k, v in options.items()}
        rows.append(
            {
                "match_id": i,
                "seed": r.deal,
                "swapped": swapped,
                "options": json.dumps(options),
                "winner_team": "A" if r.score else "B",
                "ai0": "focus-fire",
                "ai1": "focus-fire",
                "error": "",
            }
        )
    return pd.DataFrame(rows)


def test_the_fair_price_section_reports_the_price_per_ai_with_n_and_a_picture() -> None:
    from krosbalance.studies.rewards import fair_price_section

    token = default_registry().all_rewards()[0].id
    rs = SimpleNamespace(
        manifest={
            "sweep": {"kind": "reward", "target": token, "fields": [], "points": [], "prices": [0, 6, 12]}
        },
        matches=_priced_matches(token, 12.0, 700),
    )
    doc, tables, titles = Doc(), {}, []

    def section(d, title, build):  # type: ignore[no-untyped-def]
        titles.append(title)
        build()

    fair_price_section.add_report_section(doc, rs, tables, section)
    assert titles == ["Fair price"]
    fit = tables["crossing_fit"].iloc[0]
    assert fit["ai"] == "focus-fire" and fit["tier"] == "heuristic" and fit["n_deals"] == 700
    assert fit["root_ci_low"] <= 12 <= fit["root_ci_high"]
    kinds = [kind for kind, _ in doc.blocks]
    assert kinds.count("table") == 2 and "img" in kinds
    verdict = fair_price_section.crossing_verdict(rs, {})
    assert verdict is not None and len(verdict.data) == 5 and "fair price" in verdict.lines[0]


def test_no_crossing_sweep_adds_no_section() -> None:
    from krosbalance.studies.rewards import fair_price_section

    rs = SimpleNamespace(
        manifest={"sweep": {"kind": "figure", "target": "x", "fields": ["hp"]}}, matches=pd.DataFrame()
    )
    titles: list[str] = []
    fair_price_section.add_report_section(Doc(), rs, {}, lambda d, t, b: titles.append(t))
    assert titles == [] and fair_price_section.crossing_verdict(rs, {}) is None


def test_a_response_that_rises_then_falls_is_flagged_and_answered_by_its_points() -> None:
    rng = np.random.default_rng(11)
    rows = []
    for deal in range(600):
        for x in (np.nan, 1, 2, 3, 4, 5):
            effect = 0.0 if np.isnan(x) else 0.8 - 0.35 * abs(x - 3) * 2  # peak at 3, 0 near 1.86 and 4.14
            for _ in range(2):
                rows.append({"deal": deal, "x": x, "score": float(rng.random() < expit(effect)), "ai": "a"})
    _, fits = fits_by(pd.DataFrame(rows), "ai")
    fit = fits.iloc[0]
    assert "not monotone" in fit["note"]
    assert fit["closest_x"] in (2.0, 4.0) and fit["closest_holds_zero"]


def _two_ais() -> tuple[str, str]:
    """The strongest validated AI of the ladder and one of another tier below it (not named by hand)."""
    from krosbalance.ai.ladder import load_ladder
    from krosbalance.ai.ladder_order import strength_order
    from krosbalance.ai.registry import ai_tier

    ladder = load_ladder()
    order = strength_order(list(ladder), "arena", ladder)
    top = order[0]
    lower = next(ai for ai in order[1:] if ai_tier(ai) != ai_tier(top))
    return top, lower


def test_a_price_sweep_answers_with_the_strongest_ais_fair_price_and_the_next_one_down() -> None:
    """The headline of a fair-price run: the top AI's fair price with n and its interval, then the
    next AI down's and their difference (here a token the strong AI prices at 6, the weak at 20)."""
    from krosbalance.studies.rewards import fair_price_section

    token = default_registry().all_rewards()[0].id
    strong, weak = _two_ais()
    frames = []
    for ai, root in ((weak, 20.0), (strong, 6.0)):
        m = _priced_matches(token, root, 700).assign(ai0=ai, ai1=ai)
        frames.append(
            m.assign(
                match_id=m["match_id"] + sum(len(f) for f in frames), seed=m["seed"] + 10_000 * len(frames)
            )
        )
    rs = SimpleNamespace(
        manifest={
            "sweep": {
                "kind": "reward",
                "target": token,
                "fields": [],
                "points": [],
                "prices": [0, 6, 12, 18, 24],
            }
        },
        matches=pd.concat(frames, ignore_index=True),
    )
    lines = fair_price_section.crossing_answer(rs, {})
    assert lines is not None and len(lines) == 2
    assert lines[0].startswith(f"Under {strong}") and "fair price (kamas)" in lines[0] and "n=" in lines[0]
    fits = {f["ai"]: f for _, f in fair_price_section.study(rs)[4].iterrows()}
    assert fits[strong]["root_ci_low"] <= 6 <= fits[strong]["root_ci_high"]
    assert lines[1].startswith(f"Next AI down, {weak}") and f"{strong} puts it lower" in lines[1]


def test_a_run_without_a_price_sweep_has_no_fair_price_answer() -> None:
    from krosbalance.studies.rewards import fair_price_section

    rs = SimpleNamespace(
        manifest={"sweep": {"kind": "figure", "target": "x", "fields": ["hp"]}}, matches=pd.DataFrame()
    )
    assert fair_price_section.crossing_answer(rs, {}) is None
