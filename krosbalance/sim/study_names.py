"""Every name a study table holds is one its arms play, or the study is refused in one line per name.

A study table names figures, rewards and values to measure: a ``[sweep]``'s figure or reward, a
balance patch's cards (``patch``, ``[[variants]]`` ``patch``), a restricted figure (``forbid``,
``[restricted]``), ``[fix]``'s figures, forbidden values and fields, a reward holder
(``start_reward_holders``), a team ladder's collection. A name that exists in the content but that no
match of the experiment fields — a swept figure outside the pool — would make every arm play the
same matches: the study would run to the end, exit 0 and measure nothing. :func:`unplayed_names`
checks each name against what the arms play (the teams of every pairing, the rewards a market
offers) and returns one problem per name, with the near names in play ("did you mean").

``check_experiment`` calls it once the pairings are known (so ``validate``, ``run``, ``fix`` and a
team ladder refuse the same files) and the trial calls it again for what only ``run`` adds (the
``--patch`` of the command line).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from krosbalance.sim.catalog import arm_ruleset
from krosbalance.sim.design import DEALT_MODES
from krosbalance.sim.file_problems import MAX_LISTED, close_names, did_you_mean, unknown_name
from krosbalance.sim.fix_table import knobs_of
from krosbalance.sim.restricted import KINDS, forbid_map
from krosbalance.sim.sweep import describe, sweep_points

if TYPE_CHECKING:
    from krosbalance.sim.design import Experiment
    from krosbalance.sim.fix_table import FixSpec


def played_figures(experiment: Experiment) -> set[str]:
    """The figures some match of the experiment fields: every team of every pairing (a dealt or
    drawn mode's pairing is its pool), and a team ladder's rated teams and field."""
    figures = {c for pairing in experiment.pairings for team in pairing for c in team}
    if experiment.ladder:
        settings = json.loads(experiment.ladder)
        figures |= {c for key in ("teams", "field", "mine") for team in settings.get(key, []) for c in team}
    return figures


SAME_MATCHES = "so every arm would play the same matches"


def _not_played(figure: str, figures: set[str], consequence: str = SAME_MATCHES) -> str:
    listed = sorted(figures)
    field = ", ".join(listed) if len(listed) <= MAX_LISTED else f"{len(listed)} figures"
    return (
        f"{figure!r} plays in no team of this experiment, {consequence}"
        f"{did_you_mean(figure, listed)}; the teams field {field}"
    )


def _has_market(experiment: Experiment) -> bool:
    """Whether some arm's matches lay out Demonic Rewards (the market, a held or a bought token)."""
    if experiment.held_rewards or experiment.purchase_rewards:
        return True
    return any(
        bool(getattr(arm_ruleset(experiment.ruleset, options), "rewards", False))
        for _, options in experiment.arms
    )


def _patch_problems(
    experiment: Experiment, where: str, text: str, figures: set[str]
) -> list[tuple[str, str]]:
    """A patch that changes nothing the arms play: every card it changes is out of play."""
    changes = json.loads(text).get("changes", {})
    characters = sorted(changes.get("characters", {}))
    rewards = sorted(changes.get("rewards", {}))
    if changes.get("challenges"):  # the challenge in play is checked with the options
        return []
    if any(c in figures for c in characters):
        return []
    if rewards and _has_market(experiment):
        return []
    if characters:
        return [(where, f"changes only {', '.join(characters)}: {_not_played(characters[0], figures)}")]
    if rewards:
        return [
            (
                where,
                f"changes only the Demonic Reward(s) {', '.join(rewards)}, and no arm plays Demonic Rewards "
                "(set [options] demonic_rewards = true, or held_rewards / purchase_rewards)",
            )
        ]
    return []


def _sweep_problems(experiment: Experiment, figures: set[str]) -> list[tuple[str, str]]:
    meta = describe(experiment.sweep)
    if meta.get("kind") == "figure" and meta["target"] not in figures:
        return [("sweep.figure", _not_played(meta["target"], figures))]
    if meta.get("kind") == "reward" and not _has_market(experiment):
        return [
            (
                "sweep.reward",
                f"{meta['target']!r} is a Demonic Reward and no arm plays Demonic Rewards, so every arm "
                "would play the same matches (set [options] demonic_rewards = true, or sweep its price)",
            )
        ]
    return []


def _forbid_problems(experiment: Experiment, figures: set[str]) -> list[tuple[str, str]]:
    """A restricted figure (``forbid`` of a variant, ``[restricted]``) that no team fields."""
    out: list[tuple[str, str]] = []
    said: set[str] = set()
    for arm, text in experiment.forbids:
        for figure in forbid_map(text):
            if figure in figures or figure in said:
                continue
            said.add(figure)
            generated = arm.startswith(f"{figure}-") and arm[len(figure) + 1 :].split("-", 1)[0] in KINDS
            where = "restricted.figures" if generated else f"{_variant(experiment, arm)}.forbid.{figure}"
            out.append((where, _not_played(figure, figures)))
    return out


def _holder_problems(experiment: Experiment) -> list[tuple[str, str]]:
    """``start_reward_holders`` names, for each side, a Krosmaster of the team on that side: in
    every match, whichever team the seating puts there."""
    if experiment.ladder:  # a ladder's later stages play other teams: its own checks hold
        return []
    seats = experiment.seats
    on_side: list[set[tuple[str, ...]]] = [set() for _ in range(seats)]
    for pairing in experiment.pairings:
        for seating in experiment.seatings:
            for seat in range(seats):
                k = (seat ^ seating) if seats == 2 else (seat + seating) % seats
                on_side[seat].add(tuple(pairing[k % len(pairing)]))
    out: list[tuple[str, str]] = []
    for i, (arm, options) in enumerate(experiment.arms):
        holders = json.loads(options).get("start_reward_holders")
        if not isinstance(holders, list):
            continue
        where = f"variants[{i}].options.start_reward_holders" if arm else "options.start_reward_holders"
        for side, names in enumerate(holders[:seats]):
            for name in names if isinstance(names, list) else []:
                if not name:
                    continue  # '' = the player chooses
                if experiment.mode in DEALT_MODES:
                    teams = [set(t) for t in on_side[side]]
                    missing = [] if any(name in t for t in teams) else ["the pool"]
                else:
                    missing = ["+".join(t) for t in sorted(on_side[side]) if name not in t]
                if missing:
                    fielded = sorted({c for t in on_side[side] for c in t} - {name})
                    out.append(
                        (
                            f"{where}[{side}]",
                            f"{name!r} is not on side {side}'s team in every match (not in "
                            f"{missing[0]}{' and others' if len(missing) > 1 else ''})"
                            f"{did_you_mean(name, fielded)}",
                        )
                    )
    return out


def _fix_problems(experiment: Experiment, fix: FixSpec, figures: set[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for i, figure in enumerate(fix.figures):
        if figure not in figures:
            out.append((f"fix.figures[{i}]", _not_played(figure, figures, "so the fix cannot measure it")))
    for figure in dict.fromkeys(f for f, _ in fix.forbid):
        if figure not in figures:
            out.append(("fix.forbid", _not_played(figure, figures, "so there is nothing to forbid")))
    chosen = [f for f in (fix.figures or sorted(figures)) if f in figures]
    forbidden = set(fix.forbid)
    for name in fix.fields:
        if chosen and not any(
            (figure, knob) not in forbidden for figure in chosen for knob in knobs_of(figure, [name])
        ):
            out.append(
                (
                    "fix.fields",
                    f"{name!r}: no figure the fix may change has such a value (figures: "
                    f"{', '.join(chosen) if len(chosen) <= MAX_LISTED else f'{len(chosen)}'}; fix.forbid "
                    "leaves out the rest), so it would probe nothing",
                )
            )
    return out


def _collection_problems(experiment: Experiment) -> list[tuple[str, str]]:
    if not experiment.ladder:
        return []
    settings = json.loads(experiment.ladder)
    rated = {c for team in settings.get("teams", []) for c in team}
    out: list[tuple[str, str]] = []
    for figure in dict.fromkeys(settings.get("owned", [])):
        if figure not in rated:
            out.append(
                (
                    "teams.collection",
                    f"figures.{figure}: {figure!r} is in no team the study rates (no legal team of "
                    f"{settings.get('rule', 'the team rule')} holds it with the others)",
                )
            )
    return out


def unplayed_names(experiment: Experiment, fix: FixSpec | None = None) -> list[tuple[str, str]]:
    """(field, reason) of every name of the experiment's study tables that no arm plays (see the
    module docstring); [] when every one is played."""
    figures = played_figures(experiment)
    out = _sweep_problems(experiment, figures)
    if experiment.patch:
        out += _patch_problems(experiment, "patch", experiment.patch, figures)
    swept = set(_sweep_arms(experiment))
    for arm, text in experiment.arm_patches:
        if arm not in swept:  # a sweep's arms are said once, on sweep.figure
            out += _patch_problems(experiment, f"{_variant(experiment, arm)}.patch", text, figures)
    out += _forbid_problems(experiment, figures)
    out += _holder_problems(experiment)
    out += _collection_problems(experiment)
    if fix is not None:
        out += _fix_problems(experiment, fix, figures)
    return out


def _variant(experiment: Experiment, arm: str) -> str:
    """``variants[i]``: a ``[[variants]]`` arm by its index in the file (they come first)."""
    names = [name for name, _ in experiment.variants]
    return f"variants[{names.index(arm)}]" if arm in names else f"variants[{arm}]"


def _sweep_arms(experiment: Experiment) -> list[str]:
    return [point["arm"] for point in sweep_points(experiment.sweep)]


__all__ = ["close_names", "did_you_mean", "played_figures", "unknown_name", "unplayed_names"]
