"""The AI whose figures answer: the strongest validated for the ruleset that played, then the next
one down that also played."""

from __future__ import annotations

from krosbalance.ai.ladder import LadderStanding
from krosbalance.analysis import top_ai

TIERS = {"floor": "baseline", "low": "heuristic", "mid": "heuristic", "deep": "search", "fresh": "search"}


def standing(ai: str, rating: float, validated: bool = True) -> LadderStanding:
    return LadderStanding(ai, TIERS[ai], rating, rating - 0.1, rating + 0.1, 100, validated)


STANDINGS = {
    "floor": standing("floor", -2.0),
    "low": standing("low", 0.1),
    "mid": standing("mid", 0.3),
    "deep": standing("deep", 1.5),
    "fresh": standing("fresh", 2.5, validated=False),
}


def test_the_strongest_validated_ai_played_answers_and_the_next_one_down_that_played_beside_it() -> None:
    top = top_ai.top_ais(["low", "floor", "deep", "fresh"], "arena", STANDINGS, TIERS)
    assert top is not None
    assert (top.top, top.second) == ("deep", "low")  # the unvalidated one ranks below every validated AI
    assert top.top_validated and top.second_validated
    assert top.order == ("deep", "low", "floor", "fresh")
    assert top_ai.top_ais(["low", "mid"], "arena", STANDINGS, TIERS).top == "mid"  # the rating within a tier


def test_only_the_ais_that_played_count() -> None:
    top = top_ai.top_ais(["low", "floor"], "arena", STANDINGS, TIERS)
    assert top is not None and (top.top, top.second) == ("low", "floor")
    alone = top_ai.top_ais(["mid"], "arena", STANDINGS, TIERS)
    assert alone is not None and alone.one_ai and alone.second == ""
    assert top_ai.top_ais([], "arena", STANDINGS, TIERS) is None


def test_a_ladder_validates_its_own_ruleset_only() -> None:
    """The ladder is Arena's: in Blast nothing is validated, the ladder's order still ranks them."""
    top = top_ai.top_ais(["low", "deep", "floor"], "blast", STANDINGS, TIERS)
    assert top is not None and top.top == "deep" and not top.top_validated
    assert "not validated for blast" in top_ai.ai_note(top)
    assert "strongest validated" in top_ai.ai_note(top_ai.top_ais(["deep"], "arena", STANDINGS, TIERS))


def test_an_ai_off_the_ladder_stands_at_the_top_of_its_tier_unvalidated() -> None:
    assert top_ai.ladder_key("new", STANDINGS, "heuristic") > top_ai.ladder_key("mid", STANDINGS, "heuristic")
    top = top_ai.top_ais(["new", "mid"], "arena", STANDINGS, {"new": "heuristic", **TIERS})
    assert top is not None and top.top == "mid" and top.second == "new"


def test_the_ruleset_of_a_run_is_its_most_played_one() -> None:
    import pandas as pd

    assert top_ai.run_ruleset(pd.DataFrame({"ruleset": ["blast", "blast", "arena"]})) == "blast"
    assert top_ai.run_ruleset(pd.DataFrame({"winner": [0]})) == "arena"


def test_a_rulesets_options_do_not_hide_it() -> None:
    """Results rows write the ruleset with its options: still Arena, still validated."""
    top = top_ai.top_ais(["low", "deep"], "arena[purchasable_rewards=[['x'], []]]", STANDINGS, TIERS)
    assert top is not None and top.top_validated and top.ruleset == "arena"
    import pandas as pd

    assert top_ai.run_ruleset(pd.DataFrame({"ruleset": ["blast[challenges=['y']]"]})) == "blast"
