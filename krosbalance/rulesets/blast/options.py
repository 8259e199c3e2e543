"""Krosmaster Blast's options: the schema of ``data/blast.toml`` (every value there has its source;
the file's ``[choices.*]`` tables document the readings that are not options)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from krosbalance.content.blast import blast_cards
from krosbalance.engine.rules import EngineOptions
from krosbalance.errors import ContentError
from krosbalance.rulesets.options import RulesetFile, build_options, read_ruleset_file

DATA_FILE = Path(__file__).parent / "data" / "blast.toml"

#: options whose value is one of a few words
CHOICES: dict[str, tuple[str, ...]] = {
    "dice_faces": ("basic", "advanced"),
    "tackle_dice_several": ("two", "per_enemy"),
    "challenge_tier_reading": ("printed", "alternative"),
    "mutual_ko": ("draw", "active_loses"),
}
RANDOM_CHALLENGE = "random"


@dataclass(frozen=True, slots=True)
class BlastOptions(EngineOptions):
    """Blast's own options on top of the engine's; ``data/blast.toml`` gives each default's source.

    Attributes:
        dice_faces: ``basic`` (first game) or ``advanced`` (wild Dofus and Critical/Dodge faces,
            R-B31, R-B33).
        tackle_zone: the advanced tackle zone and dodge roll (R-B34-R-B39).
        tackle_dice_several: dice rolled in several enemy zones: ``two`` (the text) or ``per_enemy``.
        superior_favors: the 4 superior favors join the deck (R-B20).
        favor_deck_size: favors in the deck, the game's clock (R-B3).
        challenges: Divine Challenges in play, by id or ``random`` (R-B40).
        challenge_tier_reading: ``printed`` or ``alternative`` tiers of ambiguous cards (R-B41).
        challenge_tiers: ``"<challenge id>.<bonus id>" = glyph cells``: a bonus's tier threshold
            overridden (a balance patch's ``[challenges.X]``, ``krosbalance.sim.patches``).
        team_size: Krosmasters per team (R-B5).
        glyph_capture_by_effect, glyph_capture_by_slide: whether entering a glyph cell other than by
            walking captures it (R-B16).
        ice_slide_chain: a slide onto Ice slides again (R-B46).
        terrain_on_forced_moves: Ice, Fire and Fog act on pieces moved by effects and slides too.
        fire_damage, fire_combat_roll: Fire's damage and whether it gets a combat roll (R-B47).
        bonus_damage_combat_roll: favor and challenge damage gets a combat roll.
        terrain_max_per_type: tiles of one type on the board at once (R-B45).
        terrain_range: 0 = a favor places a tile anywhere, N = within N of the active Krosmaster.
        mutual_ko: ``draw`` or ``active_loses`` when both teams reach half KO at one instant (R-B2).
    """

    dice_faces: str
    tackle_zone: bool
    tackle_dice_several: str
    superior_favors: bool
    favor_deck_size: int
    challenges: list[str]
    challenge_tier_reading: str
    challenge_tiers: dict[str, int]
    team_size: int
    glyph_capture_by_effect: bool
    glyph_capture_by_slide: bool
    ice_slide_chain: bool
    terrain_on_forced_moves: bool
    fire_damage: int
    fire_combat_roll: bool
    bonus_damage_combat_roll: bool
    terrain_max_per_type: int
    terrain_range: int
    mutual_ko: str


MAX_TIER = 8
"""Glyph cells a tier may require at most: the box supplies 8 glyph tiles (R-B55, the boards' ``glyph = 8``)."""


def blast_file() -> RulesetFile:
    return read_ruleset_file(DATA_FILE)


@cache
def default_options() -> BlastOptions:
    return _checked(build_options(BlastOptions, blast_file(), choices=CHOICES), str(DATA_FILE))


def blast_options(overrides: Mapping[str, Any] | None = None, *, file: str = "options") -> BlastOptions:
    """Blast's options with ``overrides``; unknown, ill-typed or out-of-range values raise
    ContentError naming the option. Challenge names are resolved to ids (``random`` stays)."""
    if not overrides:
        return default_options()
    return _checked(build_options(BlastOptions, blast_file(), overrides, file=file, choices=CHOICES), file)


def _checked(options: BlastOptions, file: str) -> BlastOptions:
    """Value rules a type check cannot see: a positive deck within the favors the box holds, a
    team of at least 2, known challenge names (at most the seven of the box)."""

    cards = blast_cards()
    available = len(cards.favors("basic")) + (len(cards.favors("superior")) if options.superior_favors else 0)
    if not 1 <= options.favor_deck_size <= available:
        raise ContentError(
            file,
            "favor_deck_size",
            f"must be 1 to {available} (the favors available), got {options.favor_deck_size}",
        )
    if options.team_size < 1:
        raise ContentError(file, "team_size", f"must be at least 1, got {options.team_size}")
    if options.fire_damage < 1:
        raise ContentError(file, "fire_damage", f"must be at least 1, got {options.fire_damage}")
    if options.terrain_max_per_type < 1:
        raise ContentError(
            file, "terrain_max_per_type", f"must be at least 1, got {options.terrain_max_per_type}"
        )
    names: Any = options.challenges  # Any: the compiled build would cast each item to str before the check
    if not all(isinstance(name, str) for name in names):
        raise ContentError(file, "challenges", f"must be a list of challenge names, got {names!r}")
    try:
        resolved = list(cards.resolve_challenges(names))
    except ContentError as exc:
        raise ContentError(file, "challenges", exc.reason) from None
    named = [name for name in resolved if name != RANDOM_CHALLENGE]
    if len(set(named)) != len(named):
        raise ContentError(file, "challenges", f"a Divine Challenge is listed twice: {names!r}")
    if len(resolved) > len(cards.challenges()):
        raise ContentError(
            file,
            "challenges",
            f"at most {len(cards.challenges())} Divine Challenges can be in play, got {len(resolved)}",
        )
    tiers: Any = options.challenge_tiers  # Any: checked item by item (a compiled build would cast)
    if not isinstance(tiers, dict):
        raise ContentError(file, "challenge_tiers", f"must be a table of bonus = glyph cells, got {tiers!r}")
    for key, tier in tiers.items():
        challenge_id, _, bonus_id = str(key).partition(".")
        try:
            cards.challenge(challenge_id).bonus(bonus_id)
        except (ContentError, KeyError):
            raise ContentError(
                file, f"challenge_tiers.{key}", "not a '<challenge id>.<bonus id>' of the box"
            ) from None
        if not isinstance(tier, int) or isinstance(tier, bool) or not 1 <= tier <= MAX_TIER:
            raise ContentError(
                file, f"challenge_tiers.{key}", f"must be 1 to {MAX_TIER} glyph cells, got {tier!r}"
            )
    return options if resolved == names else replace(options, challenges=resolved)
