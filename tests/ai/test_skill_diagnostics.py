"""The skill diagnostics (krosbalance.ai.skill_diagnostics): counts read from an event log, and a
head-to-head that plays and scores paired matches."""

from __future__ import annotations

from krosbalance.ai.skill_diagnostics import SkillCounts, count_skills, escape_spell_holders, versus
from krosbalance.content.registry import all_characters
from krosbalance.engine.events import CharacterTurnStarted, KnockedOut, LockRolled, SpellCast
from krosbalance.rulesets.arena.events import GGChanged


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
    bought, rolls, last_buyer = count_skills(events, escape_spell_holders())
    assert (bought, rolls, last_buyer) == (1, 1, 1)
    counts = SkillCounts("x")
    counts.add(events, 1, escape_spell_holders())
    counts.add(events[:7], 0, escape_spell_holders())
    row = counts.row()
    assert row["matches"] == 2 and row["won_by_purchase"] == 0.5 and row["gg_bought"] == 0.5


def test_versus_plays_every_deal_from_both_seats_with_both_ai_orders():
    result, counts = versus("kiter", "random", deals=1, seed=3)
    assert result.wins + result.losses + result.draws == 4 == counts.matches
    low, high = result.ci()
    assert 0.0 <= low <= result.wins / max(1, result.n) <= high <= 1.0
    assert "kiter vs random" in result.line()
