"""``krosbalance list rewards|favors|challenges`` and ``krosbalance show NAME``: every card of the
registries, printed with its values, spells and each value's source and confidence."""

from __future__ import annotations

import pytest

from krosbalance import cards
from krosbalance.ai.registry import ai_rulesets, ai_tier, list_ais
from krosbalance.cli import main
from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import all_rewards, list_boards, list_characters, load_character
from krosbalance.errors import ContentError


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in captured.err
    return lines[0]


# ------------------------------------------------------------------------------------ listings


@pytest.mark.parametrize(
    ("what", "ids"),
    [
        ("rewards", lambda: [r.id for r in all_rewards()]),
        ("favors", lambda: [f.id for f in blast_cards().favors()]),
        ("challenges", lambda: [c.id for c in blast_cards().challenges()]),
    ],
)
def test_list_prints_a_header_and_one_line_per_card(capsys, what, ids) -> None:
    lines = _out(capsys, "list", what).splitlines()
    expected = ids()
    assert lines[0].split()[0] == "id" and len(lines) == 1 + len(expected)
    assert [line.split()[0] for line in lines[1:]] == expected


def test_list_rewards_shows_kind_slot_and_rank(capsys) -> None:
    rows = {line.split()[0]: line.split() for line in _out(capsys, "list", "rewards").splitlines()[1:]}
    for reward in all_rewards():
        assert rows[reward.id][1:4] == [reward.kind, reward.slot or "-", reward.rank]


def test_list_challenges_names_the_bonus_of_each_tier(capsys) -> None:
    out = _out(capsys, "list", "challenges")
    for challenge in blast_cards().challenges():
        line = next(line for line in out.splitlines() if line.startswith(challenge.id + " "))
        for bonus in challenge.bonuses:
            assert f"{bonus.tier}: {bonus.name}" in line


# --------------------------------------------------------------------------------------- show


def test_show_a_character_prints_its_values_spells_and_sources(capsys) -> None:
    spec = load_character(list_characters(set="arena-box")[0])
    out = _out(capsys, "show", spec.name)
    assert out.startswith(f"{spec.name} ({spec.id}): krosmaster, Arena card")
    assert (
        f"level {spec.level}  initiative {spec.initiative}  MP {spec.mp}  HP {spec.hp}  AP {spec.ap}" in out
    )
    for spell in spec.spells:
        assert f"  {spell.name}" in out and cards.spell_text(spell) in out
        assert f"{spell.ap_cost} AP" in cards.spell_text(spell)
    for key, note in spec.source.items():
        assert f"  {key} [{cards.confidence(note)}]: {note}" in out


def test_show_a_blast_card_has_no_level_or_initiative(capsys) -> None:
    spec = load_character(list_characters(game="blast")[0])
    out = _out(capsys, "show", spec.id)
    assert "Krosmaster Blast card" in out and "level " not in out and "initiative" not in out


def test_spell_text_gives_costs_range_limit_and_amount() -> None:
    spells = [s for c in list_characters(None, game=None) for s in load_character(c).spells]
    ranged = next(s for s in spells if s.range_type == "classic" and s.kind == "attack")
    text = cards.spell_text(ranged)
    assert f"{ranged.ap_cost} AP" in text and f"range {ranged.range_min}-{ranged.range_max}" in text
    assert f"{ranged.amount} damage" in text and ranged.element in text
    once = next((s for s in spells if s.limit == "turn"), None)
    if once is not None:
        assert "once per turn" in cards.spell_text(once)


def test_show_a_reward_prints_rank_effects_and_an_assumed_rank(capsys) -> None:
    reward = next(r for r in all_rewards() if r.source.get("rank", "").startswith("assumed"))
    out = _out(capsys, "show", reward.name)
    assert f"Demonic Reward, {reward.kind}" in out and f"rank {reward.rank}" in out
    assert f"  rank [assumed]: {reward.source['rank']}" in out
    for effect in reward.effects:
        assert cards.effect_text(effect) in out


def test_show_a_weapon_prints_its_spell(capsys) -> None:
    weapon = next(r for r in all_rewards() if r.spell is not None)
    out = _out(capsys, "show", weapon.id)
    assert "spell:" in out and cards.spell_text(weapon.spell) in out


def test_show_a_favor_prints_its_text_action_and_status(capsys) -> None:
    favor = blast_cards().favors()[0]
    out = _out(capsys, "show", favor.name)
    assert "Krosmic Favor" in out and favor.text in out and f"source [{favor.status}]: {favor.source}" in out
    for effect in favor.action.effects:
        assert cards.effect_text(effect) in out


def test_show_a_challenge_prints_each_tier(capsys) -> None:
    challenge = blast_cards().challenges()[0]
    out = _out(capsys, "show", challenge.id)
    assert f"Divine Challenge (Krosmaster Blast) of {challenge.god}" in out
    for bonus in challenge.bonuses:
        assert f"tier {bonus.tier}" in out and bonus.text in out


def test_show_a_board_and_an_ai(capsys) -> None:
    board = list_boards()[0]
    assert "grid:" in _out(capsys, "show", f"board:{board}")
    ai = list_ais()[0]
    out = _out(capsys, "show", ai)
    assert out.startswith(f"{ai}: AI, tier {ai_tier(ai)}, plays {', '.join(ai_rulesets(ai))}")


def test_confidence_reads_the_source_notes() -> None:
    assert cards.confidence("assumed: a guess") == "assumed"
    assert cards.confidence("seed L12 (medium)") == "medium"
    assert cards.confidence("seed L12 (medium); external-facts: two sources agree") == "confirmed"
    assert cards.confidence("seed L12") == "sourced"
    assert cards.confidence("") == "no source"


# ------------------------------------------------------------------------------------- errors


def test_an_unknown_name_is_one_line_with_did_you_mean(capsys) -> None:
    spec = load_character(list_characters(set="arena-box")[0])
    line = _error(capsys, "show", spec.name[:-1])
    assert line.startswith(f"error: show: name: unknown card {spec.name[:-1]!r}; did you mean ")
    assert f"character:{spec.id}" in line


def test_a_name_of_another_kind_says_which_kind_has_it(capsys) -> None:
    char_id = list_characters(set="arena-box")[0]
    line = _error(capsys, "show", f"reward:{char_id}")
    assert f"unknown reward {char_id!r}" in line and f"character:{char_id} has that name" in line


def test_a_name_shared_by_two_kinds_says_how_to_choose(monkeypatch, capsys) -> None:
    char_id = list_characters(set="arena-box")[0]
    favors = cards._KINDS["favor"]
    shared = cards._Kind("favor", lambda: [(char_id, ())], favors.show)
    monkeypatch.setitem(cards._KINDS, "favor", shared)
    with pytest.raises(ContentError) as info:
        cards.find(char_id)
    assert f"names several cards (character:{char_id}, favor:{char_id})" in info.value.reason
    assert f"`show character:{char_id}`" in info.value.reason
    assert cards.find(f"character:{char_id}") == ("character", char_id)
