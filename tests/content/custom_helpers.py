"""A designer's content folder for tests: one new figure built from a shipped one (same level and
name colour, so it fits the same legal teams) and one new board, in a temporary folder; and the
fixture that puts the process back on the shipped cards after each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from krosbalance.content.custom import CONTENT_ENV, use_content
from krosbalance.content.registry import Registry
from krosbalance.rulesets import get_ruleset

FIGURE = "test_designer_figure"
BOARD = "test-designer-board"


def box_split() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two legal Arena teams of the box (whatever the box holds)."""
    box = Registry().list_characters(set="arena-box")
    return get_ruleset("arena").team_splits(box)[0]


def figure_toml(stands_for: str, *, hp: int = 9, extra_effect: str = "") -> str:
    """A new figure of the level and colour of ``stands_for``, with one new spell."""
    card = Registry().load_character(stands_for)
    return f"""\
[[characters]]
id = "{FIGURE}"
name = "Test Designer Figure"
kind = "krosmaster"
set = "test-designer"
tags = ["designer"]
colour = "{card.colour}"
level = {card.level}
initiative = 5
mp = 3
hp = {hp}
ap = 6

[[characters.spells]]
id = "designer_bolt"
name = "Designer Bolt"
kind = "attack"
element = "earth"
ap_cost = 3
range_type = "classic"
range_min = 1
range_max = 4
amount = 2

[[characters.spells.effects]]
kind = "push"
cells = 1
{extra_effect}"""


BOARD_TOML = f"""\
id = "{BOARD}"
name = "Designer board (test)"
source = "test board"
[grid]
rows = '''
b . b . b b
. . . T . .
. . D . . .
. . . D . .
. . T . . .
a a . a . a
'''
"""


def make_folder(root: Path, stands_for: str, **figure: object) -> Path:
    """A content folder at ``root`` with the figure and the board."""
    (root / "characters").mkdir(parents=True)
    (root / "boards").mkdir()
    (root / "characters" / "figure.toml").write_text(figure_toml(stands_for, **figure), encoding="utf-8")  # type: ignore[arg-type]
    (root / "boards" / "board.toml").write_text(BOARD_TOML, encoding="utf-8")
    return root


@pytest.fixture
def shipped_cards(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test starts and ends on the shipped cards only."""
    monkeypatch.delenv(CONTENT_ENV, raising=False)
    use_content(None)
    yield
    use_content(None)


#: an effect keyword only the reference knows (registered by :func:`reference_only_effect`): the core
#: plays every Arena keyword of the shipped vocabulary, so a card it cannot play is made this way
REFERENCE_ONLY = "test_reference_only_nudge"


def reference_only_effect(monkeypatch: pytest.MonkeyPatch) -> str:
    """The lines of a spell effect the reference plays (it does nothing) and the core refuses ("not
    in the core yet: the effect ..."), registered for this test alone."""
    from krosbalance.content.keywords import EFFECT_KEYWORDS
    from krosbalance.engine.effects import EFFECTS, TARGET, EffectRule

    def nudge(ctx: object, target: object) -> None:
        """Nothing: the card exists to be refused by the core."""

    monkeypatch.setitem(EFFECT_KEYWORDS, REFERENCE_ONLY, {})
    monkeypatch.setitem(EFFECTS, REFERENCE_ONLY, EffectRule(REFERENCE_ONLY, TARGET, "test only", nudge))
    return f'\n[[characters.spells.effects]]\nkind = "{REFERENCE_ONLY}"\n'
