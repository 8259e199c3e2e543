"""Shared helpers of the Blast rule tests: characters picked by role from the Blast content, never by
a hand-kept list of the box."""

from __future__ import annotations

from krosbalance.content.registry import default_registry


def blast_krosmasters() -> list[str]:
    """Every Krosmaster with a Blast card, by id."""
    registry = default_registry()
    return registry.list_characters("krosmaster", game="blast")
