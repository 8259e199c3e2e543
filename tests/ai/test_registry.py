"""The AI registry: each AI states the rulesets it plays (``AI.rulesets``), the registry lists AIs
by that declaration, and an AI asked to play another ruleset is one clear error naming both."""

from __future__ import annotations

from collections.abc import Iterator
from inspect import isclass

import numpy as np
import pytest

from krosbalance.ai import registry
from krosbalance.ai.base import AI
from krosbalance.ai.random_ai import RandomAI
from krosbalance.ai.registry import ai_problem, ai_rulesets, get_ai, list_ais, register_ai
from krosbalance.content.registry import list_boards, list_characters
from krosbalance.errors import ContentError
from krosbalance.play import deal_teams, pick_board, play_match
from krosbalance.rulesets.registry import list_rulesets
from krosbalance.tools.builds import box_splits


@pytest.fixture
def user_ais() -> Iterator[list[str]]:
    """Names registered by a test, taken out of the registry afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        for table in (registry._AIS, registry._TIER_OF, registry._RULESETS_OF):
            table.pop(name, None)


def test_the_registry_reads_each_ai_class_declaration() -> None:
    classes = {name: get_ai(name) for name in list_ais() if isclass(get_ai(name))}
    assert classes
    for name, cls in classes.items():
        assert ai_rulesets(name) == cls.rulesets, name


def test_list_ais_of_a_ruleset_is_the_ais_declaring_it() -> None:
    for ruleset in list_rulesets():
        assert list_ais(ruleset) == [name for name in list_ais() if ruleset in ai_rulesets(name)]
    assert set(RandomAI.rulesets) == set(list_rulesets())  # the random AI answers every ruleset
    assert "random" in list_ais("arena") and "random" in list_ais("blast")
    assert not set(list_ais("blast")) - {"random"} & set(list_ais("arena"))


def test_register_ai_takes_the_declaration_of_the_class_or_the_argument(user_ais: list[str]) -> None:
    class DuelAI(RandomAI):
        rulesets = ("checkers",)

    def factory(rng: np.random.Generator) -> AI:
        return RandomAI(rng)

    user_ais.extend(["duelist", "told", "plain"])
    register_ai("duelist", DuelAI)
    register_ai("told", factory, rulesets=("blast",))
    register_ai("plain", factory)  # a function that says nothing: the base AI's declaration
    assert ai_rulesets("duelist") == ("checkers",) and list_ais("checkers") == ["duelist"]
    assert ai_rulesets("told") == ("blast",) and "told" in list_ais("blast")
    assert ai_rulesets("plain") == AI.rulesets == ("arena",)
    with pytest.raises(ContentError, match="tuple of ruleset names"):
        register_ai("bad", factory, rulesets="arena")  # type: ignore[arg-type]


def test_the_mismatch_is_one_message_naming_the_ai_and_the_ruleset() -> None:
    message = ai_problem("blast_glyph", "arena")
    assert message == (
        "AI 'blast_glyph' does not play ruleset 'arena'; it plays: blast. "
        f"AIs for arena: {', '.join(list_ais('arena'))}"
    )
    assert ai_problem("blast_glyph", "blast") == "" and ai_problem("random", "arena") == ""
    assert ai_problem("nope", "arena").startswith("unknown AI 'nope'; known: ")
    with pytest.raises(ContentError) as info:
        get_ai("blast_glyph", "arena")
    assert str(info.value) == f"AI registry: ai: {message}"
    assert get_ai("blast_glyph") is get_ai("blast_glyph", "blast")


@pytest.mark.parametrize("ai", ["blast_glyph", ("random", "blast_glyph"), ("blast_glyph", "kiter")])
def test_play_match_refuses_an_ai_of_another_ruleset(ai: str | tuple[str, str]) -> None:
    team0, team1 = box_splits()[0]
    with pytest.raises(ContentError) as info:
        play_match(team0, team1, ai=ai)
    assert "AI 'blast_glyph' does not play ruleset 'arena'; it plays: blast" in str(info.value)


def test_the_pregame_refuses_an_ai_of_another_ruleset() -> None:
    blast = list_characters("krosmaster", game="blast")
    with pytest.raises(ContentError, match="AI 'kiter' does not play ruleset 'blast'"):
        deal_teams("random_deal", blast, ("kiter", "random"), 1, ruleset="blast")
    team0, team1 = box_splits()[0]
    boards = list_boards("arena")[:2]
    with pytest.raises(ContentError, match="AI 'blast_brawler' does not play ruleset 'arena'"):
        pick_board(boards, team0, team1, ai=("blast_brawler", "random"), seed=1)
