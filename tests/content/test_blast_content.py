"""Krosmaster Blast cards as data: the box is complete, known cards say what the rulebook says, every
assumed card is labelled, and a broken file gets one clear message naming file, field and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.content.blast import (
    BLAST_CHARACTERS,
    BLAST_DATA,
    BlastCards,
    load_challenge_file,
    load_favor_file,
)
from krosbalance.content.blast_keywords import BONUS_EFFECT_KEYWORDS, PASSIVE_KEYWORDS
from krosbalance.content.registry import Registry
from krosbalance.errors import ContentError

REGISTRY = Registry(BLAST_CHARACTERS)


def blast_cards() -> BlastCards:
    return BlastCards(BLAST_DATA, REGISTRY.list_characters("creature", game="blast"))


def test_r_b1_the_box_is_complete() -> None:
    """R-B1: 6 Krosmasters, 9 Invocation cards, 10 basic and 4 superior favors, 7 Divine Challenges."""
    assert len(REGISTRY.list_characters("krosmaster", game="blast")) == 6
    assert len(REGISTRY.list_characters("creature", game="blast")) == 9
    cards = blast_cards()
    assert len(cards.favors("basic")) == 10
    assert len(cards.favors("superior")) == 4
    assert len(cards.challenges()) == 7
    assert all(spec.game == "blast" for spec in REGISTRY.all_characters())


def test_r_b23_every_blast_spell_costs_one_ap() -> None:
    for spec in REGISTRY.all_characters():
        assert (spec.level, spec.initiative, spec.colour) == (0, 0, "none")
        for spell in spec.spells:
            assert (spell.ap_cost, spell.mp_cost, spell.injury_cost) == (1, 0, 0), (spec.id, spell.id)


def test_known_cards_say_what_the_rulebook_says() -> None:
    gege = REGISTRY.load_character("Gégé Ronimo")
    assert (gege.mp, gege.hp, gege.ap) == (2, 16, 2)
    pression, bond = gege.spell("pression"), gege.spell("bond_imprudent")
    assert (pression.range_min, pression.range_max, pression.amount) == (3, 3, 2)
    assert (bond.range_min, bond.range_max, bond.limit) == (1, 1, "turn")
    assert [e.kind for e in bond.effects] == ["move_to_target"]
    assert [p.kind for p in gege.powers] == ["capture_marker"]  # Territorial
    sac = REGISTRY.load_character("Martine Gale").spell("sac_a_puce")
    assert (sac.summons, sac.summon_control, sac.limit) == ("pupuce", 1, "turn")
    lapino = REGISTRY.load_character("Lapino")
    assert (lapino.mp, lapino.hp, lapino.ap) == (5, 1, 1)
    assert lapino.spell("grignotage").amount == 1
    cards = blast_cards()
    assert cards.favor("Brasier").action.effects[0].params == {"amount": 1}
    terrains = {cards.favor(n).action.effects[0].params["terrain"] for n in ("Vague de froid", "Brasero")}
    assert terrains == {"ice", "fire"}
    assert cards.favor("Nappe de brouillard").grade == "superior"  # the first game has no Fog tiles
    iop = cards.challenge("Grande Mêlée de Iop")
    assert [(b.id, b.tier, b.kind) for b in iop.bonuses] == [
        ("baaaston", 1, "passive"),
        ("force_decuplee", 3, "passive"),
        ("colere_de_iop", 5, "active"),
    ]
    eni = cards.challenge("Monde merveilleux d'Eniripsa")
    assert {b.id: (b.tier_for("printed"), b.tier_for("alternative")) for b in eni.bonuses} == {
        "glyphe_de_soin": (1, 1),
        "invasion_de_lapinos": (3, 5),
        "amitie": (5, 3),
    }


def test_every_card_says_how_much_is_known() -> None:
    cards = blast_cards()
    for card in [*cards.favors(), *cards.challenges()]:
        assert card.status in ("known", "partial", "assumed")
        if card.status != "known":
            assert "assumed" in card.source or "partial" in card.source or "ambiguous" in card.source
    for spec in REGISTRY.all_characters():
        note = spec.source.get("card", "")
        assert note.startswith(("assumed", "partial")), spec.id


def test_every_keyword_the_cards_use_is_in_the_vocabulary() -> None:
    cards = blast_cards()
    for favor in cards.favors():
        assert {e.kind for e in favor.action.effects} <= set(BONUS_EFFECT_KEYWORDS)
    for challenge in cards.challenges():
        for bonus in challenge.bonuses:
            if bonus.passive is not None:
                assert bonus.passive.kind in PASSIVE_KEYWORDS
            else:
                assert bonus.action is not None
                assert {e.kind for e in bonus.action.effects} <= set(BONUS_EFFECT_KEYWORDS)


FAVOR = """\
[[favors]]
id = "test_favor"
name = "Test Favor"
grade = "basic"
status = "assumed"
text = "..."
source = "assumed: test"
target = "enemy"
range_min = 1
range_max = 2

[[favors.effects]]
kind = "push_target"
cells = 2
"""

CHALLENGE = """\
[[challenges]]
id = "test_challenge"
name = "Test Challenge"
god = "Test"
status = "assumed"
source = "assumed: test"

[[challenges.bonuses]]
id = "one"
name = "One"
tier = 1
kind = "passive"
text = "..."
source = "assumed"
passive = { kind = "capture_heal", amount = 2 }

[[challenges.bonuses]]
id = "three"
name = "Three"
tier = 3
kind = "active"
text = "..."
source = "assumed"
target = "none"

[[challenges.bonuses.effects]]
kind = "damage_around"
amount = 2
reach = 2
allies = true

[[challenges.bonuses]]
id = "five"
name = "Five"
tier = 5
kind = "passive"
text = "..."
source = "assumed"
passive = { kind = "spell_damage_bonus", amount = 1 }
"""


def test_good_test_files_load(tmp_path: Path) -> None:
    (tmp_path / "f.toml").write_text(FAVOR)
    (tmp_path / "c.toml").write_text(CHALLENGE)
    assert load_favor_file(tmp_path / "f.toml")[0].action.range_max == 2
    assert [b.tier for b in load_challenge_file(tmp_path / "c.toml")[0].bonuses] == [1, 3, 5]


@pytest.mark.parametrize(
    ("text", "old", "new", "field", "reason"),
    [
        (FAVOR, 'grade = "basic"', 'grade = "epic"', "favors[0].grade", "allowed values"),
        (
            FAVOR,
            'kind = "push_target"',
            'kind = "shove"',
            "favors[0].effects[0].kind",
            "unknown bonus effect",
        ),
        (FAVOR, "cells = 2", "cells = 0", "favors[0].effects[0].cells", "positive"),
        (FAVOR, 'target = "enemy"', 'target = "ally"', "favors[0].target", "allowed values"),
        (FAVOR, "range_min = 1", "range_min = 3", "favors[0].range_max", "range_min 3 > range_max 2"),
        (FAVOR, 'text = "..."', 'txt = "..."', "favors[0].text", "missing required"),
        (CHALLENGE, "tier = 3", "tier = 2", "challenges[0].bonuses[1].tier", "1, 3 or 5"),
        (CHALLENGE, "tier = 5", "tier = 3", "challenges[0].bonuses", "one bonus per tier"),
        (
            CHALLENGE,
            'kind = "capture_heal"',
            'kind = "heal_all"',
            "challenges[0].bonuses[0].passive.kind",
            "unknown passive",
        ),
        (CHALLENGE, "allies = true", "allies = 1", "challenges[0].bonuses[1].effects[0].allies", "boolean"),
        (CHALLENGE, 'status = "assumed"', 'status = "guessed"', "challenges[0].status", "allowed values"),
    ],
)
def test_errors_name_file_field_and_reason(
    tmp_path: Path, text: str, old: str, new: str, field: str, reason: str
) -> None:
    assert old in text
    path = tmp_path / "card.toml"
    path.write_text(text.replace(old, new, 1))
    loader = load_favor_file if text is FAVOR else load_challenge_file
    with pytest.raises(ContentError) as info:
        loader(path)
    assert info.value.file == str(path)
    assert info.value.field == field
    assert reason in str(info.value)


def test_a_bonus_summoning_an_unknown_invocation_is_refused(tmp_path: Path) -> None:
    for kind in ("favors", "challenges"):
        (tmp_path / kind).mkdir()
    (tmp_path / "challenges" / "c.toml").write_text(CHALLENGE)
    (tmp_path / "favors" / "f.toml").write_text(
        FAVOR.replace('kind = "push_target"\ncells = 2', 'kind = "summon"\nsummon = "gremlin"\nmax = 1')
    )
    with pytest.raises(ContentError) as info:
        BlastCards(tmp_path, ["lapino"]).favors()
    assert info.value.field == "favors[0].effects[0].summon"
    assert "gremlin" in str(info.value)


def test_blast_card_rules_in_the_character_loader(tmp_path: Path) -> None:
    """R-B23, R-B50: a Blast card has no level and its spells cost exactly 1 AP."""
    good = (BLAST_CHARACTERS / "lapino.toml").read_text()
    folder = tmp_path / "chars"
    folder.mkdir()
    for old, new, field in (
        ("ap_cost = 1", "ap_cost = 2", "characters[0].spells[0].ap_cost"),
        ('game = "blast"', 'game = "blast"\nlevel = 1', "characters[0].level"),
        ('game = "blast"', 'game = "duel"', "characters[0].game"),
    ):
        (folder / "lapino.toml").write_text(good.replace(old, new, 1))
        with pytest.raises(ContentError) as info:
            Registry(folder).all_characters()
        assert info.value.field == field
