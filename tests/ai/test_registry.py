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
from krosbalance.ai.registry import ai_problem, ai_rulesets, ai_tier, get_ai, list_ais, register_ai
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
    message = ai_problem("blast_glyph", "arena")  # a former id is read as today's (blast-glyph)
    assert message == (
        "AI 'blast-glyph' does not play ruleset 'arena'; it plays: blast. "
        f"AIs for arena: {', '.join(list_ais('arena'))}"
    )
    assert ai_problem("blast-glyph", "blast") == "" and ai_problem("random", "arena") == ""
    assert ai_problem("nope", "arena").startswith("unknown AI 'nope'; known: ")
    with pytest.raises(ContentError) as info:
        get_ai("blast-glyph", "arena")
    assert str(info.value) == f"AI registry: ai: {message}"
    assert get_ai("blast-glyph") is get_ai("blast-glyph", "blast")


@pytest.mark.parametrize("ai", ["blast-glyph", ("random", "blast-glyph"), ("blast-glyph", "kiter")])
def test_play_match_refuses_an_ai_of_another_ruleset(ai: str | tuple[str, str]) -> None:
    team0, team1 = box_splits()[0]
    with pytest.raises(ContentError) as info:
        play_match(team0, team1, ai=ai)
    assert "AI 'blast-glyph' does not play ruleset 'arena'; it plays: blast" in str(info.value)


def test_the_pregame_refuses_an_ai_of_another_ruleset() -> None:
    blast = list_characters("krosmaster", game="blast")
    with pytest.raises(ContentError, match="AI 'kiter' does not play ruleset 'blast'"):
        deal_teams("random_deal", blast, ("kiter", "random"), 1, ruleset="blast")
    team0, team1 = box_splits()[0]
    boards = list_boards("arena")[:2]
    with pytest.raises(ContentError, match="AI 'blast-brawler' does not play ruleset 'arena'"):
        pick_board(boards, team0, team1, ai=("blast-brawler", "random"), seed=1)


def test_ai_ids_are_kebab_case_and_former_ids_still_read() -> None:
    from krosbalance.ai.registry import canonical_ai, core_ai_id, former_ids

    assert all(name == name.lower() and "_" not in name for name in list_ais())
    for old, new in former_ids().items():
        assert new in list_ais() and canonical_ai(old) == new and core_ai_id(new) == old
        assert ai_tier(old) == ai_tier(new) and get_ai(old) is get_ai(new)
    assert canonical_ai("no-such-ai") == "no-such-ai"  # left for the error that names it


def test_an_unknown_ai_gets_the_near_names() -> None:
    name = list_ais()[0]
    assert f"did you mean {name!r}" in ai_problem(name + "x")
