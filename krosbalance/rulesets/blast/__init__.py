"""Krosmaster Blast (the French rulebook, 2017): two Krosmasters a side, 1-AP spells, glyph cells,
Krosmic Favors, Divine Challenges, special terrain, a one-die combat roll and an optional tackle
zone. ``blast_ruleset(options)`` builds the ruleset object; ``README.md`` lists the rule ids
R-B1-R-B55 with the module that implements each and every reading of the rulebook's gaps."""

from krosbalance.rulesets.blast import effects as _effects  # noqa: F401  (registers Blast's spell effects)
from krosbalance.rulesets.blast.ruleset import BlastRuleset, blast_ruleset

__all__ = ["BlastRuleset", "blast_ruleset"]
