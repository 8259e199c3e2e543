"""Rulesets by name: the one list that ``play_match``, experiments, the benchmark, the test kits and
the CLI read.

``get_ruleset("arena", {"turn_limit": 60})`` builds the ruleset object with option overrides; an
unknown name is a ``ContentError`` listing the known ones (so ``ruleset="blast"`` fails loudly until
Blast is registered, instead of playing Arena).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
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


def unknown_ruleset(name: object, known: Sequence[str] | None = None) -> str:
    """The reason a ruleset name is refused: the near names among ``known`` (default: the registered
    rulesets), as boards and options suggest theirs, then every name."""
    names = list(known) if known is not None else list_rulesets()
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6) if isinstance(name, str) else []
    hint = f"; did you mean {' or '.join(repr(n) for n in close)}?" if close else ""
    return f"unknown ruleset {name!r}{hint}; known: {', '.join(names)}"


def get_ruleset(
    name: str = "arena", options: Mapping[str, Any] | None = None, *, file: str = "options"
) -> Ruleset:
    """The named ruleset with option ``options`` applied; ``file`` names where the options came from in
    error messages. Unknown names and bad options raise ``ContentError``."""
    factory = _RULESETS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ContentError("ruleset", "name", unknown_ruleset(name))
    return factory(options, file=file)
