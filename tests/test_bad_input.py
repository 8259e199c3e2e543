"""Bad input gives one clear message naming the file and the field, as a KrosbalanceError subclass.

Never a bare KeyError, TypeError or traceback from deep inside: a user fixes the input from the
message alone (the CLI prints it as one line). Each test asserts the error type and what the message
names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from krosbalance.board.loader import load_board_file
from krosbalance.content.registry import Registry
from krosbalance.errors import ContentError, KrosbalanceError, LocatedError, TeamError
from krosbalance.play import play_match, prepare_match

GOOD = ("anna_tommy", "bad_aboum", "bill_tell", "kassius_kaos")


def fails(call, error: type[KrosbalanceError] = KrosbalanceError) -> str:
    """The message of the KrosbalanceError subclass ``call`` raises (and never another exception)."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert "\n" not in message.strip(), "the message should be one line"
    if isinstance(info.value, LocatedError):
        assert message == f"{info.value.file}: {info.value.field}: {info.value.reason}"
    return message


# ------------------------------------------------------------------------------------------ teams


def test_unknown_character_in_play_match() -> None:
    msg = fails(lambda: play_match(["anna_tommy", "bad_aboum", "bill_tell", "kassus_kaos"], GOOD), TeamError)
    assert "unknown character 'kassus_kaos'" in msg
    assert "character registry" in msg and "name" in msg  # the "file" and field looked up
    assert "kassius_kaos" in msg  # the known names are listed


@pytest.mark.parametrize(
    ("team", "expected"),
    [
        (["anna_tommy", "bad_aboum", "bill_tell"], ["level sum 9", "exactly 12", "R-A146"]),
        (
            ["anna_tommy", "bad_aboum", "bill_tell", "kassius_kaos", "lil_healey"],
            ["level sum 15", "exactly 12"],
        ),
        (
            ["king_of_the_gobballs", "king_of_the_gobballs", "bill_tell", "anna_tommy"],
            ["2 copies of King of the Gobballs", "gold", "at most 1", "R-A147"],
        ),
        (
            ["bill_tell", "bill_tell", "bill_tell", "anna_tommy"],
            ["3 copies of Bill Tell", "white", "at most 2", "R-A147"],
        ),
        (["tofu", "bad_aboum", "bill_tell", "anna_tommy"], ["'Tofu'", "creature token", "not a Krosmaster"]),
        (["water_bomb", "bad_aboum", "bill_tell", "anna_tommy"], ["bomb token", "not a Krosmaster"]),
        ("anna_tommy", ["list of character names", "'anna_tommy'"]),
        ([3, "bad_aboum", "bill_tell", "anna_tommy"], ["expected a character name", "3"]),
        ([], ["0 Krosmasters", "2 to 8"]),
    ],
    ids=[
        "level-9",
        "level-15",
        "gold-twice",
        "white-thrice",
        "tofu",
        "bomb",
        "a-string",
        "not-a-name",
        "empty",
    ],
)
@pytest.mark.parametrize("side", [0, 1])
def test_illegal_team(team, expected: list[str], side: int) -> None:
    teams = (team, GOOD) if side == 0 else (GOOD, team)
    msg = fails(lambda: play_match(*teams), TeamError)
    for text in expected:
        assert text in msg, msg


# ------------------------------------------------------------------------------------ board files

BOARD_HEAD = 'id = "broken"\nname = "Broken"\nsource = "test"\n'


def write_board(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "field", "expected"),
    [
        ('[grid]\nrows = """\n. a .\n. .\n. b .\n"""\n', "grid.rows", ["row y=1 has 2 cells", "ragged"]),
        ('[grid]\nrows = """\n. a .\n. X .\n. b .\n"""\n', "grid.rows", ["row y=1, column x=1", "'X'"]),
        ("", "grid", ["missing"]),
        ('width = "twelve"\n[grid]\nrows = """\n. a .\n. b .\n"""\n', "width", ["must be int"]),
        ('[grid]\nrows = """\n. a .\n. b .\n"""\n[expect]\ntrees = 2\n', "expect.trees", ["declared 2"]),
        ('colour = "red"\n[grid]\nrows = """\n. a .\n. b .\n"""\n', "colour", ["unknown key"]),
    ],
    ids=["ragged-rows", "unknown-glyph", "missing-grid", "mistyped", "expect", "unknown-key"],
)
def test_malformed_board_file(tmp_path: Path, body: str, field: str, expected: list[str]) -> None:
    path = write_board(tmp_path, BOARD_HEAD + body)
    try:
        load_board_file(path)
    except ContentError as err:
        assert err.file == str(path)
        assert err.field.startswith(field), err
        assert str(err).startswith(f"{path}: {err.field}: ")
        for text in expected:
            assert text in err.reason, err
    except Exception as err:  # pragma: no cover - the failure we are guarding against
        pytest.fail(f"{type(err).__name__} instead of ContentError: {err}")
    else:
        pytest.fail("a malformed board file was accepted")


def test_unknown_key_inside_the_grid_table(tmp_path: Path) -> None:
    path = write_board(tmp_path, BOARD_HEAD + '[grid]\nrows = """\n. a .\n. b .\n"""\nwidth = 3\n')
    msg = fails(lambda: load_board_file(path), ContentError)
    assert "grid.width" in msg


@pytest.mark.parametrize("missing", ["id", "name", "source"])
def test_board_file_missing_field(tmp_path: Path, missing: str) -> None:
    lines = [line for line in BOARD_HEAD.splitlines() if not line.startswith(missing)]
    path = write_board(tmp_path, "\n".join(lines) + '\n[grid]\nrows = """\n. a .\n. b .\n"""\n')
    msg = fails(lambda: load_board_file(path), ContentError)
    assert msg == f"{path}: {missing}: missing"


def test_board_file_not_toml(tmp_path: Path) -> None:
    path = write_board(tmp_path, "id = \n")
    msg = fails(lambda: load_board_file(path), ContentError)
    assert str(path) in msg and "invalid TOML" in msg


def test_board_file_missing(tmp_path: Path) -> None:
    msg = fails(lambda: load_board_file(tmp_path / "nowhere.toml"), ContentError)
    assert "nowhere.toml" in msg and "cannot read" in msg


# ------------------------------------------------------------------------------- character files

CHARACTER = """\
[[characters]]
id = "hero"
name = "Hero"
kind = "krosmaster"
set = "krosbalance-tests"
colour = "white"
level = 3
initiative = 5
mp = 3
hp = 10
ap = 6

[[characters.spells]]
id = "zap"
name = "Zap"
kind = "attack"
element = "fire"
ap_cost = 3
range_type = "classic"
range_min = 1
range_max = 3
amount = 1

[[characters.spells.effects]]
kind = "{effect}"
cells = 1
"""


def test_unknown_effect_keyword_in_a_character_file(tmp_path: Path) -> None:
    (tmp_path / "hero.toml").write_text(CHARACTER.format(effect="teleport"), encoding="utf-8")
    registry = Registry(tmp_path)
    with pytest.raises(ContentError) as info:
        registry.load_character("hero")
    err = info.value
    assert err.file == str(tmp_path / "hero.toml")
    assert err.field == "characters[0].spells[0].effects[0].kind"
    assert "unknown effect keyword 'teleport'" in err.reason and "push" in err.reason
    assert str(err).startswith(f"{tmp_path / 'hero.toml'}: characters[0].spells[0].effects[0].kind: ")


def test_the_same_file_with_a_known_keyword_loads(tmp_path: Path) -> None:
    (tmp_path / "hero.toml").write_text(CHARACTER.format(effect="push"), encoding="utf-8")
    assert Registry(tmp_path).load_character("Hero").spells[0].effects[0].kind == "push"


def test_bad_character_file_fails_a_match_cleanly(tmp_path: Path) -> None:
    (tmp_path / "hero.toml").write_text(CHARACTER.format(effect="teleport"), encoding="utf-8")
    msg = fails(lambda: play_match(["hero"] * 4, GOOD, registry=Registry(tmp_path)))
    assert "hero.toml" in msg and "effects[0].kind" in msg


# ------------------------------------------------------------------------ options, AIs, boards


def test_unknown_ruleset_option() -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, options={"turn_limt": 40}), ContentError)
    assert msg.startswith("options: turn_limt: unknown ruleset option; did you mean 'turn_limit'")
    assert "known: " in msg and "starting_gg" in msg  # the known options are listed


def test_unknown_ruleset_option_far_from_every_name_has_no_suggestion() -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, options={"zzqx": 40}), ContentError)
    assert "did you mean" not in msg and "known: " in msg and "turn_limit" in msg


def test_ill_typed_ruleset_option() -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, options={"turn_limit": "forty"}), ContentError)
    assert "turn_limit" in msg and "expected int" in msg and "'forty'" in msg


def test_unknown_ruleset() -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, ruleset="checkers"), ContentError)
    assert "unknown ruleset 'checkers'" in msg and "arena" in msg and "blast" in msg


def test_a_misspelt_ruleset_is_told_the_near_name() -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, ruleset="blst"), ContentError)
    assert msg.startswith("ruleset: name: unknown ruleset 'blst'; did you mean 'blast'?; known: ")


def test_an_arena_ai_in_a_blast_match_names_both() -> None:
    from krosbalance.ai.registry import list_ais

    arena_only = next(ai for ai in list_ais("arena") if ai not in list_ais("blast"))
    msg = fails(lambda: play_match(GOOD, GOOD, ruleset="blast", board="blast-a", ai=arena_only), ContentError)
    assert msg.startswith(f"AI registry: ai: AI {arena_only!r} does not play ruleset 'blast'; it plays: ")
    assert "AIs for blast: " in msg and "blast-glyph" in msg


@pytest.mark.parametrize("ai", ["nope", ("random", "nope"), ("nope", "random")])
def test_unknown_ai(ai) -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, ai=ai), ContentError)
    assert msg.startswith("AI registry: ai: unknown AI 'nope'") and "random" in msg


@pytest.mark.parametrize("ai", ["blast-glyph", ("random", "blast-glyph")])
def test_ai_of_another_ruleset(ai) -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, ai=ai), ContentError)
    assert msg.startswith("AI registry: ai: AI 'blast-glyph' does not play ruleset 'arena'; it plays: blast.")
    assert "AIs for arena: " in msg and "focus-fire" in msg


def test_unknown_board() -> None:
    msg = fails(lambda: play_match(GOOD, GOOD, board="arena-elementl"), ContentError)
    assert msg.startswith("board registry: board: unknown board 'arena-elementl'")
    assert "arena-elemental" in msg


def test_unknown_record_level() -> None:
    msg = fails(lambda: prepare_match(GOOD, GOOD, record="everything"), ContentError)
    assert "record" in msg and "'everything'" in msg and "full" in msg
