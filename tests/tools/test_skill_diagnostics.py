"""The skill diagnostics (krosbalance.tools.skill_diagnostics): counts read from an event log, and a
head-to-head that plays and scores paired matches."""

from __future__ import annotations

from krosbalance.content.registry import all_characters
from krosbalance.engine.events import CharacterTurnStarted, KnockedOut, LockRolled, SpellCast
from krosbalance.rulesets.arena.events import GGChanged
from krosbalance.tools.skill_diagnostics import SkillCounts, count_skills, escape_spell_holders, versus


def _escaper() -> str:
    return next(
        spec.name
        for spec in all_characters()
        if any(e.kind == "retreat" for s in spec.spells for e in s.effects)
    )


def test_escape_spell_holders_are_the_characters_with_a_retreat():
    assert _escaper() in escape_spell_holders()
    assert all(isinstance(name, str) for name in escape_spell_holders())


def test_count_skills_tells_purchases_from_ko_gains_and_rolls_with_an_escape_in_hand():
    runner = _escaper()
    events = [
        CharacterTurnStarted(1, 0, runner, 3, 6),
        LockRolled(1, 0, 5, 1, 0, True),  # walked out first: counted
        CharacterTurnStarted(1, 1, runner, 3, 6),
        SpellCast(1, 1, "retreat_shot", 9),
        LockRolled(1, 1, 5, 0, 0, False),  # cast first: not counted
        KnockedOut(1, 5, 1),
        GGChanged(1, 0, 3, "wild", (5, 3)),  # the KO's GG
        CharacterTurnStarted(2, 7, "Nobody In Particular", 3, 6),
        GGChanged(2, 1, 1, "opponent", (4, 4)),  # a purchase, the last GG change
    ]
    sides = {0: 0, 1: 1, 5: 1, 7: 1}
    bought, rolls, last_buyer = count_skills(events, escape_spell_holders(), sides)
    assert (bought, rolls, last_buyer) == ([0, 1], [1, 0], 1)
    whole = SkillCounts("self-play")
    whole.add(events, 1, escape_spell_holders(), sides)
    whole.add(events[:7], 0, escape_spell_holders(), sides)
    row = whole.row()
    assert row["matches"] == 2 and row["won_by_purchase"] == row["lost_to_purchase"] == 0.5
    assert row["gg_bought"] == 0.5 and row["rolls_with_escape"] == 1.0
    seat0 = SkillCounts("seat 0")
    seat0.add(events, 1, escape_spell_holders(), sides, seat=0)
    assert seat0.row()["lost_to_purchase"] == 1.0 and seat0.row()["won_by_purchase"] == 0.0
    assert seat0.gg_bought == 0 and seat0.rolls_with_escape == 1


def test_versus_plays_every_deal_from_both_seats_with_both_ai_orders():
    result, counts = versus("kiter", "random", deals=1, seed=3)
    assert result.wins + result.losses + result.draws == 4 == counts[0].matches == counts[1].matches
    assert counts[0].ai == "kiter" and counts[1].ai == "random"
    low, high = result.ci()
    assert 0.0 <= low <= result.wins / max(1, result.n) <= high <= 1.0
    assert "kiter vs random" in result.line()
