"""Rulesets by name: the one list that ``play_match``, experiments, the benchmark, the test kits and
the CLI read.

``get_ruleset("arena", {"turn_limit": 60})`` builds the ruleset object with option overrides; an
unknown name is a ``ContentError`` listing the known ones (so ``ruleset="blast"`` fails loudly until
Blast is registered, instead of playing Arena).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from krosbalance.errors import ContentError
from krosbalance.rulesets.arena import arena_ruleset
from krosbalance.rulesets.base import Ruleset
from krosbalance.rulesets.blast import blast_ruleset
from krosbalance.rulesets.duel import duel_ruleset

RulesetFactory = Callable[..., Ruleset]
"""Called as ``factory(options, file=...)``: the ruleset with those option overrides."""

_RULESETS: dict[str, RulesetFactory] = {
    "arena": arena_ruleset,
    "blast": blast_ruleset,
    "duel": duel_ruleset,
}


def register_ruleset(name: str, factory: RulesetFactory) -> None:
    """Add (or replace) a ruleset; ``factory(options, file=...)`` builds it with option overrides."""
    _RULESETS[name] = factory


def list_rulesets() -> list[str]:
    return sorted(_RULESETS)


def get_ruleset(
    name: str = "arena", options: Mapping[str, Any] | None = None, *, file: str = "options"
) -> Ruleset:
    """The named ruleset with option ``options`` applied; ``file`` names where the options came from in
    error messages. Unknown names and bad options raise ``ContentError``."""
    factory = _RULESETS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ContentError(
            "ruleset", "name", f"unknown ruleset {name!r}; known: {', '.join(list_rulesets())}"
        )
    return factory(options, file=file)
