"""Display names, team labels and the card values of low confidence, from the content registry."""

from __future__ import annotations

from krosbalance.analysis import names
from krosbalance.content.registry import list_characters, load_character


def test_display_names_come_from_the_registry_and_unknown_ids_pass_through() -> None:
    for char_id in list_characters():
        spec = load_character(char_id)
        assert names.display_name(char_id) == spec.name
        assert names.short_name(char_id) in spec.name
    assert names.display_name("no_such_figure") == "no_such_figure"
    assert names.names_column(["(side 0)"]) == ["(side 0)"]
    first, second = list_characters()[:2]
    assert (
        names.team_label(f"{first},{second}")
        == f"{load_character(first).name}, {load_character(second).name}"
    )


def test_short_names_of_the_box_are_unique() -> None:
    ids = list_characters()
    assert len({names.short_name(c) for c in ids}) == len(ids)


def test_field_notes_confirmed_outside_are_not_flagged() -> None:
    assert (
        names.field_confidence("seed L2011-L2013 (low); external-facts: krosfinder + tequilaswelt 3 agree")
        is None
    )
    assert (
        names.field_confidence("seed L1994 read 10 (medium confidence, kept); external-facts: print 9")
        == "medium"
    )
    assert names.field_confidence("assumed: bombs do not act; 0 is a placeholder") == "assumed"
    assert names.field_confidence("seed L2011, L2223") is None


def test_spell_notes_flag_the_values_beside_the_level_word() -> None:
    note = "seed L1469-L1474, L1490 (3-8 classic), L1488 (3 AP, medium), L1489 (1 damage, medium); element external-facts: Air"
    assert names.spell_flags(note) == [("3 AP", "medium"), ("1 damage", "medium")]
    assert names.spell_flags("seed L1525 (5 AP, medium, external agrees), L1526 (1 damage, medium)") == [
        ("1 damage", "medium")
    ]
    assert names.spell_flags("L1219 (3 AP, medium); element assumed: fire (not legible in the seed)") == [
        ("3 AP", "medium"),
        ("element fire", "assumed"),
    ]
    assert names.spell_flags(
        "AP cost 1 from L1239-L1241 (low; alternative 3 at L1250, no external value)"
    ) == [("AP cost 1", "low")]
    assert (
        names.spell_flags("seed L1186 (2-3, 0 damage); English name assumed (translation of the Italian)")
        == []
    )


def test_every_flag_names_a_field_or_spell_of_its_character() -> None:
    for char_id in list_characters():
        spec = load_character(char_id)
        spells = {s.name for s in spec.spells}
        for what, level in names.low_confidence_values(char_id):
            assert level in names.LEVELS
            assert what in spec.source or what.split(":")[0] in spells, (char_id, what)
        assert names.confidence_text(char_id) == "; ".join(
            f"{w} ({lvl})" for w, lvl in names.low_confidence_values(char_id)
        )
    assert names.low_confidence_values("no_such_figure") == ()


def test_board_titles_say_when_a_layout_is_assumed() -> None:
    from krosbalance.content.registry import list_boards, load_board

    for board_id in list_boards():
        board = load_board(board_id)
        assert names.board_title(board_id) == board.name
        assert names.board_is_assumed(board_id) == ("assumed" in f"{board.name} {board.source}".lower())
    assert names.board_title("moon") == "moon" and not names.board_is_assumed("moon")
