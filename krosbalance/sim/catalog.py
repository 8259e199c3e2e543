"""What an experiment file may name: characters, boards, AIs, rulesets, and the team rules.

Experiment validation asks a ``Catalog`` instead of importing the registries directly, so the parsing
and expansion code can be tested with a small fake catalog and the registries are only imported when an
experiment is actually checked against the real content.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from krosbalance.errors import KrosbalanceError

DEFAULT_BOARD = "arena-elemental"
DEFAULT_RULESET = "arena"
Team = tuple[str, ...]


class Catalog(Protocol):
    """The names an experiment can refer to, and the team rules of each ruleset."""

    def resolve_character(self, name: str) -> str:
        """The canonical id of a Krosmaster; raises KrosbalanceError when unknown or not a Krosmaster."""
        ...

    def check_team(self, ids: Sequence[str], ruleset: str = DEFAULT_RULESET) -> None:
        """Raise ``TeamError`` when the team breaks the ruleset's team rules."""
        ...

    def legal_teams(self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET) -> list[Team]:
        """Every legal team drawn from ``pool`` (a multiset of ids), in a stable order."""
        ...

    def team_splits(self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET) -> list[tuple[Team, Team]]:
        """Every split of ``pool`` into two legal teams (the first holds ``pool[0]``)."""
        ...

    def deal_problem(self, mode: str, pool: Sequence[str], ruleset: str = DEFAULT_RULESET) -> str:
        """Why ``pool`` cannot be dealt by ``mode`` under the ruleset, or '' when it can."""
        ...

    def characters(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        """Every Krosmaster whose cards the ruleset plays."""
        ...

    def boards(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        """The boards made for the ruleset."""
        ...

    def ais(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        """The AIs that play the ruleset."""
        ...

    def rulesets(self) -> list[str]: ...

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        """Raise ``LocatedError`` (field = option name) for an unknown or ill-typed ruleset option."""
        ...

    def rewards(self) -> list[str]:
        """Ids of the Demonic Reward tokens (for ``held_rewards``)."""
        ...


class RegistryCatalog:
    """The catalog backed by the content, ruleset and AI registries (imported lazily); the team rules
    are the ruleset's own (``krosbalance.rulesets.registry``)."""

    def resolve_character(self, name: str) -> str:
        from krosbalance.content.registry import load_character

        spec = load_character(name)
        if spec.kind != "krosmaster":
            raise KrosbalanceError(f"{spec.id!r} is a {spec.kind}, not a Krosmaster")
        return spec.id

    def check_team(self, ids: Sequence[str], ruleset: str = DEFAULT_RULESET) -> None:
        from krosbalance.rulesets.registry import get_ruleset

        get_ruleset(ruleset).validate_team(list(ids))

    def legal_teams(self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET) -> list[Team]:
        from krosbalance.rulesets.registry import get_ruleset

        return get_ruleset(ruleset).legal_teams(pool)

    def team_splits(self, pool: Sequence[str], ruleset: str = DEFAULT_RULESET) -> list[tuple[Team, Team]]:
        from krosbalance.rulesets.registry import get_ruleset

        return get_ruleset(ruleset).team_splits(pool)

    def deal_problem(self, mode: str, pool: Sequence[str], ruleset: str = DEFAULT_RULESET) -> str:
        from krosbalance.rulesets.registry import get_ruleset

        return get_ruleset(ruleset).deal_problem(mode, pool)

    def characters(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        from krosbalance.content.registry import list_characters
        from krosbalance.rulesets.registry import get_ruleset

        return list(list_characters("krosmaster", game=get_ruleset(ruleset).card_game))

    def boards(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        from krosbalance.content.registry import list_boards

        return list(list_boards(ruleset))

    def ais(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        from krosbalance.ai.registry import list_ais

        return list(list_ais(ruleset))

    def rulesets(self) -> list[str]:
        from krosbalance.rulesets.registry import list_rulesets

        return list_rulesets()

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        from krosbalance.rulesets.registry import get_ruleset

        get_ruleset(ruleset, dict(options))

    def rewards(self) -> list[str]:
        from krosbalance.content.registry import default_registry

        return default_registry().list_rewards()
