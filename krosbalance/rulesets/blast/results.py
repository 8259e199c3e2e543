"""What a Blast match leaves in its result beyond the winner: the holdings the Divine Challenge study
reads, as typed columns (``BlastRuleset.result_columns``, values in ``MatchResult.values``).

Per seat (``glyphs0``, ``glyphs1``... in the matches table): ``glyphs`` (glyph cells at the end),
``peak`` (most held at once), ``tier{1,3,5}_turn`` (game turn each tier was first reached, 0 =
never), ``captures``, ``favors_used`` and, per bonus of every shipped Divine Challenge,
``uses:<challenge>/<bonus>:`` (actives used, passives that acted; NA when the challenge was not in
play). Per match: ``dofus`` (its holder at the end), ``favors_left``, ``challenges`` (ids in play,
comma separated).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from krosbalance.content.blast import blast_cards
from krosbalance.engine.results import ResultColumn
from krosbalance.rulesets.blast.glyphs import TIER_GLYPHS

if TYPE_CHECKING:
    from krosbalance.engine.state import MatchState
    from krosbalance.rulesets.blast.state import BlastState

_COLUMNS: list[tuple[ResultColumn, ...]] = []


def bonus_key(challenge: str, bonus: str, side: int) -> str:
    """The matches-table column of a bonus's uses by ``side``."""
    return f"{bonus_name(challenge, bonus)}{side}"


def bonus_name(challenge: str, bonus: str) -> str:
    return f"uses:{challenge}/{bonus}:"


def blast_columns() -> tuple[ResultColumn, ...]:
    """Every column a Blast match fills (the bonus columns of every shipped challenge), made once."""
    if not _COLUMNS:
        columns = [
            ResultColumn("glyphs", "int64", True, "glyph cells held at the end"),
            ResultColumn("peak", "int64", True, "most glyph cells held at once"),
            ResultColumn("captures", "int64", True, "glyph cells captured"),
            ResultColumn("favors_used", "int64", True, "favors used"),
        ]
        columns += [
            ResultColumn(
                f"tier{need}_turn", "int64", True, f"game turn {need} glyphs were first held (0: never)"
            )
            for need in TIER_GLYPHS
        ]
        columns += [
            ResultColumn("dofus", "int64", False, "the player holding the Dofus token at the end"),
            ResultColumn("favors_left", "int64", False, "favors left in the deck"),
            ResultColumn("challenges", "string", False, "the Divine Challenges in play, comma separated"),
        ]
        columns += [
            ResultColumn(
                bonus_name(challenge.id, bonus.id), "int64", True, "uses of the bonus (NA: not in play)"
            )
            for challenge in blast_cards().challenges()
            for bonus in challenge.bonuses
        ]
        _COLUMNS.append(tuple(columns))
    return _COLUMNS[0]


def blast_values(state: MatchState, bs: BlastState) -> dict[str, Any]:
    values: dict[str, Any] = {
        "glyphs": (bs.glyphs(0), bs.glyphs(1)),
        "peak": (bs.peak[0], bs.peak[1]),
        "captures": (bs.captures[0], bs.captures[1]),
        "favors_used": (bs.favor_uses[0], bs.favor_uses[1]),
        "dofus": bs.dofus,
        "favors_left": len(bs.deck),
        "challenges": ",".join(c.id for c in bs.challenges),
    }
    for i, need in enumerate(TIER_GLYPHS):
        values[f"tier{need}_turn"] = (bs.tier_turn[0][i], bs.tier_turn[1][i])
    index = 0
    for challenge in bs.challenges:
        for bonus in challenge.bonuses:
            values[bonus_name(challenge.id, bonus.id)] = (bs.bonus_uses[0][index], bs.bonus_uses[1][index])
            index += 1
    return values
