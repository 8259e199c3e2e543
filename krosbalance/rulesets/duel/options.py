"""The Duel Pack's options: the schema of ``data/duel.toml`` (every value there has its source)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from krosbalance.content.duel import TOKEN_LEVELS
from krosbalance.engine.rules import EngineOptions
from krosbalance.errors import ContentError
from krosbalance.rulesets.options import RulesetFile, build_options, read_ruleset_file

DATA_FILE = Path(__file__).parent / "data" / "duel.toml"

#: options whose value is one of a few words
CHOICES: dict[str, tuple[str, ...]] = {
    "draft": ("plain", "tactical"),
    "turn_limit_result": ("draw", "hp"),
}
#: the team sizes the rulebook describes (R-D14, R-D36)
FIGURES: tuple[int, ...] = (1, 2)


@dataclass(frozen=True, slots=True)
class DuelOptions(EngineOptions):
    """The Duel Pack's own options on top of the engine's; see ``data/duel.toml`` for each source.

    Attributes:
        figures: Krosmasters per player, 1 (R-D14) or 2 (R-D36-R-D42).
        duel_level_bonus: the duel level is this + the higher (team) level (R-D15, R-D38).
        draft: ``plain`` (R-D16) or ``tactical`` (R-D17).
        draft_max_tokens: tokens a player drafts at most (R-D16).
        draft_overshoot: a drafted token may take a player past the duel level (R-D16 gap).
        token_set: the Duel Token set in play (``content/data/duel/tokens/<id>.toml``).
        reveal_applies_this_turn: an MP/AP bonus revealed at turn start counts this turn (R-D21).
        neutral_critical_power: the Critical power adds its die to a neutral spell too (R-D32 as
            written); False keeps Arena's single die for neutral spells (R-A79).
        punch: Krosmasters also have Arena's punch (R-A39; not in the Duel Pack).
        turn_limit_result: ``draw`` or ``hp`` when the simulation bound stops a match.
        bomb_armour_dice: Armour dice a bomb rolls (Arena's R-A115, for summoners from the box).
        start_token_levels: not a rule (the token-value study): one Duel Token of each listed level
            is held face down by seat 0 from the start, on top of its draft (``pregame``).
    """

    figures: int
    duel_level_bonus: int
    draft: str
    draft_max_tokens: int
    draft_overshoot: bool
    token_set: str
    reveal_applies_this_turn: bool
    neutral_critical_power: bool
    punch: bool
    turn_limit_result: str
    bomb_armour_dice: int
    start_token_levels: list[int]


def duel_file() -> RulesetFile:
    return read_ruleset_file(DATA_FILE)


def _checked(options: DuelOptions, file: str) -> DuelOptions:
    if options.figures not in FIGURES:
        raise ContentError(file, "figures", f"must be one of {FIGURES} (R-D14, R-D36), got {options.figures}")
    if options.draft_max_tokens < 1:
        raise ContentError(file, "draft_max_tokens", f"must be at least 1, got {options.draft_max_tokens}")
    given: list[object] = list(options.start_token_levels)
    for i, level in enumerate(given):
        if not isinstance(level, int) or isinstance(level, bool) or level not in TOKEN_LEVELS:
            raise ContentError(
                file,
                f"start_token_levels[{i}]",
                f"must be a Duel Token level {TOKEN_LEVELS[0]}-{TOKEN_LEVELS[-1]} (R-D4), got {level!r}",
            )
    return options


@cache
def default_options() -> DuelOptions:
    return _checked(build_options(DuelOptions, duel_file(), choices=CHOICES), str(DATA_FILE))


def duel_options(overrides: Mapping[str, Any] | None = None, *, file: str = "options") -> DuelOptions:
    """The Duel Pack's options with ``overrides`` (unknown or ill-typed ones raise ContentError)."""
    if not overrides:
        return default_options()
    return _checked(build_options(DuelOptions, duel_file(), overrides, file=file, choices=CHOICES), file)
