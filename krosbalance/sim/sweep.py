"""Patch arms of an experiment: ``patch = ...`` on a ``[[variants]]`` arm, and ``[sweep]``.

An arm's ``patch`` is a shipped patch's name, a patch file's path (relative to the experiment file)
or an inline table in the layout of a patch file (``{ characters = { anna_tommy = { hp = 13 } } }``);
it is validated like content (``krosbalance.sim.patches``). A ``[sweep]`` generates one arm per point
of a grid of card values of one figure (or one Demonic Reward), each arm a patch::

    [sweep]
    figure = "anna_tommy"                     # or reward = "xelor_style"
    values = { hp = [10, 12, 14, 16] }        # field path -> the values to play; several paths
                                              # are crossed (every combination is an arm)
    # paths: hp, ap, mp, initiative, spells.<spell>.<field>, powers.<kind> (true/false);
    # for a reward: rank, effects.<n>.<param>

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

from krosbalance.errors import ContentError

SWEEP_KEYS: tuple[str, ...] = ("figure", "reward", "values")
MAX_POINTS = 64
"""Arms one sweep may generate (each multiplies the experiment's matches)."""


def arm_patch(raw: Any, arm: str, file: str) -> str:
    """The canonical JSON of an arm's ``patch`` (a name, a path or an inline table); raises
    ``ContentError`` naming the field."""
    from krosbalance.sim.patches import load_patch, parse_patch

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
    from krosbalance.content.registry import default_registry
    from krosbalance.sim.patches import merge_patches, parse_patch

    for key in sweep:
        if key not in SWEEP_KEYS:
            raise ContentError(file, f"sweep.{key}", f"unknown key; expected one of: {', '.join(SWEEP_KEYS)}")
    targets = [k for k in ("figure", "reward") if k in sweep]
    if len(targets) != 1:
        raise ContentError(file, "sweep", "give exactly one of sweep.figure or sweep.reward")
    kind = targets[0]
    name = sweep[kind]
    if not isinstance(name, str):
        raise ContentError(file, f"sweep.{kind}", f"must be a name, not {name!r}")
    registry = default_registry()
    try:
        target = registry.load_character(name).id if kind == "figure" else registry.load_reward(name).id
    except ContentError as exc:
        raise ContentError(file, f"sweep.{kind}", exc.reason) from None
    section = "characters" if kind == "figure" else "rewards"
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
        grids.append((str(path), list(grid)))
    points = list(itertools.product(*(grid for _, grid in grids)))
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
    meta = {"kind": kind, "target": target, "fields": [path for path, _ in grids], "points": described}
    return arms, json.dumps(meta, sort_keys=True)


def parse_patch_again(patch: Any, file: str, registry: Any) -> None:
    """A combination of valid single changes may break a card's rules together (range_min above a
    new range_max): the merged patch is applied, hence re-read by the loader, once more."""
    from krosbalance.sim.patches import apply_patch

    apply_patch(patch, registry)


def sweep_points(sweep_json: str) -> list[dict[str, Any]]:
    """``[{"arm": name, "values": {path: value}}]`` of an experiment's sweep ('' = none)."""
    return list(json.loads(sweep_json)["points"]) if sweep_json else []


def describe(sweep_json: str) -> dict[str, Any]:
    return dict(json.loads(sweep_json)) if sweep_json else {}


__all__ = ["MAX_POINTS", "arm_patch", "describe", "nested_change", "sweep_arms", "sweep_points"]
