"""Patch arms of an experiment: ``patch = ...`` on a ``[[variants]]`` arm, and ``[sweep]``.

An arm's ``patch`` is a shipped patch's name, a patch file's path (relative to the experiment file)
or an inline table in the layout of a patch file (``{ characters = { anna_tommy = { hp = 13 } } }``);
it is validated like content (``krosbalance.sim.patches``). A ``[sweep]`` generates one arm per point
of a grid of card values of one figure (or one Demonic Reward), each arm a patch::

    [sweep]
    figure = "anna_tommy"                     # or reward = "xelor_style", challenge = "..."
    values = { hp = [10, 12, 14, 16] }        # field path -> the values to play; several paths
                                              # are crossed (every combination is an arm)
    # paths: hp, ap, mp, initiative, spells.<spell>.<field>, powers.<kind> (true/false);
    # for a reward: rank, effects.<n>.<param>, and price (kamas, see below);
    # for a Divine Challenge (Blast): bonuses.<bonus>.tier (glyph cells, 1 to 8)

A reward's ``price`` (or ``price_gg``: the price in GG, given back to the box) is not a patch: each deal is played without the token and once per price
with team A holding the token from the start and paying that many kamas for it (the Arena option
``start_reward_prices``; a debt when team A has fewer kamas). The prices are the experiment's
``held_rewards`` entries ``<token>@<kamas>`` (:func:`price_variant`), nested inside each arm the
other swept paths generate, so the no-token match of a deal is played once per arm, not once per
price. The fair-price analysis is :mod:`krosbalance.studies.rewards.fair_price`.

The arms are named ``<path>-<value>`` (joined by ``__`` for several paths) and keep the experiment's
``[options]``; they are paired on the same seeds as every arm. The sweep's grid is recorded in the
experiment (``Experiment.sweep``, JSON) so the analysis knows which value each arm played.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from krosbalance.content.blast import blast_cards
from krosbalance.content.registry import default_registry
from krosbalance.errors import ContentError
from krosbalance.sim.patched_cards import apply_patch
from krosbalance.sim.patches import load_patch, merge_patches, parse_patch

SWEEP_KEYS: tuple[str, ...] = ("figure", "reward", "challenge", "values")
TARGETS: tuple[str, ...] = ("figure", "reward", "challenge")
SECTIONS: dict[str, str] = {"figure": "characters", "reward": "rewards", "challenge": "challenges"}
PRICE = "price"
"""The reward sweep's path for the kamas team A pays for the held token (not a patch field)."""
PRICE_GG = "price_gg"
"""The same price in GG, given back to the box (``start_reward_gg_prices``)."""
MAX_PRICE = 99
MAX_POINTS = 64
"""Arms one sweep may generate (each multiplies the experiment's matches)."""


def arm_patch(raw: Any, arm: str, file: str) -> str:
    """The canonical JSON of an arm's ``patch`` (a name, a path or an inline table); raises
    ``ContentError`` naming the field."""
    base = Path(file).parent if file and not file.startswith("<") else None
    if isinstance(raw, str):
        return load_patch(raw, base=base).json
    if isinstance(raw, dict):
        return parse_patch(raw, file, name=arm).json
    raise ContentError(file, "patch", f"must be a patch name, a .toml path or a table, not {raw!r}")


def nested_change(path: str, value: Any) -> dict[str, Any]:
    """``"spells.transposition.ap_cost", 0`` -> ``{"spells": {"transposition": {"ap_cost": 0}}}``."""
    out: Any = value
    for part in reversed(path.split(".")):
        out = {part: out}
    return dict(out)


def _value_label(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def sweep_arms(sweep: Mapping[str, Any], file: str) -> tuple[list[tuple[str, str]], str]:
    """The arms of a ``[sweep]`` table, ``[(arm name, patch JSON)]``, and the sweep's description
    (JSON: target, fields, each arm's values); ``ContentError(file, "sweep.<key>", reason)`` for
    the first problem."""
    for key in sweep:
        if key not in SWEEP_KEYS:
            raise ContentError(file, f"sweep.{key}", f"unknown key; expected one of: {', '.join(SWEEP_KEYS)}")
    targets = [k for k in TARGETS if k in sweep]
    if len(targets) != 1:
        raise ContentError(file, "sweep", "give exactly one of sweep.figure, sweep.reward or sweep.challenge")
    kind = targets[0]
    name = sweep[kind]
    if not isinstance(name, str):
        raise ContentError(file, f"sweep.{kind}", f"must be a name, not {name!r}")
    registry = default_registry()
    try:
        if kind == "figure":
            target = registry.load_character(name).id
        elif kind == "reward":
            target = registry.load_reward(name).id
        else:
            target = blast_cards().challenge(name).id
    except ContentError as exc:
        if exc.file.endswith(".toml"):  # a content file that does not load: not the name's fault
            raise
        raise ContentError(file, f"sweep.{kind}", exc.reason) from None
    section = SECTIONS[kind]
    values = sweep.get("values")
    if not isinstance(values, dict) or not values:
        raise ContentError(
            file, "sweep.values", "must be a table of field path = [values], e.g. { hp = [10, 12, 14] }"
        )
    grids: list[tuple[str, list[Any]]] = []
    for path, grid in values.items():
        if not isinstance(grid, list) or not grid:
            raise ContentError(
                file, f"sweep.values.{path}", f"must be a non-empty array of values, not {grid!r}"
            )
        if len(set(map(json.dumps, grid))) != len(grid):
            raise ContentError(file, f"sweep.values.{path}", f"lists a value twice: {grid!r}")
        if path in (PRICE, PRICE_GG):
            where = f"sweep.values.{path}"
            if kind != "reward":
                raise ContentError(file, where, "a price is swept for a reward (sweep.reward)")
            unit = "kamas" if path == PRICE else "GG"
            for v in grid:
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_PRICE:
                    raise ContentError(
                        file, where, f"{v!r}: a price is a whole number of {unit}, 0 to {MAX_PRICE}"
                    )
            continue
        grids.append((str(path), list(grid)))
    if PRICE in values and PRICE_GG in values:
        raise ContentError(file, "sweep.values", "sweep price (kamas) or price_gg (GG), not both")
    unit = "gg" if PRICE_GG in values else "kamas"
    prices = [int(v) for v in values.get(PRICE_GG if unit == "gg" else PRICE, [])]
    points = list(itertools.product(*(grid for _, grid in grids))) if grids else []
    if len(points) * max(1, len(prices)) > MAX_POINTS:
        raise ContentError(
            file,
            "sweep.values",
            f"{len(points) * max(1, len(prices))} grid points; a sweep plays at most {MAX_POINTS}",
        )
    if len(points) > MAX_POINTS:
        raise ContentError(
            file, "sweep.values", f"{len(points)} grid points; a sweep plays at most {MAX_POINTS}"
        )
    arms: list[tuple[str, str]] = []
    described: list[dict[str, Any]] = []
    for point in points:
        arm = "__".join(f"{path}-{_value_label(v)}" for (path, _), v in zip(grids, point, strict=True))
        parts = []
        for (path, _), v in zip(grids, point, strict=True):
            try:
                parts.append(
                    parse_patch(
                        {section: {target: nested_change(path, v)}}, file, name=arm, registry=registry
                    )
                )
            except ContentError as exc:
                raise ContentError(file, f"sweep.values.{path}", f"{v!r}: {exc.reason}") from None
        patch = merge_patches(arm, parts)
        try:
            parse_patch_again(patch, file, registry)
        except ContentError as exc:
            raise ContentError(file, "sweep.values", f"point {arm}: {exc.reason}") from None
        arms.append((arm, patch.json))
        described.append({"arm": arm, "values": {path: v for (path, _), v in zip(grids, point, strict=True)}})
    meta: dict[str, Any] = {
        "kind": kind,
        "target": target,
        "fields": [path for path, _ in grids],
        "points": described,
    }
    if prices:
        meta["prices"] = prices
        meta["price_unit"] = unit
    return arms, json.dumps(meta, sort_keys=True)


def price_variant(token: str, price: int, unit: str = "kamas") -> str:
    """The ``held_rewards`` entry of a token held at a price: ``<token>@<kamas>`` or ``<token>@<n>gg``."""
    return f"{token}@{price}gg" if unit == "gg" else f"{token}@{price}"


def held_price(entry: str) -> tuple[str, int | None, str]:
    """(token, price, unit) of a ``held_rewards`` entry (unit ``kamas`` or ``gg``); the price is
    None for a free token and for an entry whose price is not a whole number."""
    token, at, price = entry.partition("@")
    unit = "gg" if price.endswith("gg") else "kamas"
    digits = price.removesuffix("gg")
    return (token, int(digits) if at and digits.isdigit() else None, unit)


def sweep_held_rewards(sweep_json: str) -> tuple[str, ...]:
    """The held-token entries a price sweep plays (one per price), () when it sweeps no price."""
    meta = describe(sweep_json)
    unit = meta.get("price_unit", "kamas")
    return tuple(price_variant(meta["target"], p, unit) for p in meta.get("prices", []))


def parse_patch_again(patch: Any, file: str, registry: Any) -> None:
    """A combination of valid single changes may break a card's rules together (range_min above a
    new range_max): the merged patch is applied, hence re-read by the loader, once more."""
    apply_patch(patch, registry)


def sweep_points(sweep_json: str) -> list[dict[str, Any]]:
    """``[{"arm": name, "values": {path: value}}]`` of an experiment's sweep ('' = none)."""
    return list(json.loads(sweep_json)["points"]) if sweep_json else []


def describe(sweep_json: str) -> dict[str, Any]:
    return dict(json.loads(sweep_json)) if sweep_json else {}


__all__ = [
    "MAX_POINTS",
    "PRICE",
    "PRICE_GG",
    "arm_patch",
    "describe",
    "held_price",
    "nested_change",
    "price_variant",
    "sweep_arms",
    "sweep_held_rewards",
    "sweep_points",
]
