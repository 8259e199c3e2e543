"""R-B40-R-B43: Divine Challenges, tier by tier, with the two cards the rulebook prints."""

from __future__ import annotations

import pytest

from krosbalance.engine.dice import LOCK
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.blast.actions import USE_BONUS
from krosbalance.testing.blast import BlastScenario

IOP = "grande_melee_de_iop"
ENI = "monde_merveilleux_d_eniripsa"
GLYPHS = "G G G G G G\n. . . . . .\n. . . . . .\n. . . . . ."


def iop(owned: int, **kw: object) -> tuple[BlastScenario, object, object]:
    sc = BlastScenario(GLYPHS, challenges=[IOP], options={"tackle_zone": False}, **kw)  # type: ignore[arg-type]
    gege = sc.add("gege_ronimo", side=0, at=(0, 1))
    sam = sc.add("sam_sram", side=1, at=(3, 1))
    sc.own(0, *[(x, 0) for x in range(1, 1 + owned)])
    sc.activate(gege)
    return sc, gege, sam


def test_r_b41_baaaston_needs_a_glyph_before_the_capture() -> None:
    """The rulebook's example: with a glyph already controlled, each capture gives +1 this turn."""
    sc, gege, _ = iop(0)
    sc.move(gege, (0, 0))  # the first glyph: no Baaaston! yet
    assert gege.ap == 2
    sc2, gege2, _ = iop(1)
    sc2.move(gege2, (0, 0))
    assert gege2.ap == 3


def test_r_b41_force_decuplee_from_three_glyphs() -> None:
    for owned, wounds in ((2, 2), (3, 3)):
        sc, gege, sam = iop(owned, dice=[LOCK])
        sc.cast(gege, "pression", (3, 1))
        assert sam.injuries == wounds


def test_r_b43_colere_de_iop_at_five_glyphs_hits_every_combatant_at_one_or_two() -> None:
    sc, gege, sam = iop(4)
    assert not sc.can(gege, sc.bonus_action("colere_de_iop"))
    sc.own(0, (5, 0))
    ally = sc.add("arielle_fleche", side=0, at=(1, 2))
    far = sc.add("doc_teurmot", side=1, at=(4, 3))
    sc.do(gege, sc.bonus_action("colere_de_iop"))
    assert gege.ap == 1
    assert (ally.injuries, sam.injuries, far.injuries) == (2, 0, 0)  # allies too ('tous'); 3+ cells: no
    assert not sc.can(gege, sc.bonus_action("colere_de_iop"))  # once per turn per Krosmaster


def test_r_b43_invocations_cannot_use_active_bonuses() -> None:
    sc = BlastScenario(GLYPHS, challenges=[ENI])
    martine = sc.add("martine_gale", side=0, at=(0, 1))
    pupuce = sc.add("pupuce", side=0, at=(1, 1), summoner=martine)
    sc.add("gege_ronimo", side=1, at=(5, 3))
    sc.own(0, (0, 0), (1, 0), (2, 0))
    sc.activate(pupuce)
    assert not sc.can(pupuce, sc.bonus_action("invasion_de_lapinos", (1, 2)))


def test_r_b41_glyphe_de_soin_heals_on_capture() -> None:
    sc = BlastScenario(GLYPHS, challenges=[ENI], options={"tackle_zone": False})
    sam = sc.add("sam_sram", side=0, at=(0, 1), injuries=5)
    sc.add("gege_ronimo", side=1, at=(5, 3))
    sc.own(0, (1, 0))
    sc.activate(sam)
    sc.move(sam, (0, 0))
    assert sam.injuries == 3


@pytest.mark.parametrize(("reading", "invasion", "amitie"), [("printed", 3, 5), ("alternative", 5, 3)])
def test_r_b41_eniripsa_tiers_follow_the_tier_reading(reading: str, invasion: int, amitie: int) -> None:
    sc = BlastScenario(
        GLYPHS, challenges=[ENI], options={"challenge_tier_reading": reading, "tackle_zone": False}
    )
    sam = sc.add("sam_sram", side=0, at=(0, 1))
    arielle = sc.add("arielle_fleche", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(5, 3))
    sc.own(0, *[(x, 0) for x in range(3)])
    sc.activate(sam)
    assert sc.can(sam, sc.bonus_action("invasion_de_lapinos", (0, 2))) == (invasion == 3)
    sc.end_turn()  # next to Arielle: Amitie at 3 glyphs only under the alternative reading
    assert (sam.plus_mp, sam.plus_ap) == ((1, 1) if amitie == 3 else (0, 0))
    sc.own(0, (3, 0), (4, 0))
    sc.activate(arielle)
    sc.use_bonus(arielle, "invasion_de_lapinos", (1, 2))
    assert sc.at((1, 2)) is not None and sc.at((1, 2)).spec.id == "lapino"  # type: ignore[union-attr]


def test_r_b41_amitie_markers_act_during_the_next_activation() -> None:
    sc = BlastScenario(GLYPHS, challenges=[ENI], options={"tackle_zone": False})
    sam = sc.add("sam_sram", side=0, at=(0, 1))
    sc.add("arielle_fleche", side=0, at=(1, 1))
    sc.add("gege_ronimo", side=1, at=(5, 3))
    sc.own(0, *[(x, 0) for x in range(5)])
    sc.activate(sam)
    sc.end_turn()
    sc.new_turn(1)
    sc.new_turn(0)
    sc.activate(sam)
    assert (sam.mp, sam.ap) == (5, 3)
    sc.end_turn()
    assert (sam.plus_mp, sam.plus_ap) == (1, 1)  # given again: still next to Arielle


def test_r_b41_tiers_are_cumulative_and_counted_for_the_study() -> None:
    sc, gege, _ = iop(4)
    sc.move(gege, (0, 0))  # 5 glyphs: tiers 1, 3 and 5 all on, Baaaston! acts
    assert sc.glyph_count(0) == 5 and sc.bs.peak[0] == 5
    assert sc.bs.tier_turn[0] == [2, 2, 2]  # first reached in game turn 2
    assert sc.bs.bonus_uses[0][0] == 1  # Baaaston! acted once


@pytest.mark.parametrize(
    "challenge",
    ["oeil_de_cra", "ombres_de_sram", "jardin_de_sadida", "horloge_de_xelor", "chance_d_ecaflip"],
)
def test_assumed_challenges_bonuses_unlock_at_their_tier(challenge: str) -> None:
    """Every active bonus of an assumed card is usable exactly from its tier on."""
    sc = BlastScenario(GLYPHS, challenges=[challenge], options={"tackle_zone": False})
    sam = sc.add("sam_sram", side=0, at=(2, 2))
    sc.add("gege_ronimo", side=1, at=(2, 3))
    sc.activate(sam)
    for glyphs in range(6):
        sc.bs.owned[0] = 0
        sc.own(0, *[(x, 0) for x in range(glyphs)])
        usable = {
            sc.bs.bonuses[a.spell % 1024].id
            for a in MatchView(sc.state, 0).legal_actions()
            if a.kind == USE_BONUS
        }
        expected = {
            b.id for i, b in enumerate(sc.bs.bonuses) if b.kind == "active" and sc.bs.tiers[i] <= glyphs
        }
        assert usable == expected, glyphs


def test_r_b42_a_start_of_activation_passive_acts_at_once() -> None:
    """Maitrise du temps (assumed card, tier 5): allied Krosmasters start each activation with +1 AP."""
    for owned, ap in ((4, 2), (5, 3)):
        sc = BlastScenario(GLYPHS, challenges=["horloge_de_xelor"], options={"tackle_zone": False})
        sam = sc.add("sam_sram", side=0, at=(0, 1))
        sc.add("gege_ronimo", side=1, at=(5, 3))
        sc.own(0, *[(x, 0) for x in range(owned)])
        sc.activate(sam)
        assert sam.ap == ap


def test_r_b42_a_range_passive_follows_the_glyph_count() -> None:
    """Vue percante (assumed card, tier 1): +1 max range while the player holds a glyph cell; the
    capture that reaches the tier switches it on during the activation."""
    sc = BlastScenario("G . . . . .\n. . . . . .", challenges=["oeil_de_cra"], options={"tackle_zone": False})
    martine = sc.add("martine_gale", side=0, at=(1, 0))
    sc.add("gege_ronimo", side=1, at=(5, 0))
    sc.activate(martine)
    assert not sc.can_cast(martine, "roulette_de_chat", (5, 0))  # range 2-3, the target at 4
    sc.move(martine, (0, 0))  # the first glyph: tier 1
    sc.move(martine, (1, 0))
    assert sc.can_cast(martine, "roulette_de_chat", (5, 0))


def test_r_b41_a_patched_tier_threshold_moves_the_bonus() -> None:
    """``challenge_tiers`` (a balance patch's [challenges.X]): Force décuplée needs 2 glyph cells
    instead of the printed 3, or 4."""
    for tiers, owned, wounds in (({f"{IOP}.force_decuplee": 2}, 2, 3), ({f"{IOP}.force_decuplee": 4}, 3, 2)):
        sc = BlastScenario(
            GLYPHS, challenges=[IOP], options={"tackle_zone": False, "challenge_tiers": tiers}, dice=[LOCK]
        )
        gege = sc.add("gege_ronimo", side=0, at=(0, 1))
        sam = sc.add("sam_sram", side=1, at=(3, 1))
        sc.own(0, *[(x, 0) for x in range(1, 1 + owned)])
        sc.activate(gege)
        sc.cast(gege, "pression", (3, 1))
        assert sam.injuries == wounds


@pytest.mark.parametrize(
    ("tiers", "words"),
    [
        ({"grande_melee_de_iop.nope": 2}, "not a '<challenge id>.<bonus id>'"),
        ({"nope.force_decuplee": 2}, "not a '<challenge id>.<bonus id>'"),
        ({"grande_melee_de_iop.force_decuplee": 9}, "must be 1 to 8 glyph cells"),
    ],
)
def test_a_bad_challenge_tier_option_is_one_clear_line(tiers: dict[str, int], words: str) -> None:
    from krosbalance.errors import ContentError
    from krosbalance.rulesets.registry import get_ruleset

    with pytest.raises(ContentError) as info:
        get_ruleset("blast", {"challenge_tiers": tiers})
    assert info.value.field.startswith("challenge_tiers.") and words in info.value.reason
