"""What differs between Arena, Duel and Blast: one object per ruleset behind a protocol, and a
registry by name — as python-chess's variants and OpenSpiel's games do.

**The seam.** The engine (``krosbalance.engine``) keeps the mechanics every Krosmaster game shares:
the board, pieces, walking and special movement, spells, effects, powers, dice, summons, the same
instant, events. Everything a ruleset decides, the engine asks one object, ``state.ruleset``:

- ``krosbalance.engine.rules.MatchRules`` is the in-match half — the hooks the engine calls (start
  of turn, who acts and in what order, extra actions, leaving a cell, entering a cell, markers, the
  combat roll, KOs, victory, the turn bound, the result), with the ruleset's options
  (``EngineOptions`` subclass) and its own typed state (``RulesetState`` subclass, in
  ``state.rules``, copied with ``copy()``);
- :class:`krosbalance.rulesets.base.Ruleset` adds the set-up half that ``krosbalance.play``, the
  experiment runner, the benchmark and the test kits call — team rules, team enumeration and
  splits, team deals, first player, board choice, set-up and deployment;
- :mod:`krosbalance.rulesets.registry` names them: ``get_ruleset("arena", options)``.

A hook is a plain method call on the object the match was set up with: the choice of ruleset is
made once per match, never per step. ``README.md`` next to this file lists every hook with the
moment the engine calls it, and how to add a ruleset.

**Arena** is :mod:`krosbalance.rulesets.arena` (its options in ``arena/data/arena.toml``). Blast, the
Duel Pack and 4-player Arena are to come as sibling packages.
"""

from krosbalance.engine.rules import EngineOptions, MatchRules, RulesetState
from krosbalance.rulesets.base import Ruleset
from krosbalance.rulesets.registry import get_ruleset, list_rulesets, register_ruleset

__all__ = [
    "EngineOptions",
    "MatchRules",
    "Ruleset",
    "RulesetState",
    "get_ruleset",
    "list_rulesets",
    "register_ruleset",
]
