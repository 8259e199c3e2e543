"""What an experiment file may name: characters, boards, AIs, rulesets, and the team rules.

Experiment validation asks a ``Catalog`` instead of importing the registries directly, so the parsing
and expansion code can be tested with a small fake catalog and the registries are only imported when an
experiment is actually checked against the real content.

The ruleset of an arm (the experiment's ruleset with one arm's options) is built by
:func:`arm_ruleset`, once per process and arm: validation asks that object for the team rules and
the deals, the expansion's pregame deals and picks boards with it, and every match of the arm is
played with it (``krosbalance.sim.match.play_spec``), so ``validate`` checks what ``run`` plays.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from krosbalance.ai.registry import ai_problem, list_ais
from krosbalance.content.registry import default_registry, list_boards, list_characters, load_character
from krosbalance.engine.restriction import elements_of
from krosbalance.errors import KrosbalanceError
from krosbalance.rulesets.registry import get_ruleset, list_rulesets

if TYPE_CHECKING:
    from krosbalance.rulesets.base import Ruleset

DEFAULT_BOARD = "arena-elemental"
DEFAULT_RULESET = "arena"
Team = tuple[str, ...]
Options = Mapping[str, Any] | None


def options_json(options: Options) -> str:
    """The canonical JSON of ruleset options (sorted keys, no spaces): the key of an arm's ruleset
    and the ``options_json`` of its match specs."""
    return json.dumps(dict(options or {}), sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=512)
def arm_ruleset(ruleset: str, options: str = "{}") -> Ruleset:
    """The ruleset object named ``ruleset`` with the options of the JSON text ``options`` (as
    :func:`options_json` writes it), built once per process and reused: the one builder of an
    experiment arm's rules for validation, expansion and play. Unknown names and bad options raise
    ``ContentError`` (not cached, so every caller sees the error)."""
    return get_ruleset(ruleset, json.loads(options))


class Catalog(Protocol):
    """The names an experiment can refer to, and the team rules of each ruleset."""

    def resolve_character(self, name: str) -> str:
        """The canonical id of a Krosmaster; raises KrosbalanceError when unknown or not a Krosmaster."""
        ...

    def check_team(self, ids: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None) -> None:
        """Raise ``TeamError`` when the team breaks the team rules of the ruleset with ``options``."""
        ...

    def legal_teams(
        self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> list[Team]:
        """Every legal team drawn from ``pool`` (a multiset of ids), in a stable order."""
        ...

    def all_teams(
        self, names: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> list[Team]:
        """Every legal team of these Krosmasters, each as many times as the rules allow (a player
        owning his own figures)."""
        ...

    def team_splits(
        self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> list[tuple[Team, Team]]:
        """Every split of ``pool`` into two legal teams (the first holds ``pool[0]``)."""
        ...

    def deal_problem(
        self, mode: str, pool: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> str:
        """Why ``pool`` cannot be dealt by ``mode`` under the ruleset, or '' when it can."""
        ...

    def characters(
        self, ruleset: str = DEFAULT_RULESET, *, set: str | None = None, tag: str | None = None
    ) -> list[str]:
        """Every Krosmaster whose cards the ruleset plays, optionally only one set's or one tag's."""
        ...

    def boards(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        """The boards made for the ruleset."""
        ...

    def ais(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        """The AIs that play the ruleset."""
        ...

    def ai_problem(self, name: str, ruleset: str = DEFAULT_RULESET, seats: int = 2) -> str:
        """Why the AI cannot play the ruleset with ``seats`` players (unknown, it does not play it,
        or it plays two players only), or ''."""
        ...

    def rulesets(self) -> list[str]: ...

    def seats(self, ruleset: str = DEFAULT_RULESET, options: Options = None) -> int:
        """How many players a match of the ruleset with ``options`` seats."""
        ...

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        """Raise ``LocatedError`` (field = option name) for an unknown or ill-typed ruleset option."""
        ...

    def rewards(self) -> list[str]:
        """Ids of the Demonic Reward tokens (for ``held_rewards``)."""
        ...

    def elements(self, character: str, ruleset: str = DEFAULT_RULESET, options: Options = None) -> list[str]:
        """The elements restricted play may forbid to a Krosmaster (``spell:<id>``, ``power:<kind>``,
        ``action:<name>``; :func:`krosbalance.engine.restriction.elements_of`)."""
        ...


class RegistryCatalog:
    """The catalog backed by the content, ruleset and AI registries (imported lazily); the team rules
    are those of the arm's ruleset object (:func:`arm_ruleset`)."""

    def resolve_character(self, name: str) -> str:
        spec = load_character(name)
        if spec.kind != "krosmaster":
            raise KrosbalanceError(f"{spec.id!r} is a {spec.kind}, not a Krosmaster")
        return spec.id

    def check_team(self, ids: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None) -> None:
        arm_ruleset(ruleset, options_json(options)).validate_team(list(ids))

    def legal_teams(
        self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> list[Team]:
        return arm_ruleset(ruleset, options_json(options)).legal_teams(pool)

    def all_teams(
        self, names: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> list[Team]:
        return arm_ruleset(ruleset, options_json(options)).all_teams(list(names))

    def team_splits(
        self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> list[tuple[Team, Team]]:
        return arm_ruleset(ruleset, options_json(options)).team_splits(pool)

    def deal_problem(
        self, mode: str, pool: Sequence[str], ruleset: str = DEFAULT_RULESET, options: Options = None
    ) -> str:
        return arm_ruleset(ruleset, options_json(options)).deal_problem(mode, pool)

    def characters(
        self, ruleset: str = DEFAULT_RULESET, *, set: str | None = None, tag: str | None = None
    ) -> list[str]:
        return list(list_characters("krosmaster", set=set, tag=tag, game=arm_ruleset(ruleset).card_game))

    def boards(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        return list(list_boards(ruleset))

    def ais(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        return list(list_ais(ruleset))

    def rulesets(self) -> list[str]:
        return list_rulesets()

    def seats(self, ruleset: str = DEFAULT_RULESET, options: Options = None) -> int:
        return arm_ruleset(ruleset, options_json(options)).seats

    def ai_problem(self, name: str, ruleset: str = DEFAULT_RULESET, seats: int = 2) -> str:
        return ai_problem(name, ruleset, seats)

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        arm_ruleset(ruleset, options_json(options))

    def rewards(self) -> list[str]:
        return default_registry().list_rewards()

    def elements(self, character: str, ruleset: str = DEFAULT_RULESET, options: Options = None) -> list[str]:
        return elements_of(load_character(character), arm_ruleset(ruleset, options_json(options)))
