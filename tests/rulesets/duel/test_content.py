"""R-D1, R-D4-R-D10, R-D43: the Duel Pack's cards, its Duel Tokens (validated on load) and its boards."""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.board import iter_cells
from krosbalance.content.duel import (
    TOKEN_LEVELS,
    DuelTokenSpec,
    duel_tokens,
    load_token_file,
    parse_token_set,
)
from krosbalance.content.registry import default_registry, list_boards, load_board
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.legal import max_range
from krosbalance.engine.state import MatchState
from krosbalance.errors import ContentError
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.duel import DuelScenario, duel_pack, duel_registry
from tests.rulesets.duel.conftest import spec

DUEL_BOARDS = list_boards("duel")
#: the spells the rulebook names (seed "The Duel: Merkator vs. Captain Amakna")
NAMED_SPELLS = {
    "Discoplane",
    "Mocalisation",
    "Kickmaster",
    "Biceps",
    "Foggone Conclusion",
    "Clout of Fog",
    "Pulverization",
    "Pressure-Cooker",
}


def test_r_d1_the_duel_pack_krosmasters_are_level_6() -> None:
    names = duel_pack()
    assert len(names) >= 2
    assert all(spec(n).level == 6 and spec(n).set == "duel-pack" for n in names)


def test_the_duel_pack_cards_are_arena_cards_of_their_own_set() -> None:
    """They are Arena cards of the set ``duel-pack`` in the default registry: a pool named by set
    (``{set = "arena-box"}``) never deals them into level-12 Arena teams."""
    assert set(duel_pack()) <= set(default_registry().list_characters())
    assert not set(duel_pack()) & set(default_registry().list_characters(set="arena-box"))
    assert all(spec(n).game == "arena" and spec(n).set == "duel-pack" for n in duel_pack())


def test_r_d43_every_spell_the_rulebook_names_is_on_a_duel_pack_card_with_its_source() -> None:
    """Each named spell is either assumed (and says so) or taken from a public source that the card
    file names (TW = tequilaswelt.de's review, DC = double-critical.blogspot.com's article)."""
    spells = [s for n in duel_pack() for s in spec(n).spells]
    assert {s.name for s in spells} >= NAMED_SPELLS
    named = [s for s in spells if s.name in NAMED_SPELLS]
    assert all(s.source.startswith(("assumed", "TW ", "DC ")) for s in named)
    assert all("assumed" in s.source for s in named)  # every card still has values no source prints


def test_r_d4_every_token_has_a_level_1_to_4_and_a_bonus() -> None:
    tokens = duel_tokens()
    assert tokens.tokens and tokens.source.startswith("assumed")
    for token in tokens.tokens:
        assert token.level in TOKEN_LEVELS
        assert token.mp + token.hp + token.ap + token.range > 0
    assert {t.level for t in tokens.tokens} == set(TOKEN_LEVELS)  # the tactical option needs 4 piles


def test_r_d4_tokens_grow_with_their_level() -> None:
    tokens = duel_tokens()
    means = [
        sum(t.points for t in tokens.of_level(level)) / len(tokens.of_level(level)) for level in TOKEN_LEVELS
    ]
    assert means == sorted(means)


GOOD = {"id": "s", "name": "S", "source": "test", "tokens": [{"id": "a", "level": 1, "mp": 1}]}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"level": 5}, "tokens[0].level"),
        ({"level": "2"}, "tokens[0].level"),
        ({"mp": -1}, "tokens[0].mp"),
        ({"mp": 0}, "tokens[0]"),
        ({"speed": 1}, "tokens[0].speed"),
        ({"id": "A b"}, "tokens[0].id"),
    ],
)
def test_r_d4_a_bad_token_names_its_file_and_field(change: dict, field: str) -> None:
    data = {**GOOD, "tokens": [{**GOOD["tokens"][0], **change}]}
    with pytest.raises(ContentError) as err:
        parse_token_set(data, "tokens.toml")
    assert err.value.file == "tokens.toml" and err.value.field == field


def test_r_d4_token_set_file_errors(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'id = "mine"\nname = "M"\nsource = "t"\n[[tokens]]\nid = "a"\nlevel = 1\nhp = 1\n'
        '[[tokens]]\nid = "a"\nlevel = 2\nhp = 1\n'
    )
    with pytest.raises(ContentError, match="duplicate token id"):
        load_token_file(path)
    path.write_text("id = ")
    with pytest.raises(ContentError, match="toml"):
        load_token_file(path)
    with pytest.raises(ContentError, match="unknown set 'nope'"):
        get_ruleset("duel", {"token_set": "nope"})
    assert parse_token_set(GOOD, "x").tokens == (DuelTokenSpec("a", 1, mp=1),)


@pytest.mark.parametrize("bid", DUEL_BOARDS)
def test_r_d5_r_d9_duel_boards_have_starting_and_duel_cells(bid: str) -> None:
    board = load_board(bid)
    duel = board.features["duel"]
    assert duel.bit_count() >= 4  # two tokens each with two figures (R-D39)
    assert not duel & board.obstacles and not duel & (board.deploy[0] | board.deploy[1])
    assert board.deploy[0].bit_count() == board.deploy[1].bit_count() >= 2
    assert "assumed layout" in board.source
    rotate = {
        c: board.cell(board.width - 1 - x, board.height - 1 - y)
        for c in range(board.n_cells)
        for x, y in [board.xy(c)]
    }
    for mask in (board.trees, board.bushes, duel):
        assert sum(1 << rotate[c] for c in iter_cells(mask)) == mask
    assert sum(1 << rotate[c] for c in iter_cells(board.deploy[0])) == board.deploy[1]


@pytest.mark.parametrize("bid", DUEL_BOARDS)
def test_r_d6_r_d7_windows_block_movement_not_sight_machines_block_both(bid: str) -> None:
    board = load_board(bid)
    state = MatchState(board, get_ruleset("duel"), ScriptedDice([]))
    windows, machines = board.bushes, board.trees
    assert windows and machines
    assert windows & state.obstacles == windows and machines & state.obstacles == machines
    assert not windows & state.sight_blockers and machines & state.sight_blockers == machines


def test_r_d9_a_duel_cell_with_a_token_is_free() -> None:
    sc = DuelScenario(". X . .\n. . . .")
    who = sc.add(duel_pack()[0], side=0, at=(0, 0))
    sc.add(duel_pack()[-1], side=1, at=(3, 1))
    sc.put_token(sc.ds.piles[0][0].id, (1, 0))
    sc.activate(who)
    sc.move(who, (1, 0))
    assert sc.xy(who) == (1, 0)


def test_r_d10_a_max_range_bonus_grows_extendable_spells_only() -> None:
    sc = DuelScenario(". . . . . . . . .")
    name = next(
        n
        for n in duel_pack()
        if any(not s.fixed_range for s in spec(n).spells) and any(s.fixed_range for s in spec(n).spells)
    )
    who = sc.add(name, side=0, at=(0, 0))
    token = next(t for t in sc.ds.token_set.tokens if t.range)
    before = [max_range(sc.state, who, s) for s in who.spells]
    sc.give_token(who, token.id, face_up=True)
    after = [max_range(sc.state, who, s) for s in who.spells]
    for spell, b, a in zip(who.spells, before, after, strict=True):
        assert a == (b if spell.fixed_range else b + token.range), spell.id
    assert duel_registry().load_character(name) is who.spec
