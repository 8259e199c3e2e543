"""Test-only content built directly from the spec dataclasses (never added to the shipped data)."""

from __future__ import annotations

from krosbalance.content.specs import CharacterSpec, EffectSpec, PowerSpec, SpellSpec


def spell(
    id: str = "zap",
    kind: str = "attack",
    *,
    element: str = "fire",
    ap: int = 3,
    mp: int = 0,
    injuries: int = 0,
    range_type: str = "classic",
    rmin: int = 1,
    rmax: int = 3,
    amount: int = 1,
    area: str = "single",
    target: str = "any",
    effects: tuple[tuple[str, dict], ...] = (),
    needs_los: bool = True,
    fixed_range: bool = False,
    limit: str = "unlimited",
    summons: str | None = None,
    summon_control: int = 0,
) -> SpellSpec:
    """A spell with sensible test defaults (fire attack, 3 AP, classic 1-3, 1 damage)."""
    return SpellSpec(
        id=id,
        name=id.replace("_", " ").title(),
        kind=kind,
        element=element,
        ap_cost=ap,
        mp_cost=mp,
        injury_cost=injuries,
        range_min=rmin,
        range_max=rmax,
        range_type=range_type,
        needs_los=needs_los,
        fixed_range=fixed_range,
        limit=limit,
        amount=amount,
        area=area,
        target=target,
        effects=tuple(EffectSpec(kind, dict(params)) for kind, params in effects),
        summons=summons,
        summon_control=summon_control,
    )


def character(
    id: str = "dummy",
    *,
    kind: str = "krosmaster",
    level: int = 3,
    initiative: int = 5,
    mp: int = 3,
    hp: int = 10,
    ap: int = 6,
    powers: tuple[str | tuple[str, dict], ...] = (),
    spells: tuple[SpellSpec, ...] = (),
    colour: str = "white",
) -> CharacterSpec:
    """A character card; a power is a keyword or ``(keyword, params)``."""
    power_specs = tuple(PowerSpec(p) if isinstance(p, str) else PowerSpec(p[0], dict(p[1])) for p in powers)
    return CharacterSpec(
        id=id,
        name=id.replace("_", " ").title(),
        kind=kind,
        level=level,
        initiative=initiative,
        mp=mp,
        hp=hp,
        ap=ap,
        powers=power_specs,
        spells=spells,
        colour=colour,
    )


#: Globulo Lacanaglia (FAQ R-A167): 7 AP, 14 HP, "Life Transfer" costs 4 injuries + 5 AP.
GLOBULO = character(
    "globulo",
    hp=14,
    ap=7,
    spells=(spell("life_transfer", ap=5, injuries=4, rmin=1, rmax=3, amount=1),),
)

#: A trap token: no HP, Unfazed, casts 1 fire damage on the cell it sits on (R-A116).
TRAP = character(
    "test_trap",
    kind="trap",
    level=0,
    initiative=0,
    mp=0,
    hp=0,
    ap=0,
    powers=("unfazed",),
    spells=(spell("snap", range_type="personal", rmin=0, rmax=0, ap=0, amount=1),),
)

#: A Krosmaster who lays that trap on a free cell 1-3 away (control 1).
TRAPPER = character(
    "trapper",
    initiative=4,
    spells=(
        spell(
            "lay_trap",
            kind="summon",
            ap=2,
            rmin=1,
            rmax=3,
            amount=0,
            target="free_cell",
            summons="test_trap",
            summon_control=1,
        ),
    ),
)

#: Gultard (FAQ R-A170): "Charge", the caster approaches the selected character by 2 cells.
GULTARD = character(
    "gultard",
    spells=(
        spell(
            "charge", kind="special", ap=2, rmin=1, rmax=6, amount=0, effects=(("approach", {"cells": 2}),)
        ),
    ),
)
