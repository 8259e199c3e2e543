"""The AI ladder's order is one rule: the AI a run plays to its target (``sim.target``) is the AI whose
figures the report gives as the answer (``analysis.top_ai``), for any set of AIs a run may hold. The
AIs are the registry's, never named here."""

from __future__ import annotations

import itertools

from krosbalance.ai.ladder import load_ladder
from krosbalance.ai.ladder_order import strength_order, validated_for
from krosbalance.ai.registry import list_ais
from krosbalance.analysis.top_ai import top_ais
from krosbalance.sim.target import strongest_ai


def test_the_target_plays_the_ai_that_answers_for_every_pair_and_triple_of_arena_ais() -> None:
    ais = list_ais("arena")
    standings = load_ladder()
    for size in (2, 3):
        for group in itertools.islice(itertools.combinations(ais, size), 400):
            answer = top_ais(group, "arena", standings)
            assert answer is not None
            assert strongest_ai(group, "arena") == (answer.top, ""), group


def test_a_validated_ai_comes_before_every_ai_the_ladder_did_not_validate() -> None:
    standings = load_ladder()
    order = strength_order(list_ais("arena"), "arena", standings)
    flags = [validated_for(ai, "arena", standings) for ai in order]
    assert flags == sorted(flags, reverse=True)
    assert any(flags), "the shipped ladder validates at least one AI"


def test_no_ai_is_validated_for_a_ruleset_the_ladder_was_not_played_in() -> None:
    standings = load_ladder()
    assert not any(validated_for(ai, "blast", standings) for ai in list_ais())


def test_a_standing_validates_an_ai_for_its_own_ruleset_only() -> None:
    from krosbalance.ai.ladder import load_ladders
    from krosbalance.ai.ladder_order import LADDER_RULESETS

    assert set(LADDER_RULESETS) == set(load_ladders())
    duel, arena = load_ladder(ruleset="duel"), load_ladder()
    assert validated_for("duel-lookahead", "duel", duel)
    assert strength_order(list_ais("duel"), "duel", duel)[0] == "duel-lookahead"
    blast = load_ladder(ruleset="blast")
    assert validated_for("blast-lookahead", "blast", blast)
    assert strength_order(list_ais("blast"), "blast", blast)[0] == "blast-lookahead"
    assert not validated_for("blast-lookahead", "duel", blast) and not validated_for("random", "blast", duel)
    assert not validated_for("random", "duel", arena) and not validated_for("random", "arena", duel)


def test_a_four_seat_arena_run_is_judged_by_four_player_arenas_ladder() -> None:
    from krosbalance.ai.ladder_order import FOUR_PLAYER_LADDER, ladder_ruleset

    assert ladder_ruleset("arena", 4) == FOUR_PLAYER_LADDER == "arena-4p"
    assert ladder_ruleset("arena[mode=two_vs_two]", 4) == "arena-4p"
    assert ladder_ruleset("arena", 2) == "arena" and ladder_ruleset("duel", 2) == "duel"
    four = load_ladder(ruleset="arena-4p")
    assert validated_for("lookahead-4p", "arena-4p", four)
    assert not validated_for("lookahead-4p", "arena", load_ladder())  # not rated for two players
    assert strength_order(["kiter-2", "lookahead-4p", "random"], "arena-4p", four)[0] == "lookahead-4p"
