"""Krosmaster Arena Duel Pack 1 (the English rulebook): a two-player duel of one Krosmaster each
(or two each, option ``figures = 2``), with no GG, kamas, Demonic Rewards, tension or Timeline
choices; Krosmasters grow with Duel Tokens instead. ``duel_ruleset(options)`` builds the ruleset
object; ``README.md`` lists the rule ids R-D1-R-D43 with the module that implements each and every
reading of the rulebook's gaps.

Modules:

- ``options`` / ``data/duel.toml``: every option with its value and source;
- ``state``: ``DuelState``, the token supply, the tokens on duel cells and on cards, the duel level;
- ``pregame``: teams, first player, duel level, the token draft (plain and tactical), deployment and
  the tokens put on duel cells (R-D14-R-D19, R-D36-R-D39); the study option ``start_token_levels``
  (tokens seat 0 holds from the start, not a rule);
- ``turn``: the ``DuelController`` protocol, revealing a token at the start of a turn, the
  activation order, victory (R-D20-R-D22, R-D40, R-D42);
- ``actions``: picking up a Duel Token (R-D25), the ruleset's one extra action;
- ``ruleset``: ``DuelRuleset``, every hook (Lock/Dodge blocking that loses MP and AP, R-D24, R-D41;
  markers at the next activation, R-D22; the Critical and Armour rolls, R-D29);
- ``checks``: invariants, snapshot and expected damage; ``view``: ``DuelView`` for AIs;
  ``events``: the duel's typed events.

Cards: Captain Amakna and Merkator (``set = "duel-pack"``, ``krosbalance/content/data/duel``) join
the Arena cards through ``krosbalance.content.duel.with_duel_pack``; Duel Tokens are data
(``content/data/duel/tokens``); the duel boards mark their duel cells with the ``duel`` feature.
"""

from krosbalance.rulesets.duel.ruleset import DuelRuleset, duel_ruleset

__all__ = ["DuelRuleset", "duel_ruleset"]
