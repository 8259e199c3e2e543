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


class Catalog(Protocol):
    """The names an experiment can refer to, and the team-building rules."""

    def resolve_character(self, name: str) -> str:
        """The canonical id of a Krosmaster; raises KrosbalanceError when unknown or not a Krosmaster."""
        ...

    def level(self, character_id: str) -> int: ...

    def check_team(self, ids: Sequence[str]) -> None:
        """Raise ``TeamError`` when the team breaks the team-building rules."""
        ...

    def characters(self) -> list[str]: ...

    def boards(self) -> list[str]: ...

    def ais(self) -> list[str]: ...

    def rulesets(self) -> list[str]: ...

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        """Raise ``LocatedError`` (field = option name) for an unknown or ill-typed ruleset option."""
        ...

    def rewards(self) -> list[str]:
        """Ids of the Demonic Reward tokens (for ``held_rewards``)."""
        ...


class RegistryCatalog:
    """The catalog backed by the content, ruleset and AI registries (imported lazily)."""

    def resolve_character(self, name: str) -> str:
        from krosbalance.content.registry import load_character

        spec = load_character(name)
        if spec.kind != "krosmaster":
            raise KrosbalanceError(f"{spec.id!r} is a {spec.kind}, not a Krosmaster")
        return spec.id

    def level(self, character_id: str) -> int:
        from krosbalance.content.registry import load_character

        return load_character(character_id).level

    def check_team(self, ids: Sequence[str]) -> None:
        from krosbalance.rulesets.arena import validate_team

        validate_team(list(ids))

    def characters(self) -> list[str]:
        from krosbalance.content.registry import list_characters

        return list(list_characters("krosmaster"))

    def boards(self) -> list[str]:
        from krosbalance.content.registry import list_boards

        return list(list_boards())

    def ais(self) -> list[str]:
        from krosbalance.ai.registry import list_ais

        return list(list_ais())

    def rulesets(self) -> list[str]:
        # play_match plays the Arena rules; Duel and Blast join when it takes a ruleset argument.
        return [DEFAULT_RULESET]

    def check_options(self, ruleset: str, options: Mapping[str, Any]) -> None:
        from krosbalance.rulesets.options import load_ruleset

        load_ruleset(ruleset, dict(options))

    def rewards(self) -> list[str]:
        from krosbalance.content.registry import default_registry

        return default_registry().list_rewards()
