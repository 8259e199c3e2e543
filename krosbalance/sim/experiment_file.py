"""Experiments as TOML files: parsing and validation, with every problem explained.

An experiment names teams, how they meet, boards, AIs, how many deals per pairing and a master seed;
``expand`` turns it into a flat, stable list of ``MatchSpec`` (one per match, ``match_id`` = position in
that list) that the runner hands to workers. Schema (see ``simulations/*.toml`` for examples)::

    name = "box-round-robin"      # required; letters, digits, '-', '_' (used as a folder name)
    description = "..."           # optional
    master_seed = 20250101        # required; int >= 0; every match seed derives from it
    matches_per_pairing = 4       # required; deals per pairing, board and AI matchup
    paired_seeds = true           # default true: each deal is also played with sides swapped
    boards = ["arena-elemental"]  # default ["arena-elemental"]
    ais = [["focus_fire", "random"]]  # default ["random"]; each entry is one AI for both teams
                                  # or [AI of team A, AI of team B] (the AI follows its team on swaps)
                                  # or a table {ai = <either form>, deals = 2}: that matchup plays
                                  # its own number of deals per pairing and board (a sample of a
                                  # costly AI, e.g. the search tier, beside the heuristics)
    ruleset = "arena"             # default "arena"
    record = "none"               # event recording level of bulk runs: none / summary / full
    board_choice = false          # true: R-A19, the first player of each match picks its board among
                                  # ``boards`` (at least two) instead of every board being played
                                  # (with four players player 4, the last in play order: R-A154)
    held_rewards = "all"          # reward-value study: each deal is also played once per listed
                                  # Demonic Reward held face down from the start by team A ("all" =
                                  # every token), with the same seed (option ``start_rewards``);
                                  # "<id>@<kamas>" / "<id>@<n>gg": held and paid for
                                  # (``start_reward_prices`` / ``start_reward_gg_prices``)
    reward_holders = "ai"         # "each": every Krosmaster of team A holds each held token in
                                  # its own variant ("TOKEN@character"); "each_and_ai" adds the AI's
                                  # own pick; needs teams known before play (krosbalance.sim.reward_arms)
    purchase_rewards = "all"      # purchase arms: team A may buy the token face up on a Demon cell
                                  # at its price ("buy:TOKEN"), its AI choosing when, where, or GG

    [teams]
    mode = "round_robin"          # round_robin | mirror | splits | pairs | draft | random_deal
                                  # | tables | random_tables | ladder (tables seat one team per player: the
                                  # only modes, with mirror, of a ruleset seating four; random_tables
                                  # draws each seat's team at random, for every deal, from every
                                  # legal team of the pool, each player owning his figures)
    list = [["a", "b"], ...]      # explicit teams                  (round_robin, mirror)
    tables = [[t1, t2, t3, t4], ...]  # explicit tables, one team per seat            (tables)
    pool = ["a", "b", ...]        # or all legal teams (the ruleset's team rules: Arena's level 12)
                                  # drawn from this pool of figures; a name listed twice may appear
                                  # twice in a team; {set = "arena-box"} or {tag = "..."} = every
                                  # Krosmaster of a set or a tag (a pool that stays the same when
                                  # cards are added); an array may mix names and such tables
                                  # ([{set = "arena-box"}, {set = "duel-pack"}, "name"]: a table
                                  # adds the Krosmasters the pool does not hold yet, a name one
                                  # copy); "all" = every Krosmaster the ruleset plays
                                  # (round_robin, mirror, splits, draft, random_deal)
    pairs = [[["a"], ["b"]], ...] # explicit pairings                 (pairs)
    include_mirror = false        # round_robin only: also play each team against itself
    # mode = "ladder": a team study (every legal team of a roster rated against the field, in
    # stages: roster / collection / rule / [teams.ladder], see krosbalance.studies.teams.experiment)

    [options]                     # the ruleset's options (an unknown name suggests the near ones)
    turn_limit = 60

    [[variants]]                  # optional arms of the experiment: every deal is played under each,
    name = "none"                 # on the same seed (paired across arms); ``name`` labels the arm
    options = { challenges = [] } # (the matches table's ``variant``), ``options`` are merged over
                                  # [options]
    patch = "anna-tommy-buff"     # a balance patch for this arm only: a shipped patch's name, a
                                  # .toml path, or an inline table (``krosbalance.sim.patches``)

    patch = "NAME"                # top level: a patch applied to every arm (``run --patch`` too)
    content = "my-cards"          # top level: a folder of the designer's own cards, relative to this
                                  # file (``krosbalance.content.custom``; ``--content`` too)
    [sweep]                       # one arm per grid point of card values (``krosbalance.sim.sweep``)
    figure = "anna_tommy"         # or reward = "..." (values: rank, effects.<n>.<p>, price = [kamas]
                                  # or price_gg = [GG]:
    values = { hp = [10, 12, 14] }  # the fair price) or challenge = "..." (bonuses.<b>.tier: the
                                  # neutral threshold; Blast, the challenge in [options] challenges)
    [fix]                         # the fix finder (``krosbalance.studies.patches``): ``run`` (or its
    band = 0.15                   # alias ``fix``) plays its stages, not the file's own matches
    forbid = { bill_tell = ["spell:distant_shot"] }  # restricted play: elements (spell:<id>,
                                  # power:<kind>, action:<name>) the figure may not use in this arm,
                                  # on whichever side fields it (krosbalance.sim.restricted)

    [target]                      # sample size from a target (``krosbalance.sim.target``): the
    half_width = 0.15             # targeted AI's matches are played in rounds of its deals until
    ais = ["mcts-race"]           # every headline number's 95% CI half-width is within half_width
    max_deals = 40                # (default: the strongest AI on the ladder; 20 rounds at most;
                                  # round_deals, or max_matches as the cap)

    [restricted]                  # one arm per spell, power and option of each figure, after the
    figures = ["bill_tell"]       # variants, plus an unrestricted "baseline" arm first
                                  # (kinds, actions, baseline: see krosbalance.sim.restricted)

Every name a study table holds (a swept, restricted, fixed or patched figure, a reward holder, a
collection's figures) must be one that some match of the experiment fields, or the file is refused
(:mod:`krosbalance.sim.study_names`): otherwise every arm would play the same matches. A content file
that does not load is said once, as ``(content)`` with its own file, never as a field of this file.

Each arm's rules are ONE ruleset object, the experiment's ruleset built with the arm's options
(``krosbalance.sim.catalog.arm_ruleset``): validation checks the teams and the deals with it, the
expansion deals the teams and lets the first player pick the board with it, and every match of the
arm is played with it — so an option such as Blast's ``team_size`` counts everywhere. The arms share
their pairings: an arm whose rules reject a team, or draw other teams from the pool, is reported.
Which teams are legal is the ruleset's (``Ruleset.validate_team``, ``legal_teams``, ``team_splits``;
Arena's are in ``krosbalance.rulesets.arena.teams``). ``splits`` plays every split of the pool into
two legal teams (the eight box Krosmasters give 35). ``draft`` and ``random_deal`` are Arena's team
choices of R-A17: every deal deals the pool's cards anew between the two players — half each at
random, or by the rulebook's draft in which each player's AI picks its cards
(``krosbalance.rulesets.arena.draft``). The pool must split that way into two legal teams whatever
the cards dealt (every half of it a legal team; for the draft its size a multiple of 4, as the eight
box cards). They have one pairing (the pool); each deal's teams are seeded by the
deal's seed and recorded as ``team_a`` (dealt to AI A) and ``team_b`` in the match specs, hence in the
matches table. With ``board_choice`` each match's board is the one its first player picks (with
four players, player 4: R-A154) (``krosbalance.play.pick_board``), recorded as its ``board``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from krosbalance.content.toml_file import read_toml_text
from krosbalance.errors import ContentError, ExperimentError, KrosbalanceError
from krosbalance.rulesets.registry import unknown_ruleset
from krosbalance.sim.catalog import DEFAULT_RULESET, Catalog, RegistryCatalog
from krosbalance.sim.content_key import parse_content
from krosbalance.sim.design import MAX_MATCHES, RECORD_LEVELS, TOP_KEYS, Experiment, folder_name_problem
from krosbalance.sim.file_problems import _ask, _blame, _get, _Problems, _unknown_keys
from krosbalance.sim.parse_arms import (
    _check_challenge_patches,
    _check_held_options,
    _parse_fix,
    _parse_held_rewards,
    _parse_patch_arms,
    _parse_reward_arms,
    _parse_variants,
    _sweep_prices,
)
from krosbalance.sim.parse_teams import _parse_ais, _parse_arm_teams, _parse_boards, _parse_study_teams
from krosbalance.sim.restricted import arm_forbids
from krosbalance.sim.spec import Team
from krosbalance.sim.study_names import unplayed_names
from krosbalance.sim.target import parse_target, resolve_target
from krosbalance.study_registry import list_studies, team_mode_parser


def check_experiment(
    path: str | Path, catalog: Catalog | None = None
) -> tuple[Experiment | None, list[ExperimentError]]:
    """Parse and validate an experiment file, returning it (or None) and *every* problem found."""
    path = Path(path)
    try:
        text = read_toml_text(path)
    except ContentError as exc:  # missing, not a file, too large, not UTF-8
        return None, [ExperimentError(str(path), "(file)", exc.reason)]
    return check_experiment_text(text, str(path), catalog)


def check_experiment_text(
    text: str, file: str = "<string>", catalog: Catalog | None = None
) -> tuple[Experiment | None, list[ExperimentError]]:
    """Like ``check_experiment`` for TOML text; ``file`` is only used in messages."""
    problems = _Problems(file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.add("(toml)", f"not valid TOML: {exc}")
        return None, problems.errors
    except RecursionError:
        problems.add("(toml)", "arrays or tables nested too deeply")
        return None, problems.errors
    experiment = _parse(data, file, problems, catalog or RegistryCatalog())
    return (experiment if not problems.errors else None), problems.errors


def load_experiment(path: str | Path, catalog: Catalog | None = None) -> Experiment:
    """Parse and validate an experiment file; raise the first ``ExperimentError`` found."""
    experiment, errors = check_experiment(path, catalog)
    if errors:
        raise errors[0]
    assert experiment is not None
    return experiment


def loads_experiment(text: str, file: str = "<string>", catalog: Catalog | None = None) -> Experiment:
    """``load_experiment`` for TOML text."""
    experiment, errors = check_experiment_text(text, file, catalog)
    if errors:
        raise errors[0]
    assert experiment is not None
    return experiment


def _parse_study(data: Mapping[str, Any], problems: _Problems) -> str:
    """``study = "boards"``: a registered study the file asks for by name ('' when it names none)."""

    study = _get(data, "study", str, problems, default="")
    if study and study not in list_studies():
        problems.add("study", f"unknown study {study!r}; known: {', '.join(list_studies())}")
        return ""
    return study or ""


def _parse(data: Mapping[str, Any], file: str, problems: _Problems, catalog: Catalog) -> Experiment | None:
    _unknown_keys(data, TOP_KEYS, "", problems)
    content_ok, content = parse_content(data, file, problems)  # first: the names are its cards'
    if not content_ok:
        return None

    name = _get(data, "name", str, problems, required=True)
    if name is not None and folder_name_problem(name):
        problems.add("name", folder_name_problem(name))
        name = None
    description = _get(data, "description", str, problems, default="")
    study = _parse_study(data, problems)
    master_seed = _get(data, "master_seed", int, problems, required=True)
    if master_seed is not None and master_seed < 0:
        problems.add("master_seed", f"must be >= 0, not {master_seed}")
        master_seed = None
    per_pairing = _get(data, "matches_per_pairing", int, problems, required=True)
    if per_pairing is not None and per_pairing < 1:
        problems.add("matches_per_pairing", f"must be >= 1, not {per_pairing}")
        per_pairing = None
    paired = _get(data, "paired_seeds", bool, problems, default=True)
    record = _get(data, "record", str, problems, default="none")
    if record is not None and record not in RECORD_LEVELS:
        problems.add(
            "record", f"unknown recording level {record!r}; expected one of: {', '.join(RECORD_LEVELS)}"
        )

    ruleset = _get(data, "ruleset", str, problems, default=DEFAULT_RULESET)
    if ruleset is not None:
        known = _ask(catalog.rulesets, "ruleset", problems)
        if known is not None and ruleset not in known:
            problems.add("ruleset", unknown_ruleset(ruleset, known))
            ruleset = None

    boards = _parse_boards(data, problems, catalog, ruleset or DEFAULT_RULESET)
    board_choice = _get(data, "board_choice", bool, problems, default=False)
    if board_choice and boards is not None and len(set(boards)) < 2:
        problems.add(
            "board_choice",
            f"the first player chooses among the boards (R-A19): list at least two, not {list(boards)}",
        )

    options = _get(data, "options", dict, problems, default={})
    if options is not None:
        try:
            json.dumps(options)
        except TypeError as exc:
            problems.add(
                "options", f"values must be plain numbers, strings, booleans, arrays or tables ({exc})"
            )
            options = None
    team_options = None  # the options the teams are checked under (no variants): once they are valid
    if options is not None and ruleset is not None:
        try:
            catalog.check_options(ruleset, options)
            team_options = options
        except KrosbalanceError as exc:
            _blame(problems, "options", exc)

    seats = 2
    if ruleset is not None and team_options is not None:
        seats = catalog.seats(ruleset, team_options)
    ais, ai_deals = _parse_ais(data, problems, catalog, per_pairing, ruleset or DEFAULT_RULESET, seats)
    variants = _parse_variants(data, options, ruleset, problems, catalog)
    patch, arm_patches, sweep, variants = _parse_patch_arms(data, file, options, variants, problems)
    forbids = arm_forbids(data, ruleset, options, problems, catalog)
    held_rewards = _sweep_prices(sweep, _parse_held_rewards(data, problems, catalog), problems)
    _check_challenge_patches(ruleset, options, arm_patches, patch, problems)
    reward_holders, purchase_rewards = _parse_rewards(
        data, problems, catalog, held_rewards, seats, options, team_options, ruleset, variants
    )

    fix = _parse_fix(data, file, variants, sweep, problems)
    target = parse_target(data, problems)

    mode, pairings, ladder = _parse_teams_table(
        data, problems, catalog, ruleset, options, team_options, master_seed, file, seats, variants
    )

    if problems.errors:
        return None
    assert name is not None and master_seed is not None and per_pairing is not None
    assert pairings is not None and boards is not None and ais is not None
    experiment = Experiment(
        name=name,
        file=file,
        master_seed=master_seed,
        matches_per_pairing=per_pairing,
        pairings=pairings,
        boards=boards,
        ais=ais,
        ai_deals=ai_deals,
        paired_seeds=paired,
        ruleset=ruleset,
        record=record,
        options=options,
        description=description,
        mode=mode,
        board_choice=bool(board_choice),
        variants=variants or (),
        held_rewards=held_rewards,
        reward_holders=reward_holders,
        purchase_rewards=purchase_rewards,
        seats=seats,
        ladder=ladder,
        patch=patch,
        arm_patches=arm_patches,
        sweep=sweep,
        forbids=forbids,
        fix=fix is not None,
        study=study,
        content=str(content.root) if content else "",
        content_digest=content.digest if content else "",
    )
    if experiment.n_matches > MAX_MATCHES:
        problems.add(
            "matches_per_pairing",
            f"{experiment.n_matches:,} matches; an experiment holds at most {MAX_MATCHES:,} (the runner keeps "
            "one byte per match): split it into several files, or lower matches_per_pairing",
        )
        return None
    for field_name, reason in unplayed_names(experiment, fix):  # a study that would measure nothing
        problems.add(field_name, reason)
    if target is not None and not problems.errors:  # the AIs' rounds and cap (krosbalance.sim.target)
        experiment = resolve_target(experiment, target, problems)
    return None if problems.errors else experiment


def _parse_rewards(
    data: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    held_rewards: tuple[str, ...],
    seats: int,
    options: Mapping[str, Any] | None,
    team_options: Mapping[str, Any] | None,
    ruleset: str | None,
    variants: tuple[tuple[str, str], ...] | None,
) -> tuple[str, tuple[str, ...]]:
    """``reward_holders`` and ``purchase_rewards``, and the held and bought rewards checked against
    the seats, the options and every arm's rules."""
    reward_holders, purchase_rewards = _parse_reward_arms(data, problems, catalog, held_rewards)
    if purchase_rewards and seats != 2:
        problems.add("purchase_rewards", f"the reward study plays two players; this ruleset seats {seats}")
    if purchase_rewards and options is not None and "purchasable_rewards" in options:
        problems.add(
            "purchase_rewards", "purchase_rewards sets the option purchasable_rewards itself; do not set both"
        )
    if held_rewards and seats != 2:
        problems.add("held_rewards", f"the reward-value study plays two players; this ruleset seats {seats}")
    if held_rewards and options is not None and "start_rewards" in options:
        problems.add("held_rewards", "held_rewards sets the option start_rewards itself; do not set both")
    if held_rewards and any("start_rewards" in json.loads(arm) for _, arm in variants or ()):
        problems.add(
            "held_rewards", "held_rewards sets the option start_rewards itself; no variant may set it"
        )
    elif held_rewards and ruleset is not None and team_options is not None:
        _check_held_options(
            held_rewards, variants or (("", json.dumps(team_options)),), ruleset, problems, catalog
        )

    return reward_holders, purchase_rewards


def _parse_teams_table(
    data: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str | None,
    options: Mapping[str, Any] | None,
    team_options: Mapping[str, Any] | None,
    master_seed: int | None,
    file: str,
    seats: int,
    variants: tuple[tuple[str, str], ...] | None,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None, str]:
    """``[teams]``: (mode, pairings, ladder settings), the pairings checked under every arm's rules
    (a team ladder is its study's own table: :mod:`krosbalance.studies.teams.experiment`)."""
    teams = _get(data, "teams", dict, problems, required=True)
    pairings: tuple[tuple[Team, ...], ...] | None = None
    mode = "pairs"
    ladder = ""
    if teams is not None:
        arms = [(arm, json.loads(arm_options)) for arm, arm_options in variants or ()] or [("", team_options)]
        for arm, arm_options in arms[1:]:
            if (
                ruleset is not None
                and arm_options is not None
                and catalog.seats(ruleset, arm_options) != seats
            ):
                problems.add(
                    f"variants[{arm}]" if arm else "variants",
                    f"variant {arm!r} seats {catalog.seats(ruleset, arm_options)} players, the experiment "
                    f"{seats}: the arms of an experiment play the same tables",
                )
        study_mode = team_mode_parser(str(teams.get("mode", "")))  # a study's own [teams] mode
        if study_mode is not None:  # mode = "ladder": krosbalance.studies.teams.experiment
            mode, pairings, ladder = _parse_study_teams(
                study_mode,
                teams,
                problems,
                catalog,
                ruleset or DEFAULT_RULESET,
                team_options,
                master_seed,
                file,
                seats,
                variants,
            )
        else:
            mode, pairings = _parse_arm_teams(
                teams, problems, catalog, ruleset or DEFAULT_RULESET, arms, seats
            )

    return mode, pairings, ladder
