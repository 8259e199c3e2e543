"""Restricted-play analysis on a planted world: forbidding an element that carries the figure shows
as a negative Δ whose interval holds the planted value; forbidding one that does nothing does not;
the report section and its picture are written from the manifest's ``forbids``."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from krosbalance.analysis.document import Doc
from krosbalance.studies.restricted.section import add_report_section, plot_restricted
from krosbalance.studies.restricted.tables import arm_elements, baseline_arm, restricted_table

CHARS = ("star", "b", "c", "d", "e", "f", "g", "h")
STRENGTH = {"star": 0.8, "b": 0.2, "c": 0.0, "d": 0.0, "e": -0.2, "f": 0.0, "g": 0.0, "h": -0.8}
FORBIDS = {
    "star-spell-bow": {"star": ["spell:bow"]},  # planted: -1.0 log-odds for star
    "star-power-hat": {"star": ["power:hat"]},  # planted: nothing
}
PLANTED = {"unrestricted": 0.0, "star-spell-bow": -1.0, "star-power-hat": 0.0}


def planted_matches(deals: int = 16, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    splits = [t for t in itertools.combinations(CHARS, 4) if "star" in t]
    rows = []
    for p, team_a in enumerate(splits):
        team_b = tuple(c for c in CHARS if c not in team_a)
        for deal in range(deals):
            for swapped in (False, True):
                t0, t1 = (team_b, team_a) if swapped else (team_a, team_b)
                u = rng.random()  # common random numbers across the arms of one match
                for arm, shift in PLANTED.items():
                    s0 = sum(STRENGTH[c] for c in t0) + (shift if "star" in t0 else 0.0)
                    s1 = sum(STRENGTH[c] for c in t1) + (shift if "star" in t1 else 0.0)
                    p0 = 1.0 / (1.0 + np.exp(-(s0 - s1)))
                    rows.append(
                        {
                            "match_id": len(rows),
                            "pairing": p,
                            "deal": deal,
                            "swapped": swapped,
                            "team0": ",".join(t0),
                            "team1": ",".join(t1),
                            "ai0": "kiter",
                            "ai1": "kiter",
                            "variant": arm,
                            "winner": 0 if u < p0 else 1,
                            "first_player": int(rng.random() < 0.5),
                            "error": "",
                            "end_reason": "gg",
                        }
                    )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return restricted_table(planted_matches(), FORBIDS)


def test_the_element_that_carries_the_figure_has_a_negative_delta_holding_the_planted_value(table):
    row = table[table["arm"] == "star-spell-bow"].iloc[0]
    assert row["kind"] == "spell" and row["element"] == "bow" and row["tier"] == "kiter"
    assert row["ci_high"] < 0 and row["ci_low"] < -1.0 < row["ci_high"]
    assert row["interval"] == "deal-clustered"
    assert row["delta_win"] < 0 and row["win_high"] < 0
    assert row["n"] == 35 * 16 * 2 and row["deals"] == 35 * 16


def test_an_element_that_does_nothing_has_an_interval_around_zero(table):
    row = table[table["arm"] == "star-power-hat"].iloc[0]
    assert row["kind"] == "power"
    assert row["ci_low"] < 0 < row["ci_high"]
    assert row["win_low"] <= 0 <= row["win_high"]


def test_the_baseline_is_the_unrestricted_arm_and_multi_figure_arms_are_left_out():
    assert baseline_arm(["a", "unrestricted", "b"], {"a": {}, "b": {}}) == "unrestricted"
    assert baseline_arm(["free", "x"], {"x": {}}) == "free"
    assert baseline_arm(["x"], {"x": {}}) is None
    assert arm_elements({"two": {"a": ["spell:s"], "b": ["spell:t"]}, "one": {"a": ["power:p"]}}) == [
        ("one", "a", "power:p")
    ]


def test_without_a_baseline_the_table_is_empty():
    m = planted_matches(deals=1)
    assert restricted_table(m[m["variant"] != "unrestricted"], FORBIDS).empty


def test_the_picture_has_a_bar_per_element_and_tier(table):
    fig = plot_restricted(table, "star")
    assert isinstance(fig, Figure)
    assert len(fig.axes[0].patches) == len(table[table["figure"] == "star"])


class _Results:
    def __init__(self, matches: pd.DataFrame, manifest: dict) -> None:
        self.matches = matches
        self.manifest = manifest


def test_the_report_section_appears_only_when_arms_forbid_something():
    doc, tables = Doc(), {}
    calls = []

    def section(d, title, build):
        calls.append(title)
        build()

    add_report_section(doc, _Results(planted_matches(deals=2), {"forbids": FORBIDS}), tables, section)
    assert calls == ["Restricted play"] and "restricted_play" in tables
    kinds = [kind for kind, _ in doc.blocks]
    assert "table" in kinds and "img" in kinds
    add_report_section(Doc(), _Results(planted_matches(deals=1), {}), {}, section)
    assert calls == ["Restricted play"]


def test_the_headline_names_the_element_only_when_its_interval_shows_a_loss(table):
    from krosbalance.studies.restricted.section import headline

    text = headline(table)
    assert "**bow**" in text and "kiter" in text
    only_null = table[table["arm"] == "star-power-hat"].assign(ci_high=0.5, ci_low=-0.5)
    assert "no single element" in headline(only_null)


def test_changed_is_zero_when_the_restricted_arm_plays_the_same_matches():
    m = planted_matches(deals=2)
    same = m[m["variant"] == "unrestricted"].assign(variant="star-power-hat")
    t = restricted_table(pd.concat([m[m["variant"] == "unrestricted"], same]), FORBIDS)
    assert (t["changed"] == 0).all() and (t["delta_win"] == 0).all()


def test_the_pictures_line_names_the_loss_under_the_strongest_ai_not_the_largest_under_any(monkeypatch):
    """Two AIs: the cheaper one (another tier) loses most without the hat, the strongest AI played
    without the bow (the hat does nothing to it): the line is the strongest AI's."""
    from krosbalance.ai.ladder import load_ladder
    from krosbalance.ai.ladder_order import strength_order
    from krosbalance.ai.registry import ai_tier
    from krosbalance.studies.restricted.verdict import restricted_verdict

    ladder = load_ladder()
    order = strength_order(list(ladder), "arena", ladder)
    strong = order[0]
    weak = next(ai for ai in order[1:] if ai_tier(ai) != ai_tier(strong))
    frames = []
    for ai, planted in ((strong, PLANTED), (weak, {**PLANTED, "star-power-hat": -2.5})):
        monkeypatch.setattr(f"{__name__}.PLANTED", planted)
        m = planted_matches(deals=6, seed=len(frames) + 3).assign(ai0=ai, ai1=ai)
        frames.append(m.assign(match_id=m["match_id"] + 10**6 * len(frames)))
    verdict = restricted_verdict(_Results(pd.concat(frames, ignore_index=True), {"forbids": FORBIDS}), {})
    assert verdict is not None
    (line,) = verdict.lines
    assert "without bow" in line and f"under {strong}" in line, line
