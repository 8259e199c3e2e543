"""Krosmaster Arena, 2 players, as the 2013 Italian rulebook writes it: one ruleset object
(:class:`ArenaRuleset`) and the modules it wires into the engine's hooks.

- ``options``: the option schema; ``data/arena.toml`` holds every value with its source.
- ``state``: Arena's own match state — GG, the wild GG, kamas and the kama reserve.
- ``teams``: the team rules (R-A146, R-A147) — the one copy of the level-12 rule — team
  enumeration and pool splits.
- ``pregame``: team validation, team deals (R-A17: ``random_deal``, ``draft``), the first player
  (R-A18, R-A151), the board and edge choices (R-A19), set-up with the Timelines (R-A20) and
  deployment (R-A25).
- ``tension``: the start-of-turn tension roll, inspiration and refund (R-A26-R-A29), and the
  ``ArenaController`` protocol of Arena's player decisions.
- ``timeline``: who acts — the Timeline, creatures right after their summoner (R-A30, R-A31).
- ``actions``: the extra actions, picking up a kama and buying a GG (R-A49, R-A50).
- ``rolls``: Critical and Armour (R-A60, R-A61), Lock against Dodge (R-A41-R-A47), and their
  expectations for AIs.
- ``economy``: GG gains by KO level (R-A10, R-A129-R-A131), tension losses, kamas, loot, and victory
  (R-A132, R-A133).
- ``tokens``: the Demonic Rewards on a Krosmaster's card (Arena's per-piece data, ``Fighter.extra``)
  and what they add to its spells (R-A52, R-A53, R-A145).
- ``reward_effects``: the reward effect registry, reveals and continuous effects (R-A54,
  R-A136-R-A145); ``market``: the market (R-A23, R-A51); ``rewards``: the reward actions and their
  timing.
- ``kinds``: Arena's action kinds, from the engine's ``EXTRA`` range; ``events``: Arena's typed
  events (tension, GG, kamas, rewards, the turn-end record).
- ``view``: ``ArenaView``, what a player sees of GG, kamas and the rewards (``MatchView.ruleset_view``;
  AIs read it with ``arena_view(view)``).
- ``results``: Arena's declared result columns (GG and kamas per seat, the wild GG; per fighter its
  kamas, GG won and reward counters, kept during play in ``FighterStats.extra``).
- ``invariants``: Arena's conservation laws for the conformance kit.

The pregame functions are importable from here as before the seam (``validate_team``, ``setup``,
``deploy``, ``draft``, ...).
"""

from krosbalance.rulesets.arena.options import ArenaOptions, arena_options
from krosbalance.rulesets.arena.pregame import (
    choose_board,
    choose_edges,
    deploy,
    draft,
    first_player,
    random_deal,
    setup,
    validate_team,
)
from krosbalance.rulesets.arena.ruleset import ArenaRuleset, arena_ruleset
from krosbalance.rulesets.arena.state import ArenaState, arena_state
from krosbalance.rulesets.arena.teams import (
    COPIES_ALLOWED,
    TEAM_LEVEL,
    TEAM_SIZE,
    draft_splits_evenly,
    team_problem,
)
from krosbalance.rulesets.arena.tension import ArenaController
from krosbalance.rulesets.base import PregamePlayer, summonable

__all__ = [
    "COPIES_ALLOWED",
    "TEAM_LEVEL",
    "TEAM_SIZE",
    "ArenaController",
    "ArenaOptions",
    "ArenaRuleset",
    "ArenaState",
    "PregamePlayer",
    "arena_options",
    "arena_ruleset",
    "arena_state",
    "choose_board",
    "choose_edges",
    "deploy",
    "draft",
    "draft_splits_evenly",
    "first_player",
    "random_deal",
    "setup",
    "summonable",
    "team_problem",
    "validate_team",
]
