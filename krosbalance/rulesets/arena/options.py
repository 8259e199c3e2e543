"""Arena's options: the schema of ``data/arena.toml`` (every value there has its source)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from krosbalance.content.specs import SpellSpec
from krosbalance.engine.rules import EngineOptions
from krosbalance.errors import ContentError
from krosbalance.rulesets.options import RulesetFile, build_options, read_ruleset_file

DATA_FILE = Path(__file__).parent / "data" / "arena.toml"

#: options whose value is one of a few words
CHOICES: dict[str, tuple[str, ...]] = {
    "turn_limit_result": ("draw", "gg"),
    "simultaneous_zero_gg": ("draw", "play_on"),
    "reward_refill": ("same_pile", "none"),
    "reward_reveal": ("setup", "staged"),
    "mode": ("two_player", "free_for_all", "two_vs_two"),
}


@dataclass(frozen=True, slots=True)
class ArenaOptions(EngineOptions):
    """Arena's own options on top of the engine's; see ``data/arena.toml`` for each default's source.

    Attributes:
        mode: ``two_player``, ``free_for_all`` or ``two_vs_two`` (R-A152-R-A159).
        four_player_gg, four_player_wild_gg: the same for four players (R-A155).
        team_level, four_player_team_level: a team's level sum with two players (R-A146) and with
            four (R-A150).
        starting_gg, wild_gg: each player's GG and the wild GG at the start (R-A24).
        gg_price: kamas for one GG on a Demon cell (R-A50).
        kama_reserve: kama tokens in the box (R-A1).
        first_turn_tension: the first player rolls tension on his very first turn (R-A26).
        zero_gg_loses: a player without GG loses even while the wild GG is there (R-A132 variant).
        turn_limit_result: ``draw`` or ``gg`` (more GG wins) when the turn bound stops a match.
        lock_block_ends_turn: a blocked character's turn ends at once: its AP are lost and nothing
            but END is legal, no reveal or 0-AP spell (R-A45); off, it only loses its MP.
        bomb_armour_dice: Armour dice a bomb rolls (R-A115).
        simultaneous_zero_gg: ``draw`` or ``play_on`` when nobody holds GG (R-A133).
        scenery_loot: kamas a destroyed tree, bush or crate leaves (R-A127).
        demonic_rewards: the market of Demonic Rewards is in play (R-A23, R-A51-R-A54).
        reward_prices: kamas for a granite, jade and gold reward (R-A136).
        reward_refill: ``same_pile`` or ``none``: what replaces a face-up reward that is bought.
        reward_reveal: ``setup`` (R-A23) or ``staged`` (the later edition's schedule).
        element_boost_waits: an elemental Boost waits for a spell of its element.
        start_rewards: the rewards each side holds face down from the start (the reward study).
        start_reward_prices: the kamas each side pays for each of its ``start_rewards`` (same
            order; missing = free): the price sweep's cost, owed when the stock is short.
        start_reward_gg_prices: the GG each side gives back to the box for each of its
            ``start_rewards`` (the price sweep in GG, R-A50's other currency).
        start_reward_holders: for each of those, the character id of its holder ('' = the player
            chooses): the per-holder arms of the reward study.
        purchasable_rewards: the rewards each side may buy face up (the purchase arms; R-A51).
    """

    mode: str
    four_player_gg: int
    four_player_wild_gg: int
    team_level: int
    four_player_team_level: int
    starting_gg: int
    wild_gg: int
    gg_price: int
    kama_reserve: int
    first_turn_tension: bool
    zero_gg_loses: bool
    turn_limit_result: str
    lock_block_ends_turn: bool
    bomb_armour_dice: int
    simultaneous_zero_gg: str
    scenery_loot: dict[str, int]
    demonic_rewards: bool
    reward_prices: dict[str, int]
    reward_refill: str
    reward_reveal: str
    element_boost_waits: bool
    start_rewards: list[list[str]]
    start_reward_prices: list[list[int]]
    start_reward_gg_prices: list[list[int]]
    start_reward_holders: list[list[str]]
    purchasable_rewards: list[list[str]]


def start_holdings(opts: ArenaOptions) -> tuple[int, int, int]:
    """(seats, each player's GG, the wild GG) at the start: two players (R-A24), or four under the
    four-player modes (R-A152, R-A155)."""
    if opts.mode == "two_player":
        return 2, opts.starting_gg, opts.wild_gg
    return 4, opts.four_player_gg, opts.four_player_wild_gg


def arena_file() -> RulesetFile:
    return read_ruleset_file(DATA_FILE)


@cache
def default_options() -> ArenaOptions:
    return build_options(ArenaOptions, arena_file(), choices=CHOICES)


#: the reward study's options: one list per side of a two-player match
PER_SIDE_REWARD_OPTIONS: tuple[str, ...] = (
    "start_rewards",
    "start_reward_prices",
    "start_reward_gg_prices",
    "start_reward_holders",
    "purchasable_rewards",
)


def arena_options(overrides: Mapping[str, Any] | None = None, *, file: str = "options") -> ArenaOptions:
    """Arena's options with ``overrides`` (unknown or ill-typed ones raise ContentError). The reward
    study's per-side lists describe two sides: a four-player match refuses them (it plays the market
    of ``demonic_rewards``) rather than leave seats 2 and 3 out of lists written for two."""
    if not overrides:
        return default_options()
    opts = build_options(ArenaOptions, arena_file(), overrides, file=file, choices=CHOICES)
    if opts.mode != "two_player":
        for name in PER_SIDE_REWARD_OPTIONS:
            if any(getattr(opts, name)):
                raise ContentError(
                    file,
                    name,
                    f"lists one entry per side of a two-player match; mode {opts.mode!r} seats four "
                    "(play the market with demonic_rewards = true)",
                )
    return opts


@cache
def punch() -> SpellSpec:
    """R-A39: the punch every Krosmaster has, a rule-defined spell (the ``[punch]`` table)."""
    return SpellSpec(**dict(arena_file().tables["punch"]))
