"""The experiment file's arm tables: ``[[variants]]``, ``patch``, ``[sweep]``, ``[restricted]``
(via :mod:`krosbalance.sim.restricted`), ``held_rewards``, ``reward_holders``,
``purchase_rewards`` and ``[fix]``, each checked with every problem on its own field. What they
build is put together as :class:`krosbalance.sim.arms.Arm` (one place: ``Experiment.arms_of``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance.content.blast import blast_cards
from krosbalance.errors import ContentError, ExperimentError, KrosbalanceError, LocatedError
from krosbalance.paths import name_problem
from krosbalance.sim.arms import variant_options
from krosbalance.sim.catalog import Catalog
from krosbalance.sim.design import DEALT_MODES
from krosbalance.sim.file_problems import (
    _ask,
    _blame,
    _get,
    _Problems,
    _type_name,
    _unknown_keys,
    content_problem,
    unknown_name,
)
from krosbalance.sim.fix_table import FIX_ARMS, parse_fix
from krosbalance.sim.restricted import VARIANT_KEYS, restricted_variants
from krosbalance.sim.reward_arms import parse_holders, parse_purchases
from krosbalance.sim.sweep import arm_patch, sweep_arms, sweep_held_rewards


def _parse_fix(
    data: Mapping[str, Any],
    file: str,
    variants: tuple[tuple[str, str], ...] | None,
    sweep: str,
    problems: _Problems,
) -> Any:
    """``[fix]``, read by the parser ``krosbalance fix`` uses (:func:`krosbalance.sim.fix_table.parse_fix`),
    so ``validate`` refuses what ``fix`` would; None when absent or wrong."""
    if "fix" not in data:
        return None
    if variants or sweep:
        problems.add("variants", FIX_ARMS)
    try:
        return parse_fix(data["fix"], file)
    except ExperimentError as exc:
        problems.add(exc.field, exc.reason)
    except KrosbalanceError as exc:
        problems.add("fix", str(exc))
    return None


def _parse_variants(
    data: Mapping[str, Any],
    options: Mapping[str, Any] | None,
    ruleset: str | None,
    problems: _Problems,
    catalog: Catalog,
) -> tuple[tuple[str, str], ...] | None:
    """``[[variants]]``: named arms, each with options merged over ``[options]`` and checked."""
    raw = _get(data, "variants", list, problems, default=[])
    if raw is None:
        return None
    arms: list[tuple[str, str]] = []
    for i, entry in enumerate(raw):
        prefix = f"variants[{i}]."
        if not isinstance(entry, dict):
            problems.add(f"variants[{i}]", f"must be a table with name and options, not {_type_name(entry)}")
            continue
        _unknown_keys(entry, ("name", "options", "patch", *VARIANT_KEYS), prefix, problems)
        name = _get(entry, "name", str, problems, prefix=prefix, required=True)
        extra = _get(entry, "options", dict, problems, prefix=prefix, default={})
        if name is not None and name_problem(name):
            problems.add(prefix + "name", name_problem(name))
            continue
        if name is not None and any(name == other for other, _ in arms):
            problems.add(prefix + "name", f"variant {name!r} is listed twice")
            continue
        if name is None or extra is None or options is None or ruleset is None:
            continue  # an arm of an unknown ruleset cannot be checked: it adds no problem of its own
        merged = {**options, **extra}
        if ruleset is not None:
            try:
                catalog.check_options(ruleset, merged)
            except KrosbalanceError as exc:
                _blame(problems, prefix + "options", exc)
                continue
        arms.append((name, json.dumps(merged, sort_keys=True, separators=(",", ":"))))
    arms.extend(restricted_variants(data, options, ruleset, problems, catalog, [a for a, _ in arms]))
    return tuple(arms)


def _parse_patch_arms(
    data: Mapping[str, Any],
    file: str,
    options: Mapping[str, Any] | None,
    variants: tuple[tuple[str, str], ...] | None,
    problems: _Problems,
) -> tuple[str, tuple[tuple[str, str], ...], str, tuple[tuple[str, str], ...] | None]:
    """The balance patches of the experiment: the top-level ``patch`` (every arm), each arm's own
    (``[[variants]]`` ``patch``) and the arms ``[sweep]`` adds, validated like content
    (:mod:`krosbalance.sim.sweep`). Returns (patch, arm patches, sweep JSON, variants)."""
    patch = ""
    if "patch" in data:
        try:
            patch = arm_patch(data["patch"], "patch", file)
        except ContentError as exc:
            _patch_problem(problems, "patch", exc)
    arm_patches: list[tuple[str, str]] = []
    raw = data.get("variants")
    for i, entry in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(entry, dict) and "patch" in entry and isinstance(entry.get("name"), str):
            try:
                arm_patches.append((entry["name"], arm_patch(entry["patch"], entry["name"], file)))
            except ContentError as exc:
                _patch_problem(problems, f"variants[{i}].patch", exc)
    sweep = ""
    if "sweep" in data:
        table = data["sweep"]
        if not isinstance(table, dict):
            problems.add(
                "sweep", f"must be a table with figure (or reward) and values, not {_type_name(table)}"
            )
        elif variants is not None and options is not None:
            try:
                arms, sweep = sweep_arms(table, file)
            except ContentError as exc:
                if content_problem(exc, file):  # a card the sweep reads does not load
                    problems.add("(content)", content_problem(exc, file))
                else:
                    problems.add(exc.field, exc.reason)
            else:
                named = {name for name, _ in variants}
                arm_options = json.dumps(dict(options), sort_keys=True, separators=(",", ":"))
                for arm, arm_json in arms:
                    if arm in named:
                        problems.add("sweep", f"generates arm {arm!r}, which [[variants]] names too")
                    arm_patches.append((arm, arm_json))
                variants = (*variants, *((arm, arm_options) for arm, _ in arms))
    return patch, tuple(arm_patches), sweep, variants


def _patch_problem(problems: _Problems, where: str, exc: ContentError) -> None:
    """A patch that does not load, on its field: a mistake of an inline table by its key; one of a
    patch file (or of a card the patch re-reads) with that file's own name."""
    if exc.field == "patch":  # not a patch at all (an unknown name, a value of the wrong type)
        problems.add(where, exc.reason)
    elif exc.file != problems.file:
        problems.add(where, str(exc))
    else:
        problems.add(where, f"{exc.field}: {exc.reason}")


def _sweep_prices(sweep: str, held: tuple[str, ...], problems: _Problems) -> tuple[str, ...]:
    """A reward sweep's prices are the held tokens it plays (``<token>@<kamas>``, one per price):
    the fair-price study (:mod:`krosbalance.sim.sweep`)."""
    priced = sweep_held_rewards(sweep)
    if not priced:
        return held
    if held:
        problems.add(
            "held_rewards", "sweep.values.price plays the held token itself; do not set held_rewards too"
        )
        return held
    return priced


def _check_challenge_patches(
    ruleset: str | None,
    options: Mapping[str, Any] | None,
    arm_patches: Sequence[tuple[str, str]],
    patch: str,
    problems: _Problems,
) -> None:
    """A patch's Divine Challenge tiers need Blast, and the challenge in play: otherwise it changes
    nothing (one line, not a silent no-op)."""
    texts = [text for _, text in arm_patches] + ([patch] if patch else [])
    changed = sorted({c for text in texts for c in json.loads(text).get("changes", {}).get("challenges", {})})
    if not changed or ruleset is None or options is None:
        return
    if not ruleset.startswith("blast"):
        problems.add(
            "sweep" if arm_patches else "patch",
            f"Divine Challenges are Blast's; ruleset {ruleset!r} has none",
        )
        return
    in_play = options.get("challenges", [])
    try:
        in_play_ids = set(blast_cards().resolve_challenges([str(n) for n in in_play]))
    except ContentError:
        return  # the options' own check names the bad challenge
    for challenge in changed:
        if challenge not in in_play_ids:
            problems.add(
                "options.challenges",
                f"the patched challenge {challenge!r} is not in play: add it to [options] challenges",
            )


def _parse_reward_arms(
    data: Mapping[str, Any], problems: _Problems, catalog: Catalog, held: Sequence[str]
) -> tuple[str, tuple[str, ...]]:
    """``reward_holders`` and ``purchase_rewards`` (:mod:`krosbalance.sim.reward_arms`)."""
    teams = data.get("teams")
    dealt = isinstance(teams, Mapping) and teams.get("mode") in DEALT_MODES
    holders = parse_holders(data, dealt, held, problems.add)
    known = _ask(catalog.rewards, "purchase_rewards", problems) if "purchase_rewards" in data else None
    return holders, parse_purchases(data, known, problems.add)


def _parse_held_rewards(data: Mapping[str, Any], problems: _Problems, catalog: Catalog) -> tuple[str, ...]:
    """``held_rewards``: "all" or a list of Demonic Reward ids (the reward-value study); an entry
    ``<id>@<kamas>`` is held at that price (paid by team A, ``start_reward_prices``: the fair-price
    sweep writes these)."""
    held = _get(data, "held_rewards", (str, list), problems, default=[])
    if held is None or held == []:
        return ()
    known = _ask(catalog.rewards, "held_rewards", problems)
    if known is None:
        return ()
    if isinstance(held, str):
        if held != "all":
            problems.add("held_rewards", f'must be "all" or a list of reward ids, not {held!r}')
            return ()
        return tuple(known)
    out: list[str] = []
    for i, item in enumerate(held):
        token, at, price = item.partition("@") if isinstance(item, str) else ("", "", "")
        digits = price.removesuffix("gg")
        if at and not (digits.isdigit() and int(digits) <= 99):  # "<token>@<kamas>" / "@<n>gg"
            problems.add(
                f"held_rewards[{i}]", f"{item!r}: the price after '@' must be 0 to 99 kamas (or '<n>gg')"
            )
        elif not isinstance(item, str) or token not in known:
            problems.add(
                f"held_rewards[{i}]", unknown_name("reward", item, known, "krosbalance list rewards")
            )
        elif item in out:
            problems.add(f"held_rewards[{i}]", f"{item!r} is listed twice")
        else:
            out.append(item)
    return tuple(out)


def _check_held_options(
    held: Sequence[str], arms: Sequence[tuple[str, str]], ruleset: str, problems: _Problems, catalog: Catalog
) -> None:
    """Each arm's rules with each held token (option ``start_rewards``) are the rules its reward
    matches play: build them now, so a ruleset without that option fails validation, not the run."""
    for _, arm_options in arms:
        for token in held:
            for swapped in (False, True):
                try:
                    catalog.check_options(
                        ruleset, json.loads(variant_options(json.loads(arm_options), token, swapped))
                    )
                except KrosbalanceError as exc:
                    if content_problem(exc, problems.file):
                        problems.add("(content)", content_problem(exc, problems.file))
                        return
                    if not isinstance(exc, LocatedError):
                        problems.add(
                            "held_rewards",
                            f"ruleset {ruleset!r} refuses the options it sets ({token!r}): {exc}",
                        )
                        return
                    where = f"the option {exc.field.removeprefix('options.')} it sets"
                    problems.add(
                        "held_rewards", f"ruleset {ruleset!r} refuses {where} ({token!r}): {exc.reason}"
                    )
                    return
