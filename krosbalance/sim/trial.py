"""Trial matches: the first match of each arm of an experiment, set up and played for a few turns.

``krosbalance validate`` plays them, and ``krosbalance run`` before its first match, so that a mistake
that would make every match of an arm fail (an option the rules cannot use, a reward the ruleset
does not know, a card the ruleset cannot play) is one clear line naming the file and the arm before
any match runs, not thousands of identical errors after the run "succeeded". A trial is the arm's
own first match (its teams, board, AIs, seed and ruleset options, pre-game included) with its turn
bound lowered to :data:`TRIAL_TURNS_PER_SEAT` turns per player, played as ``run`` plays a match (the
native core when it plays the arm, the reference otherwise), then written as the runner writes a match
(every result column of the ruleset), so each stage a full match passes is passed once. A mistake
that strikes later in a match is the runner's to catch (it stops an arm whose first matches all
fail). The lowered bound is a real option of the match, so a search AI plans to it; the trial proves
that the arm plays, not which moves its first match makes. Played on the core, a search AI's opening
is a fraction of a second where the reference took seconds (``validate`` of box-round-robin: 12 s to
about 1 s).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from krosbalance.errors import ExperimentError, KrosbalanceError
from krosbalance.play import play_match
from krosbalance.rulesets.base import Ruleset
from krosbalance.sim.catalog import arm_ruleset, options_json
from krosbalance.sim.design import Experiment
from krosbalance.sim.expansion import iter_matches
from krosbalance.sim.file_problems import content_problem
from krosbalance.sim.patched_cards import patched_registry
from krosbalance.sim.restricted import forbid_map
from krosbalance.sim.spec import MatchSpec
from krosbalance.sim.study_names import unplayed_names
from krosbalance.sim.tables import (
    fighter_rows,
    fighters_frame,
    match_columns,
    match_row,
    matches_frame,
    ruleset_fighter_columns,
)

TRIAL_TURNS_PER_SEAT = 1
"""Game turns each player plays in a trial: every seat's controller, view and turn hooks run once."""


def _first_deal(experiment: Experiment) -> Iterator[MatchSpec]:
    """The specs of the experiment's first deal: every arm plays every deal on the same seed, so the
    first deal holds the first match of each arm."""
    for spec in iter_matches(experiment):
        if spec.pairing or spec.deal:
            return
        yield spec


def first_match_of_each_arm(experiment: Experiment) -> list[MatchSpec]:
    """The first match spec of each arm (each ``variant`` label), in match-id order."""
    first: dict[str, MatchSpec] = {}
    for spec in _first_deal(experiment):
        first.setdefault(spec.variant, spec)
    return list(first.values())


def trial_problem(spec: MatchSpec, turns_per_seat: int = TRIAL_TURNS_PER_SEAT) -> str:
    """Why the match of ``spec`` fails in its first turns or in its table rows, or '' when it does not."""
    return _describe(_trial_exception(spec, turns_per_seat))


def _describe(exc: Exception | None) -> str:
    if exc is None:
        return ""
    return str(exc) if isinstance(exc, KrosbalanceError) else f"{type(exc).__name__}: {exc}"


def trial_ruleset(spec: MatchSpec, turns_per_seat: int = TRIAL_TURNS_PER_SEAT) -> Ruleset:
    """The arm's ruleset object with its turn bound lowered to ``turns_per_seat`` game turns per
    player (kept when the arm's own bound is lower). Unknown names and bad options raise as
    :func:`krosbalance.sim.catalog.arm_ruleset` does."""
    rules = arm_ruleset(spec.ruleset, spec.options_json)
    bound = turns_per_seat * spec.n_seats
    if rules.opts.turn_limit <= bound:
        return rules
    options = json.loads(spec.options_json)
    options["turn_limit"] = bound
    return arm_ruleset(spec.ruleset, options_json(options))


def _trial_exception(spec: MatchSpec, turns_per_seat: int) -> Exception | None:
    """What the match of ``spec`` raises in its first turns or in its table rows (None: nothing)."""
    try:
        result = play_match(
            *(list(team) for team in spec.teams),
            registry=patched_registry(spec.patch),
            board=spec.board,
            ai=spec.ais,
            seed=spec.seed,
            ruleset=trial_ruleset(spec, turns_per_seat),
            forbid=forbid_map(spec.forbid),
        )
        row = match_row(spec, result)
        matches_frame(
            {key: [value] for key, value in row.items()}, match_columns((spec.ruleset,), spec.n_seats)
        )
        fighters = fighter_rows(spec, result)
        keys = list(dict.fromkeys(key for fighter in fighters for key in fighter))
        columns = {key: [fighter.get(key) for fighter in fighters] for key in keys}
        fighters_frame(columns, ruleset_fighter_columns((spec.ruleset,)))
    except Exception as exc:  # the run would record this in every match of the arm
        return exc
    return None


def _where(spec: MatchSpec) -> str:
    return f"variant {spec.variant!r}" if spec.variant else "(first match)"


def trial_errors(experiment: Experiment, file: str) -> list[ExperimentError]:
    """One error per arm whose first match fails (see the module docstring), naming the arm, the
    match and the reason; an experiment whose first deal cannot even be expanded is one error, and
    so is a content file that does not load (named once, not once per arm). A name of a study table
    that no arm plays (:mod:`krosbalance.sim.study_names`: what ``run --patch`` adds) is one error
    each, before any match is played."""
    unplayed = [ExperimentError(file, where, reason) for where, reason in unplayed_names(experiment)]
    if unplayed:
        return unplayed
    try:
        specs = first_match_of_each_arm(experiment)
    except KrosbalanceError as exc:
        if content_problem(exc, file):
            return [ExperimentError(file, "(content)", content_problem(exc, file))]
        return [ExperimentError(file, "(first deal)", str(exc))]
    except Exception as exc:  # the expansion's pre-game (a deal, a board pick) raised
        return [ExperimentError(file, "(first deal)", f"cannot be dealt: {type(exc).__name__}: {exc}")]
    errors = []
    for spec in specs:
        exc = _trial_exception(spec, TRIAL_TURNS_PER_SEAT)
        if exc is not None and content_problem(exc, file):  # the content's, not this arm's: said once
            return [ExperimentError(file, "(content)", content_problem(exc, file))]
        problem = _describe(exc)
        if problem:
            teams = " vs ".join("+".join(team) for team in spec.teams)
            errors.append(
                ExperimentError(
                    file,
                    _where(spec),
                    f"its first match ({teams} on {spec.board}, AIs {', '.join(spec.ais)}) fails, as every "
                    f"match of it would: {problem}",
                )
            )
    return errors


__all__ = [
    "TRIAL_TURNS_PER_SEAT",
    "first_match_of_each_arm",
    "trial_errors",
    "trial_problem",
    "trial_ruleset",
]
