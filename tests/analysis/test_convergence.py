"""Convergence over AI strength: per character, strength against the AI's rating, and whether the
two strongest AIs agree."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from krosbalance.ai.ladder import LadderStanding
from krosbalance.analysis import answers, convergence, dependence, sections
from tests.analysis.fixtures import planted_by_ai

TIERS = {
    "brawler": "heuristic",
    "plainer": "heuristic",
    "sniper": "search",
    "floor": "baseline",
    "fresh": "search",
}


@pytest.fixture
def tiers(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The planted AIs are registered nowhere: give them tiers here."""
    monkeypatch.setattr(convergence, "ai_tier", lambda ai: TIERS.get(ai, "unknown"))
    return TIERS


@pytest.fixture(scope="module")
def by_ai() -> pd.DataFrame:
    return dependence.strength_by(planted_by_ai(400, seed=3)[0], "ai_matchup")


def _standing(ai: str, rating: float, validated: bool = True) -> LadderStanding:
    return LadderStanding(ai, TIERS[ai], rating, rating - 0.1, rating + 0.1, 400, validated)


def test_the_two_strongest_ais_decide_settled_or_still_moving(by_ai, tiers) -> None:
    """The planted AIs agree on star (1.0 for both) and disagree on anchor (-0.7 vs 0.7)."""
    standings = {"brawler": _standing("brawler", 0.5), "sniper": _standing("sniper", 1.5)}
    long = convergence.convergence_long(by_ai, standings)
    assert set(long["ai"]) == {"brawler", "sniper"}
    assert (
        long.groupby("term")["place"].apply(list) == pd.Series([[0, 1]] * 8, index=sorted(set(long["term"])))
    ).all()
    table = convergence.convergence_table(long).set_index("term")
    assert table.loc["anchor", "verdict"] == "still moving"
    assert table.loc["anchor", "direction"] == "up"
    assert table.loc["anchor", "difference"] > 0  # the stronger sniper makes more of the anchor
    assert table.loc["star", "verdict"] in ("settled", "undecided")
    assert table.loc["star", "p_equivalent"] < table.loc["anchor", "p_equivalent"]
    assert table.loc["star", "strongest"] == "sniper" and table.loc["star", "second"] == "brawler"
    assert (table["diff_low"] <= table["difference"]).all() and (
        table["difference"] <= table["diff_high"]
    ).all()
    line = convergence.convergence_line(table.reset_index())
    moving = line.split("still moving — ")[1].split(";")[0]
    assert "anchor" in moving and "star" not in moving
    # the trend over the two rated AIs goes the way the strengths go
    assert table.loc["anchor", "slope"] > 0 and table.loc["anchor", "trend_points"] == 2


def test_an_unvalidated_ai_gets_a_provisional_verdict_only(by_ai, tiers) -> None:
    """The verdict rests on the two strongest validated AIs (here two that play alike); the
    unvalidated sniper above them is compared with the strongest of them, provisionally."""
    plainer = by_ai[by_ai["group"] == "brawler"].assign(group="plainer")
    standings = {
        "brawler": _standing("brawler", 0.5),
        "plainer": _standing("plainer", 0.2),
        "sniper": _standing("sniper", 1.5, validated=False),
    }
    long = convergence.convergence_long(pd.concat([by_ai, plainer]), standings)
    table = convergence.convergence_table(long).set_index("term")
    assert (table["strongest"] == "brawler").all() and (table["second"] == "plainer").all()
    assert (table["verdict"] != "still moving").all()
    assert (table["provisional_ai"] == "sniper").all()
    assert table.loc["anchor", "provisional_verdict"] == "still moving"
    assert table.loc["star", "provisional_verdict"] != "still moving"
    assert "Provisionally, sniper" in convergence.convergence_line(table.reset_index())


def test_order_is_tier_then_rating_and_an_unrated_ai_tops_its_tier(tiers) -> None:
    standings = {"brawler": _standing("brawler", 2.0), "sniper": _standing("sniper", 1.0)}
    assert convergence.ai_order(["sniper", "fresh", "brawler", "floor"], standings) == [
        "floor",
        "brawler",
        "sniper",
        "fresh",
    ]


def test_the_baseline_tier_and_lopsided_matchups_are_left_out(by_ai, tiers, monkeypatch) -> None:
    renamed = by_ai.replace({"group": {"brawler": "floor"}})
    lopsided = by_ai[by_ai["group"] == "sniper"].assign(group="brawler vs sniper")
    long = convergence.convergence_long(pd.concat([renamed, lopsided]), {})
    assert set(long["ai"]) == {"sniper"}
    assert (convergence.convergence_table(long)["verdict"] == "one AI").all()


def test_the_plot_draws_every_character_against_rating_with_its_slope(by_ai, tiers) -> None:
    standings = {"brawler": _standing("brawler", 0.5), "sniper": _standing("sniper", 1.5)}
    long = convergence.convergence_long(by_ai, standings)
    fig = convergence.plot_convergence(long)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(labels) == long["term"].nunique()
    assert all("[" in label for label in labels)  # each figure's slope with its interval
    assert "rating" in ax.get_xlabel()


def test_an_unrated_ai_has_no_place_on_the_trend(by_ai, tiers) -> None:
    long = convergence.convergence_long(by_ai, {"brawler": _standing("brawler", 0.5)})
    table = convergence.convergence_table(long)
    assert (table["trend_points"] == 1).all() and table["slope"].isna().all()
    fig = convergence.plot_convergence(long)
    assert len(fig.axes[0].get_legend().get_texts()) == long["term"].nunique()


def test_convergence_is_a_mode_section_of_every_result_set() -> None:
    assert "convergence" in sections.known_sections()
    rs = sections.ResultSet(matches=pd.DataFrame({"ruleset": ["arena"], "match_id": [0]}))
    assert "convergence" in [s.name for s in sections.ruleset_sections(rs) if s.mode]


def test_the_section_shows_only_with_two_ais_above_the_baseline(by_ai, tiers) -> None:
    shown: list[str] = []

    class Doc:
        def __init__(self) -> None:
            self.blocks: list[object] = []

        def p(self, text: str, note: bool = False) -> None:
            self.blocks.append(text)

        def table(self, df: pd.DataFrame, caption: str = "") -> None:
            self.blocks.append(df)

        def image(self, name: str, fig: object, alt: str) -> None:
            self.blocks.append(name)

    def section(doc: Doc, title: str, build) -> None:  # type: ignore[no-untyped-def]
        shown.append(title)
        build()

    tables: dict[str, pd.DataFrame] = {"strength_by_ai": by_ai}
    doc = Doc()
    convergence.add_report_section(doc, None, tables, section)
    assert shown == ["Convergence over AI strength"]
    assert "convergence.png" in [b for b in doc.blocks if isinstance(b, str)]
    assert set(tables["convergence"]["verdict"]) <= {"settled", "still moving", "undecided"}
    one_ai = by_ai[by_ai["group"].isin(["pooled", "sniper"])]
    convergence.add_report_section(Doc(), None, {"strength_by_ai": one_ai}, section)
    assert shown == ["Convergence over AI strength"]


def test_the_run_is_judged_on_its_own_rulesets_ladder(by_ai, tiers, monkeypatch) -> None:
    """A Blast run ranks its AIs on Blast's ladder: on Arena's, every Blast AI is unrated and the
    two strongest would be picked by name."""
    asked: list[str] = []

    def ladder(ruleset: str = "arena") -> dict[str, LadderStanding]:
        asked.append(ruleset)
        return {}

    monkeypatch.setattr(answers, "verdict_ruleset", lambda rs: "blast")
    monkeypatch.setattr(convergence, "load_ladder", ladder)
    convergence.add_report_section(None, object(), {"strength_by_ai": by_ai}, lambda doc, title, build: None)
    assert asked == ["blast"]
