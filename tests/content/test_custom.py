"""A designer's own cards (krosbalance.content.custom): one folder layered over the shipped cards,
validated by the same loaders, served by the default registry, played by both engines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from krosbalance import native
from krosbalance.content import custom
from krosbalance.content.custom import CONTENT_ENV, active_content, read_content_folder, use_content
from krosbalance.content.registry import DEFAULT_CHARACTER_FOLDER, Registry, default_registry
from krosbalance.errors import ContentError
from tests.content.custom_helpers import (
    BOARD,
    FIGURE,
    box_split,
    make_folder,
    reference_only_effect,
    shipped_cards,
)

__all__ = ["shipped_cards"]  # the fixture, used by name
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "my-cards"
pytestmark = pytest.mark.usefixtures("shipped_cards")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return make_folder(tmp_path / "my-cards", box_split()[0][0])


# ------------------------------------------------------------------------------------------ layout


def test_a_folder_is_read_with_its_kinds_and_a_digest_of_its_cards(folder: Path) -> None:
    found = read_content_folder(folder)
    assert found.root == folder.resolve()
    assert found.files == ("boards/board.toml", "characters/figure.toml")
    assert found.rewards is None and found.characters == folder / "characters"
    (folder / "NOTES.md").write_text("notes are not cards", encoding="utf-8")
    assert read_content_folder(folder).digest == found.digest
    card = folder / "characters" / "figure.toml"
    card.write_text(card.read_text(encoding="utf-8").replace("hp = 9", "hp = 10"), encoding="utf-8")
    assert read_content_folder(folder).digest != found.digest


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda root: None, "no such folder"),
        (lambda root: (root / "favors").mkdir(parents=True), "unknown subfolder"),
        (lambda root: (root.mkdir(), (root / "hero.toml").write_text("")), "put card files in"),
        (lambda root: (root / "characters").mkdir(parents=True), "no card files"),
    ],
)
def test_a_misshapen_folder_is_one_line_naming_it(tmp_path: Path, make: object, said: str) -> None:
    root = tmp_path / "cards"
    make(root)  # type: ignore[operator]
    with pytest.raises(ContentError, match=said) as caught:
        read_content_folder(root)
    assert caught.value.field == "content" and str(tmp_path) in caught.value.file
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------------------------- layered registry


def test_the_folder_adds_its_cards_to_every_lookup_and_leaves_the_shipped_ones(folder: Path) -> None:
    shipped = Registry().list_characters(game=None)
    assert FIGURE not in default_registry().list_characters(game=None)
    use_content(folder)
    registry = default_registry()
    assert registry.list_characters(game=None) == sorted([*shipped, FIGURE])
    assert registry.list_characters(set="test-designer") == [FIGURE]
    assert registry.load_character("Test Designer Figure").id == FIGURE
    assert BOARD in registry.list_boards("arena") and registry.load_board(BOARD).width == 6
    assert os.environ[CONTENT_ENV] == str(folder.resolve())
    use_content(None)
    assert FIGURE not in default_registry().list_characters(game=None)
    assert CONTENT_ENV not in os.environ


def test_a_bad_card_is_the_shipped_loaders_one_line_and_changes_nothing(folder: Path) -> None:
    card = folder / "characters" / "figure.toml"
    card.write_text(card.read_text(encoding="utf-8").replace("hp = 9", 'hp = "nine"'), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        use_content(folder)
    assert caught.value.file == str(card.resolve()) and caught.value.field == "characters[0].hp"
    assert active_content() is None and CONTENT_ENV not in os.environ


def test_a_clash_with_a_shipped_id_names_both_files(folder: Path) -> None:
    shipped = box_split()[1][0]
    card = folder / "characters" / "figure.toml"
    card.write_text(
        card.read_text(encoding="utf-8").replace(f'id = "{FIGURE}"', f'id = "{shipped}"'), encoding="utf-8"
    )
    with pytest.raises(ContentError, match="already") as caught:
        use_content(folder)
    assert str(card.resolve()) == caught.value.file
    assert str(Registry().source_file(shipped)) in caught.value.reason


def test_a_board_clash_names_both_files(folder: Path) -> None:
    shipped = Registry().list_boards()[0]
    board = folder / "boards" / "board.toml"
    board.write_text(board.read_text(encoding="utf-8").replace(BOARD, shipped), encoding="utf-8")
    with pytest.raises(ContentError, match="already used by") as caught:
        use_content(folder)
    assert caught.value.file == str(board.resolve()) and caught.value.field == "id"


TOKEN = """\
[[rewards]]
id = "test_designer_token"
name = "Test Designer Token"
kind = "boost"
set = "test-designer"
rank = "jade"
effects = [{ kind = "mp_now", amount = 1 }]
"""


def test_a_reward_of_the_folder_joins_the_tokens(folder: Path) -> None:
    (folder / "rewards").mkdir()
    (folder / "rewards" / "tokens.toml").write_text(TOKEN, encoding="utf-8")
    use_content(folder)
    assert "test_designer_token" in default_registry().list_rewards(set="test-designer")
    assert len(default_registry().all_rewards()) == len(Registry().all_rewards()) + 1


def test_a_change_of_cards_tells_the_caches_built_from_them(folder: Path) -> None:
    calls: list[int] = []
    custom.on_content_change(lambda: calls.append(1))
    try:
        use_content(folder)
        use_content(folder)  # the same cards: nothing to drop
        assert len(calls) == 1
        card = folder / "characters" / "figure.toml"
        card.write_text(card.read_text(encoding="utf-8").replace("hp = 9", "hp = 11"), encoding="utf-8")
        use_content(folder)  # edited cards, read again
        assert default_registry().load_character(FIGURE).hp == 11 and len(calls) == 2
    finally:
        custom._listeners.pop()


def test_the_environment_variable_chooses_the_folder_of_a_new_process(folder: Path) -> None:
    code = (
        "from krosbalance.content.registry import list_characters\n"
        f"print({FIGURE!r} in list_characters('krosmaster', game=None))"
    )
    env = {**os.environ, CONTENT_ENV: str(folder)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_the_registry_without_arguments_stays_the_shipped_cards(folder: Path) -> None:
    use_content(folder)
    assert FIGURE not in Registry().list_characters(game=None)
    assert Registry(DEFAULT_CHARACTER_FOLDER).folders == (DEFAULT_CHARACTER_FOLDER,)


# ----------------------------------------------------------------------------------------- engines


def test_the_example_folder_loads_with_a_figure_a_spell_and_a_board() -> None:
    found = use_content(EXAMPLE)
    assert found is not None and found.characters and found.boards
    registry = default_registry()
    figures = registry.list_characters(set="my-cards")
    assert len(figures) == 1
    figure = registry.load_character(figures[0])
    assert figure.spells and any(spell.effects for spell in figure.spells)
    assert [b for b in registry.list_boards() if b not in Registry().list_boards()]


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
def test_the_core_plays_a_designers_figure_and_board_as_the_reference_does(folder: Path) -> None:
    from krosbalance.play import play_match

    team_a, team_b = box_split()
    mine = (FIGURE, *team_a[1:])
    use_content(folder)
    for board in (BOARD, default_registry().list_boards("arena")[0]):
        core = play_match(mine, team_b, board=board, ai="focus_fire", seed=11)
        reference = play_match(mine, team_b, board=board, ai="focus_fire", seed=11, engine="reference")
        assert core.engine == "core" and reference.engine == "reference"
        assert (core.winner, core.turns) == (reference.winner, reference.turns)
        assert [f.as_row() for f in core.fighters] == [f.as_row() for f in reference.fighters]


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
def test_a_mechanic_the_core_lacks_falls_back_to_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card whose effect the core does not play yet: ``auto`` plays its matches on the reference
    (never a wrong result), and ``core`` says why in one line."""
    from krosbalance.errors import EngineError
    from krosbalance.play import play_match

    team_a, team_b = box_split()
    lacking = reference_only_effect(monkeypatch)
    use_content(make_folder(tmp_path / "cards", team_a[0], extra_effect=lacking))
    mine = (FIGURE, *team_a[1:])
    result = play_match(mine, team_b, ai="focus_fire", seed=5)
    assert result.engine == "reference"
    with pytest.raises(EngineError, match="not in the core yet"):
        play_match(mine, team_b, ai="focus_fire", seed=5, engine="core")


@pytest.mark.skipif(not native.available(), reason="the native core is not installed")
def test_a_card_the_core_lacks_sends_only_its_own_matches_to_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core's catalog leaves that one card out: a match without it still plays in the core."""
    from krosbalance.play import play_match

    team_a, team_b = box_split()
    lacking = reference_only_effect(monkeypatch)
    use_content(make_folder(tmp_path / "cards", team_a[0], extra_effect=lacking))
    assert play_match((FIGURE, *team_a[1:]), team_b, ai="focus_fire", seed=5).engine == "reference"
    assert play_match(team_a, team_b, ai="focus_fire", seed=5).engine == "core"
