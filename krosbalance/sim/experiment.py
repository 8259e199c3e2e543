"""Experiments as TOML files: parsing, validation with every problem explained, and expansion.

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
    [sweep]                       # one arm per grid point of card values (``krosbalance.sim.sweep``)
    figure = "anna_tommy"         # or reward = "..." (values: rank, effects.<n>.<p>, price = [kamas]
                                  # or price_gg = [GG]:
    values = { hp = [10, 12, 14] }  # the fair price) or challenge = "..." (bonuses.<b>.tier: the
                                  # neutral threshold; Blast, the challenge in [options] challenges)
    [fix]                         # read by ``krosbalance fix`` (``krosbalance.sim.fixer``); ``run``
    band = 0.15                   # plays the experiment's own matches without it
    forbid = { bill_tell = ["spell:distant_shot"] }  # restricted play: elements (spell:<id>,
                                  # power:<kind>, action:<name>) the figure may not use in this arm,
                                  # on whichever side fields it (krosbalance.sim.restricted)

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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from krosbalance.errors import ContentError, ExperimentError, KrosbalanceError, LocatedError
from krosbalance.paths import NAME_MAX as _PATH_NAME_MAX
from krosbalance.paths import name_problem
from krosbalance.sim.catalog import (
    DEFAULT_BOARD,
    DEFAULT_RULESET,
    Catalog,
    Options,
    RegistryCatalog,
    arm_ruleset,
)
from krosbalance.sim.restricted import VARIANT_KEYS, arm_forbids, restricted_variants
from krosbalance.sim.seeding import deal_seed
from krosbalance.sim.study_names import unknown_name

Team = tuple[str, ...]

TEAM_MODES: tuple[str, ...] = (
    "round_robin",
    "mirror",
    "splits",
    "pairs",
    "draft",
    "random_deal",
    "tables",
    "random_tables",
    "ladder",
)
#: the modes that seat more than two teams at a table (the others pair two teams)
TABLE_MODES: tuple[str, ...] = ("mirror", "tables", "random_tables")
DEALT_MODES: tuple[str, ...] = ("draft", "random_deal")  # R-A17: teams dealt anew at every deal
RECORD_LEVELS: tuple[str, ...] = ("none", "summary", "full")
TOP_KEYS: tuple[str, ...] = (
    "name",
    "description",
    "master_seed",
    "matches_per_pairing",
    "paired_seeds",
    "boards",
    "ais",
    "ruleset",
    "record",
    "board_choice",
    "held_rewards",
    "reward_holders",
    "purchase_rewards",
    "teams",
    "options",
    "variants",
    "patch",
    "sweep",
    "fix",
    "restricted",
    "study",
)
TEAM_KEYS: tuple[str, ...] = ("mode", "list", "pool", "pairs", "tables", "include_mirror")
NAME_MAX = _PATH_NAME_MAX
"""Characters in an experiment's name at most (it names the results and report folders)."""
MAX_MATCHES = 200_000_000
"""Matches one experiment may hold (the runner's finished-match mask is one byte per match)."""


def folder_name_problem(name: str) -> str:
    """Why ``name`` cannot name a results or report folder ('' when it can): the one rule for a name
    that becomes a path (:func:`krosbalance.paths.name_problem`). The experiment file's name, a
    variant's, a patch's and a results folder's manifest are checked by it."""
    return name_problem(name)


@dataclass(frozen=True, slots=True)
class Experiment:
    """A validated experiment; ``pairings`` are already generated and checked."""

    name: str
    file: str
    master_seed: int
    matches_per_pairing: int
    pairings: tuple[tuple[Team, ...], ...]  # one team per seat (two, or four for four-player Arena)
    boards: tuple[str, ...] = (DEFAULT_BOARD,)
    ais: tuple[tuple[str, ...], ...] = (("random", "random"),)  # one AI per team of a pairing
    #: deals per pairing and board of each AI matchup, where an ``ais`` table sets its own
    #: (``{ai = ..., deals = n}``); empty = ``matches_per_pairing`` for every matchup
    ai_deals: tuple[int, ...] = ()
    paired_seeds: bool = True
    ruleset: str = DEFAULT_RULESET
    record: str = "none"
    options: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    mode: str = "pairs"
    board_choice: bool = False
    variants: tuple[tuple[str, str], ...] = ()  # (name, merged options as JSON); () = one unnamed arm
    held_rewards: tuple[str, ...] = ()
    #: ``reward_holders`` and ``purchase_rewards`` (:mod:`krosbalance.sim.reward_arms`)
    reward_holders: str = "ai"
    purchase_rewards: tuple[str, ...] = ()
    seats: int = 2  # players per match (the ruleset's, with the experiment's options)
    #: ``mode = "ladder"``: the team study's settings as JSON (:mod:`krosbalance.studies.teams.experiment`);
    #: ``pairings`` are then its first stage's
    ladder: str = ""
    #: the patch every arm plays (canonical JSON, ``krosbalance.sim.patches.Patch.json``; '' = none)
    patch: str = ""
    #: (arm name, patch JSON) of the arms with a patch of their own (``[[variants]]`` ``patch``, ``[sweep]``)
    arm_patches: tuple[tuple[str, str], ...] = ()
    #: the ``[sweep]`` grid, JSON (``krosbalance.sim.sweep.sweep_arms``); '' = no sweep
    sweep: str = ""
    #: the file has a ``[fix]`` table (``krosbalance fix``, :mod:`krosbalance.sim.fixer`): a patch study
    fix: bool = False
    #: ``study = "..."``: the study the file names (:mod:`krosbalance.studies`); '' = the one that
    #: claims it from its other tables
    study: str = ""

    def patch_of(self, arm: str) -> str:
        """The canonical patch JSON an arm plays: the experiment's patch with the arm's own over it."""
        own = dict(self.arm_patches).get(arm, "")
        if not self.patch or not own:
            return own or self.patch
        from krosbalance.sim.patches import merge_patches, patch_from_json

        mine, base = patch_from_json(own), patch_from_json(self.patch)
        return merge_patches(f"{base.name}+{mine.name}", [base, mine]).json

    #: restricted play (``krosbalance.sim.restricted``): (arm name, forbid JSON) of the arms that
    #: forbid elements to figures; () = no arm restricts anything
    forbids: tuple[tuple[str, str], ...] = ()

    def forbid_of(self, arm: str) -> str:
        """The forbid JSON of one arm ('' when it restricts nothing)."""
        return next((text for name, text in self.forbids if name == arm), "")

    @property
    def seatings(self) -> tuple[int, ...]:
        """The seatings each deal is played in: with two players direct and (paired seeds) swapped
        (0, 1); with more, every rotation of the teams round the table (0 .. seats-1)."""
        return tuple(range(self.seats)) if self.paired_seeds else (0,)

    @property
    def arms(self) -> tuple[tuple[str, str], ...]:
        """(variant name, options JSON) of every arm; one unnamed arm without ``[[variants]]``."""
        return self.variants or (("", self.options_json),)

    @property
    def reward_variants(self) -> tuple[str, ...]:
        """The reward variants of each deal of the first pairing (see :meth:`reward_variants_of`)."""
        return self.reward_variants_of(self.pairings[0] if self.pairings else ())

    def reward_variants_of(self, pairing: Sequence[Team]) -> tuple[str, ...]:
        """The reward variants of each deal of a pairing: '' (no token held), then each
        ``held_rewards`` token (once per holder of team A with ``reward_holders = "each"``), then
        each purchase arm (:func:`krosbalance.sim.reward_arms.reward_variants`)."""
        if not self.held_rewards and not self.purchase_rewards:
            return ("",)
        from krosbalance.sim.reward_arms import reward_variants

        team_a = pairing[0] if pairing and self.reward_holders != "ai" else ()
        return reward_variants(self.held_rewards, self.reward_holders, self.purchase_rewards, team_a)

    @property
    def board_groups(self) -> tuple[tuple[str, ...], ...]:
        """The boards a deal is played on, one entry per board factor: each board alone, or (with
        ``board_choice``) all of them as the candidates of R-A19."""
        return (self.boards,) if self.board_choice else tuple((b,) for b in self.boards)

    @property
    def deals_per_matchup(self) -> tuple[int, ...]:
        """Deals per pairing and board of each AI matchup, in the order of ``ais``."""
        return self.ai_deals or (self.matches_per_pairing,) * len(self.ais)

    @property
    def deals_per_pairing(self) -> int:
        return len(self.board_groups) * sum(self.deals_per_matchup)

    @property
    def n_deals(self) -> int:
        return len(self.pairings) * self.deals_per_pairing

    @property
    def n_matches(self) -> int:
        per_deal = len(self.seatings) * len(self.arms) * self.deals_per_pairing
        return sum(len(self.reward_variants_of(p)) * per_deal for p in self.pairings)

    @property
    def options_json(self) -> str:
        return json.dumps(dict(self.options), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything one match needs; a match is a pure function of this (plus code versions).

    Team A / team B are the pairing's two teams; ``swapped`` puts team B on side 0. AIs follow teams.
    A table of more than two players adds teams C, D (``more_teams``, with ``more_ais``) and seats
    them rotated: seat ``s`` plays the table's team ``(s + rotation) % seats`` (``teams``, ``ais``).
    """

    match_id: int
    experiment: str
    pairing: int
    deal: int
    swapped: bool
    seed: int
    team_a: Team
    team_b: Team
    ai_a: str
    ai_b: str
    board: str
    ruleset: str
    options_json: str
    record: str = "none"
    variant: str = ""
    more_teams: tuple[Team, ...] = ()
    more_ais: tuple[str, ...] = ()
    rotation: int = 0
    patch: str = ""  # the arm's balance patch, canonical JSON ('' = the shipped cards)
    forbid: str = ""  # restricted play: {figure: [elements]} as JSON ('' = none; sim.restricted)

    @property
    def n_seats(self) -> int:
        return 2 + len(self.more_teams)

    def label_index(self, seat: int) -> int:
        """Which of the table's teams (0 = A, 1 = B, ...) plays ``seat``."""
        if not self.more_teams:
            return seat ^ int(self.swapped)
        return (seat + self.rotation) % self.n_seats

    @property
    def table(self) -> tuple[Team, ...]:
        """The table's teams A, B, ... in the order the experiment gave them."""
        return (self.team_a, self.team_b, *self.more_teams)

    @property
    def table_ais(self) -> tuple[str, ...]:
        return (self.ai_a, self.ai_b, *self.more_ais)

    @property
    def teams(self) -> tuple[Team, ...]:
        """The team of each seat."""
        table = self.table
        return tuple(table[self.label_index(seat)] for seat in range(self.n_seats))

    @property
    def ais(self) -> tuple[str, ...]:
        """The AI of each seat (an AI follows its team)."""
        ais = self.table_ais
        return tuple(ais[self.label_index(seat)] for seat in range(self.n_seats))

    @property
    def team0(self) -> Team:
        """Seat 0's team (with more than two players, rotated like every seat: ``teams[0]``)."""
        return self.table[self.label_index(0)]

    @property
    def team1(self) -> Team:
        return self.table[self.label_index(1)]

    @property
    def ai0(self) -> str:
        return self.table_ais[self.label_index(0)]

    @property
    def ai1(self) -> str:
        return self.table_ais[self.label_index(1)]

    @property
    def options(self) -> dict[str, Any]:
        return json.loads(self.options_json)

    def side_team(self, side: int) -> str:
        """``"A"``, ``"B"`` (``"C"``, ``"D"``): which of the pairing's teams played seat ``side``."""
        return "ABCDEFGH"[self.label_index(side)]

    def as_json(self) -> str:
        more: dict[str, Any] = {}
        if self.more_teams:
            more = {"teams": [list(t) for t in self.teams], "ais": list(self.ais), "rotation": self.rotation}
        if self.forbid:
            more["forbid"] = json.loads(self.forbid)
        return json.dumps(
            {
                **more,
                "match_id": self.match_id,
                "experiment": self.experiment,
                "pairing": self.pairing,
                "deal": self.deal,
                "swapped": self.swapped,
                "seed": self.seed,
                "team0": list(self.team0),
                "team1": list(self.team1),
                "ai": [self.ai0, self.ai1],
                "board": self.board,
                "ruleset": self.ruleset,
                "options": self.options,
                "record": self.record,
                "variant": self.variant,
                **({"patch": json.loads(self.patch)} if self.patch else {}),
            },
            sort_keys=True,
        )


# --------------------------------------------------------------------------------------------- parsing


class _Problems:
    """Collects every problem of one file, so ``validate`` can explain them all at once."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.errors: list[ExperimentError] = []

    def add(self, field_name: str, reason: str) -> None:
        if any(e.field == field_name and e.reason == reason for e in self.errors):
            return  # said once (a broken content file reaches every name that asks for it)
        self.errors.append(ExperimentError(self.file, field_name, reason))


def content_problem(exc: BaseException, file: str = "") -> str:
    """The line of a ``ContentError`` raised by a content file (a card, a board, a ruleset's data:
    a ``.toml`` file other than the experiment ``file``), '' for any other error. Such an error is
    not the experiment's: it is said once, as ``(content)``, with the content file's own name, not
    once per option, variant, arm or name that happened to load the content."""
    if isinstance(exc, ContentError) and exc.file.endswith(".toml") and exc.file != file:
        return f"the content does not load: {exc}"
    return ""


def _blame(problems: _Problems, field_name: str, exc: LocatedError | KrosbalanceError) -> None:
    """Record ``exc`` on ``field_name`` (a ``LocatedError`` on its own field inside it), or as
    ``(content)`` when a content file raised it (:func:`content_problem`)."""
    said = content_problem(exc, problems.file)
    if said:
        problems.add("(content)", said)
    elif isinstance(exc, LocatedError):
        problems.add(f"{field_name}.{exc.field.removeprefix('options.')}", exc.reason)
    else:
        problems.add(field_name, str(exc))


def check_experiment(
    path: str | Path, catalog: Catalog | None = None
) -> tuple[Experiment | None, list[ExperimentError]]:
    """Parse and validate an experiment file, returning it (or None) and *every* problem found."""
    from krosbalance.content.toml_file import read_toml_text

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


def _type_name(value: Any) -> str:
    return {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "a boolean",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def _unknown_keys(table: Mapping[str, Any], allowed: Sequence[str], prefix: str, problems: _Problems) -> None:
    for key in table:
        if key not in allowed:
            problems.add(f"{prefix}{key}", f"unknown key; expected one of: {', '.join(allowed)}")


def _get(
    data: Mapping[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    problems: _Problems,
    *,
    prefix: str = "",
    required: bool = False,
    default: Any = None,
) -> Any:
    """The value of ``key`` when it has the right type; else record a problem and return None."""
    if key not in data:
        if required:
            problems.add(prefix + key, "missing (required)")
            return None
        return default
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    # bool is an int subclass in Python; TOML keeps them apart, so do we.
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        expected = " or ".join(_type_name(k()) if k is not type(None) else "none" for k in kinds)
        problems.add(prefix + key, f"must be {expected}, not {_type_name(value)} ({value!r})")
        return None
    return value


def _parse_study(data: Mapping[str, Any], problems: _Problems) -> str:
    """``study = "boards"``: a registered study the file asks for by name ('' when it names none)."""
    from krosbalance.studies import list_studies

    study = _get(data, "study", str, problems, default="")
    if study and study not in list_studies():
        problems.add("study", f"unknown study {study!r}; known: {', '.join(list_studies())}")
        return ""
    return study or ""


def _parse(data: Mapping[str, Any], file: str, problems: _Problems, catalog: Catalog) -> Experiment | None:
    _unknown_keys(data, TOP_KEYS, "", problems)

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
            from krosbalance.rulesets.registry import unknown_ruleset

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
    held_rewards = _parse_held_rewards(data, problems, catalog)
    held_rewards = _sweep_prices(sweep, held_rewards, problems)
    _check_challenge_patches(ruleset, options, arm_patches, patch, problems)
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

    fix = _parse_fix(data, file, variants, sweep, problems)

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
        if teams.get("mode") == "ladder":  # a team study: krosbalance.studies.teams.experiment
            mode, pairings, ladder = _parse_ladder_teams(
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
    )
    if experiment.n_matches > MAX_MATCHES:
        problems.add(
            "matches_per_pairing",
            f"{experiment.n_matches:,} matches; an experiment holds at most {MAX_MATCHES:,} (the runner keeps "
            "one byte per match): split it into several files, or lower matches_per_pairing",
        )
        return None
    from krosbalance.sim.study_names import unplayed_names

    for field_name, reason in unplayed_names(experiment, fix):  # a study that would measure nothing
        problems.add(field_name, reason)
    return None if problems.errors else experiment


def _parse_fix(
    data: Mapping[str, Any],
    file: str,
    variants: tuple[tuple[str, str], ...] | None,
    sweep: str,
    problems: _Problems,
) -> Any:
    """``[fix]``, read by the parser ``krosbalance fix`` uses (:func:`krosbalance.sim.fixer.parse_fix`),
    so ``validate`` refuses what ``fix`` would; None when absent or wrong."""
    if "fix" not in data:
        return None
    from krosbalance.sim.fixer import FIX_ARMS, parse_fix

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
    from krosbalance.sim.sweep import arm_patch, sweep_arms

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
    from krosbalance.sim.sweep import sweep_held_rewards

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
    from krosbalance.content.blast import blast_cards

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
    from krosbalance.sim.reward_arms import parse_holders, parse_purchases

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


def variant_options(options: Mapping[str, Any], variant: str, swapped: bool) -> str:
    """The options JSON of one match of a reward variant, team A being side 1 when ``swapped``: a
    token held at a price (``<id>@<kamas>`` / ``<id>@<n>gg``: the fair-price sweep, team A pays,
    :mod:`krosbalance.sim.sweep`), or the reward study's arms (held, held by a named Krosmaster,
    bought: :func:`krosbalance.sim.reward_arms.variant_options`); the baseline '' adds nothing."""
    from krosbalance.sim.reward_arms import variant_options as reward_variant_options
    from krosbalance.sim.sweep import held_price

    token, price, unit = held_price(variant) if variant else ("", None, "")
    if price is None:
        return reward_variant_options(options, variant, swapped)
    merged = dict(options)
    merged["start_rewards"] = [[], [token]] if swapped else [[token], []]
    option = "start_reward_gg_prices" if unit == "gg" else "start_reward_prices"
    merged[option] = [[], [price]] if swapped else [[price], []]
    return json.dumps(merged, sort_keys=True, separators=(",", ":"))


def _ask(fn: Any, field_name: str, problems: _Problems) -> list[str] | None:
    """Call a catalog listing; a registry that fails to load is reported on the field, not raised."""
    try:
        return list(fn())
    except KrosbalanceError as exc:
        if content_problem(exc, problems.file):
            problems.add("(content)", content_problem(exc, problems.file))
        else:
            problems.add(field_name, f"cannot check: {exc}")
        return None
    except ImportError as exc:  # a registry that is not installed: say so on the field
        problems.add(field_name, f"cannot check: {exc}")
        return None


def _parse_boards(
    data: Mapping[str, Any], problems: _Problems, catalog: Catalog, ruleset: str = DEFAULT_RULESET
) -> tuple[str, ...] | None:
    boards = _get(data, "boards", (list, str), problems, default=[DEFAULT_BOARD])
    if boards is None:
        return None
    if isinstance(boards, str):
        boards = [boards]
    if not boards:
        problems.add("boards", "must name at least one board")
        return None
    known = _ask(lambda: catalog.boards(ruleset), "boards", problems)  # the boards made for the ruleset
    ok = True
    for i, board in enumerate(boards):
        if not isinstance(board, str):
            problems.add(f"boards[{i}]", f"must be a string, not {_type_name(board)} ({board!r})")
            ok = False
        elif known is not None and board not in known:
            problems.add(f"boards[{i}]", f"unknown board {board!r}; known: {', '.join(known) or '(none)'}")
            ok = False
        elif board in boards[:i]:
            # a repeated board would be a second, silently weighted arm of the same matches
            problems.add(f"boards[{i}]", f"board {board!r} is listed twice")
            ok = False
    return tuple(boards) if ok else None


def _parse_ais(
    data: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    per_pairing: int | None,
    ruleset: str = DEFAULT_RULESET,
    seats: int = 2,
) -> tuple[tuple[tuple[str, ...], ...] | None, tuple[int, ...]]:
    """The AI matchups (one AI per team of a pairing: ``seats`` of them) and, when any entry is a
    ``{ai, deals}`` table, every matchup's deals."""
    shape = "[AI of team A, AI of team B]" if seats == 2 else f"a list of {seats} AIs, one per team"
    ais = _get(data, "ais", (list, str), problems, default=["random"])
    if ais is None:
        return None, ()
    if isinstance(ais, str):
        ais = [ais]
    if not ais:
        problems.add("ais", "must list at least one AI matchup")
        return None, ()
    known = _ask(lambda: catalog.ais(ruleset), "ais", problems)  # the AIs that play the ruleset
    matchups: list[tuple[str, ...]] = []
    deals: list[int] = []
    own_deals = False
    ok = True
    for i, entry in enumerate(ais):
        where = f"ais[{i}]"
        entry_deals = per_pairing or 1
        if isinstance(entry, dict):
            _unknown_keys(entry, ("ai", "deals"), f"{where}.", problems)
            n = entry.get("deals")
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                problems.add(
                    f"{where}.deals", f"must be an int >= 1 (deals per pairing and board), not {n!r}"
                )
                ok = False
            else:
                entry_deals, own_deals = n, True
            if "ai" not in entry:
                problems.add(f"{where}.ai", f"required: an AI name or {shape}")
                ok = False
                continue
            entry, where = entry["ai"], f"{where}.ai"
        deals.append(entry_deals)
        if isinstance(entry, str):
            pair = [entry] * seats
        elif isinstance(entry, list) and len(entry) == seats:
            pair = entry
        else:
            problems.add(where, f"must be an AI name or {shape}, not {entry!r}")
            ok = False
            continue
        for j, ai in enumerate(pair[:1] if isinstance(entry, str) else pair):
            sub = where if isinstance(entry, str) else f"{where}[{j}]"
            if not isinstance(ai, str):
                problems.add(sub, f"must be a string, not {_type_name(ai)} ({ai!r})")
                ok = False
            elif (known is not None and ai not in known) or catalog.ai_problem(ai, ruleset, seats):
                # unknown, it does not play the ruleset, or not that many players
                problems.add(sub, catalog.ai_problem(ai, ruleset, seats))
                ok = False
        if ok:
            matchups.append(tuple(pair))
    if not ok:
        return None, ()
    return tuple(matchups), (tuple(deals) if own_deals else ())


def _resolve_names(
    value: list[Any], where: str, problems: _Problems, catalog: Catalog, *, first_index: int = 0
) -> list[str] | None:
    """Character names resolved to ids; every name that is not one is reported with its index in
    ``where`` (counted from ``first_index``)."""
    ids: list[str] = []
    ok = True
    for i, name in enumerate(value, start=first_index):
        if not isinstance(name, str):
            problems.add(f"{where}[{i}]", f"must be a character name, not {_type_name(name)} ({name!r})")
            ok = False
            continue
        try:
            ids.append(catalog.resolve_character(name))
        except ContentError as exc:
            if content_problem(exc, problems.file):  # a content file that does not load: not the name's
                problems.add("(content)", content_problem(exc, problems.file))
                return None
            problems.add(f"{where}[{i}]", f"unknown character {name!r} ({_short(exc)})")
            ok = False
        except KrosbalanceError as exc:
            problems.add(f"{where}[{i}]", f"unknown character {name!r} ({_short(exc)})")
            ok = False
    return ids if ok else None


def _parse_team(
    value: Any, where: str, problems: _Problems, catalog: Catalog, ruleset: str, options: Options = None
) -> Team | None:
    """One team: a non-empty array of character names, resolved to ids and checked by the rules of
    the ruleset with ``options``."""
    if not isinstance(value, list) or not value:
        problems.add(where, f"a team must be a non-empty array of character names, not {value!r}")
        return None
    ids = _resolve_names(value, where, problems, catalog)
    if ids is None:
        return None
    try:
        catalog.check_team(ids, ruleset, options)
    except KrosbalanceError as exc:
        if content_problem(exc, problems.file):
            problems.add("(content)", content_problem(exc, problems.file))
        else:
            problems.add(where, f"illegal team {', '.join(ids)}: {exc}")
        return None
    return tuple(ids)


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) < 200 else text[:197] + "..."


def _parse_pool(
    value: Any, problems: _Problems, catalog: Catalog, ruleset: str = DEFAULT_RULESET
) -> list[str] | None:
    """``teams.pool``: "all", one selection table, or an array of character names and selection
    tables (``{set = "..."}``, ``{tag = "..."}``). In an array each name adds one copy (a name listed
    twice may appear twice in a team) and each table the Krosmasters it selects that the pool does
    not hold yet (tables add a set's cards once, however they overlap)."""
    if value == "all":  # every Krosmaster whose cards the ruleset plays
        return _ask(lambda: catalog.characters(ruleset), "teams.pool", problems)
    if isinstance(value, dict):  # a set or a tag: stays the same pool when other cards are added
        return _parse_selection(value, "teams.pool", problems, catalog, ruleset)
    if not isinstance(value, list) or not value:
        problems.add(
            "teams.pool",
            f'must be a non-empty array of character names and {{set = "..."}} / {{tag = "..."}} '
            f'tables, one such table, or "all", not {value!r}',
        )
        return None
    pool: list[str] = []
    ok = True
    for i, entry in enumerate(value):
        where = f"teams.pool[{i}]"
        if isinstance(entry, dict):
            found = _parse_selection(entry, where, problems, catalog, ruleset)
            if found is None:
                ok = False
            else:
                pool.extend(name for name in found if name not in pool)
        elif isinstance(entry, str):
            ids = _resolve_names([entry], "teams.pool", problems, catalog, first_index=i)
            if ids is None:
                ok = False
            else:
                pool.extend(ids)
        else:
            problems.add(
                where,
                f'must be a character name or a {{set = "..."}} / {{tag = "..."}} table, not '
                f"{_type_name(entry)} ({entry!r})",
            )
            ok = False
    return pool if ok else None


def _parse_selection(
    value: Mapping[str, Any], where: str, problems: _Problems, catalog: Catalog, ruleset: str
) -> list[str] | None:
    """A ``{set = "..."}`` and/or ``{tag = "..."}`` table: every Krosmaster of the ruleset's cards
    of that set and tag (a selection that stays the same when other cards are added)."""
    n_before = len(problems.errors)
    _unknown_keys(value, ("set", "tag"), f"{where}.", problems)
    chosen = {key: value[key] for key in ("set", "tag") if key in value}
    if not chosen or not all(isinstance(v, str) and v for v in chosen.values()):
        problems.add(where, f'a selection is {{set = "..."}} and/or {{tag = "..."}}, not {dict(value)!r}')
        return None
    if len(problems.errors) > n_before:
        return None
    found = _ask(lambda: catalog.characters(ruleset, **chosen), where, problems)
    if found is not None and not found:
        what = " and ".join(f"{key} {name!r}" for key, name in chosen.items())
        problems.add(where, f"no Krosmaster of ruleset {ruleset!r} has {what}")
        return None
    return found


def _parse_teams(
    teams: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str = DEFAULT_RULESET,
    options: Options = None,
    seats: int = 2,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None]:
    _unknown_keys(teams, TEAM_KEYS, "teams.", problems)
    n_before = len(problems.errors)
    mode = _get(teams, "mode", str, problems, prefix="teams.", required=True)
    if mode is not None and mode not in TEAM_MODES:
        problems.add("teams.mode", f"unknown mode {mode!r}; expected one of: {', '.join(TEAM_MODES)}")
        return "pairs", None
    include_mirror = _get(teams, "include_mirror", bool, problems, prefix="teams.", default=False)
    if mode is None:
        return "pairs", None
    if seats != 2 and mode not in TABLE_MODES:
        problems.add(
            "teams.mode",
            f"mode {mode!r} pairs two teams; ruleset {ruleset!r} seats {seats} players here: use "
            f"{', '.join(TABLE_MODES)}",
        )
        return mode, None
    sources = [k for k in ("list", "pool", "pairs", "tables") if k in teams]
    allowed = {
        "round_robin": ("list", "pool"),
        "mirror": ("list", "pool"),
        "splits": ("pool",),
        "pairs": ("pairs",),
        "draft": ("pool",),
        "random_deal": ("pool",),
        "tables": ("tables",),
        "random_tables": ("pool",),
    }[mode]
    for key in sources:
        if key not in allowed:
            problems.add(f"teams.{key}", f"not used by mode {mode!r} (it takes {' or '.join(allowed)})")
    given = [k for k in sources if k in allowed]
    if len(given) != 1:
        what = " or ".join(f"teams.{k}" for k in allowed)
        problems.add(what if len(given) == 0 else "teams", f"mode {mode!r} needs exactly one of {what}")
        return mode, None
    if "include_mirror" in teams and mode != "round_robin":
        problems.add("teams.include_mirror", f"only used by mode 'round_robin', not {mode!r}")
    if len(problems.errors) > n_before:
        return mode, None

    source = given[0]
    if mode == "pairs":
        return mode, _parse_pairs(teams["pairs"], problems, catalog, ruleset, options)
    if mode == "tables":
        return mode, _parse_tables(teams["tables"], problems, catalog, ruleset, options, seats)

    team_list: list[Team] | None
    if source == "list":
        raw = teams["list"]
        if not isinstance(raw, list) or not raw:
            problems.add("teams.list", f"must be a non-empty array of teams, not {raw!r}")
            return mode, None
        parsed = [
            _parse_team(t, f"teams.list[{i}]", problems, catalog, ruleset, options) for i, t in enumerate(raw)
        ]
        if any(t is None for t in parsed):
            return mode, None
        team_list = [t for t in parsed if t is not None]
    else:
        pool = _parse_pool(teams["pool"], problems, catalog, ruleset)
        if pool is None:
            return mode, None
        if mode == "random_tables":
            if not catalog.all_teams(pool, ruleset, options):
                problems.add("teams.pool", f"no legal team (ruleset {ruleset!r}) can be drawn from it")
                return mode, None
            return mode, (tuple(tuple(pool) for _ in range(seats)),)
        if mode in DEALT_MODES:
            problem = dealt_pool_problem(mode, pool, catalog, ruleset, options)
            if problem:
                problems.add("teams.pool", problem)
                return mode, None
            return mode, ((tuple(pool), tuple(pool)),)
        if mode == "splits":
            splits = pool_splits(pool, catalog, ruleset, options)
            if not splits:
                problems.add("teams.pool", "cannot be split into two legal teams")
                return mode, None
            return mode, tuple(splits)
        team_list = legal_teams(pool, catalog, ruleset, options)
        if not team_list:
            problems.add("teams.pool", f"no legal team (ruleset {ruleset!r}) can be drawn from it")
            return mode, None

    if mode == "mirror":
        return mode, tuple(tuple(t for _ in range(seats)) for t in team_list)
    pairs = [
        (team_list[i], team_list[j])
        for i in range(len(team_list))
        for j in range(i if include_mirror else i + 1, len(team_list))
    ]
    if not pairs:
        problems.add("teams", "a round robin needs at least two teams (or include_mirror = true)")
        return mode, None
    return mode, tuple(pairs)


def _parse_ladder_teams(
    teams: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str,
    options: Options,
    master_seed: int | None,
    file: str,
    seats: int,
    variants: Sequence[tuple[str, str]] | None,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None, str]:
    """``mode = "ladder"``: a team study (its own module); it plays two players and one arm."""
    from krosbalance.studies.teams.experiment import parse_ladder

    if seats != 2:
        problems.add(
            "teams.mode", f"a team ladder pairs two teams; ruleset {ruleset!r} seats {seats} players here"
        )
        return "ladder", None, ""
    if variants:
        problems.add("variants", "a team ladder plays one arm: compare rules with one ladder per rule")
        return "ladder", None, ""
    if options is None:
        return "ladder", None, ""
    pairings, settings = parse_ladder(teams, problems, catalog, ruleset, options, master_seed, file)
    return "ladder", pairings, settings


def _parse_arm_teams(
    teams: Mapping[str, Any],
    problems: _Problems,
    catalog: Catalog,
    ruleset: str,
    arms: Sequence[tuple[str, Options]],
    seats: int = 2,
) -> tuple[str, tuple[tuple[Team, ...], ...] | None]:
    """``[teams]`` checked by the team rules of every arm (its ruleset built with its options: a team
    size, …), since each arm plays its matches under its own. A problem found under some arms only
    names them; the arms share their pairings, so an arm whose rules draw other teams from the pool
    is a problem too."""
    mode = "pairs"
    results: list[tuple[str, list[ExperimentError], tuple[tuple[Team, ...], ...] | None]] = []
    done: dict[str, tuple[list[ExperimentError], tuple[tuple[Team, ...], ...] | None]] = {}
    for arm, options in arms:
        key = json.dumps(options, sort_keys=True)
        if key not in done:  # arms with the same options have the same rules
            scratch = _Problems(problems.file)
            mode, pairings = _parse_teams(teams, scratch, catalog, ruleset, options, seats)
            done[key] = (scratch.errors, pairings)
        results.append((arm, *done[key]))
    found: dict[tuple[str, str], list[str]] = {}
    for arm, errors, _ in results:
        for error in errors:
            found.setdefault((error.field, error.reason), []).append(arm)
    for (field_name, reason), names in found.items():
        if len(names) < len(results):
            reason += f" (under the options of variant {', '.join(repr(name) for name in names)})"
        problems.add(field_name, reason)
    if found:
        return mode, None
    first, pairings = results[0][0], results[0][2]
    for arm, _, other in results[1:]:
        if other != pairings:
            problems.add(
                "teams",
                f"variant {arm!r} draws other teams from [teams] than variant {first!r} (its options change "
                "the team rules); the arms of an experiment play the same pairings: use one experiment "
                "per team rule",
            )
            return mode, None
    return mode, pairings


def _parse_tables(
    raw: Any, problems: _Problems, catalog: Catalog, ruleset: str, options: Options, seats: int
) -> tuple[tuple[Team, ...], ...] | None:
    """``tables``: explicit tables, each one team per seat (team A, team B, ...)."""
    if not isinstance(raw, list) or not raw:
        problems.add("teams.tables", f"must be a non-empty array of tables of {seats} teams, not {raw!r}")
        return None
    tables: list[tuple[Team, ...]] = []
    ok = True
    for i, table in enumerate(raw):
        if not isinstance(table, list) or len(table) != seats:
            problems.add(
                f"teams.tables[{i}]", f"must be a table of {seats} teams (one per seat), not {table!r}"
            )
            ok = False
            continue
        parsed = [
            _parse_team(team, f"teams.tables[{i}][{j}]", problems, catalog, ruleset, options)
            for j, team in enumerate(table)
        ]
        if any(team is None for team in parsed):
            ok = False
        else:
            tables.append(tuple(team for team in parsed if team is not None))
    return tuple(tables) if ok else None


def _parse_pairs(
    raw: Any, problems: _Problems, catalog: Catalog, ruleset: str, options: Options = None
) -> tuple[tuple[Team, Team], ...] | None:
    if not isinstance(raw, list) or not raw:
        problems.add("teams.pairs", f"must be a non-empty array of [team A, team B], not {raw!r}")
        return None
    pairs: list[tuple[Team, Team]] = []
    ok = True
    for i, pair in enumerate(raw):
        if not isinstance(pair, list) or len(pair) != 2:
            problems.add(f"teams.pairs[{i}]", f"must be [team A, team B], not {pair!r}")
            ok = False
            continue
        a = _parse_team(pair[0], f"teams.pairs[{i}][0]", problems, catalog, ruleset, options)
        b = _parse_team(pair[1], f"teams.pairs[{i}][1]", problems, catalog, ruleset, options)
        if a is None or b is None:
            ok = False
        else:
            pairs.append((a, b))
    return tuple(pairs) if ok else None


# ------------------------------------------------------------------------------------ team generation
# The team rules are the ruleset's (Arena: ``krosbalance.rulesets.arena.teams``); these ask the catalog.


def legal_teams(
    pool: Sequence[str], catalog: Catalog, ruleset: str = DEFAULT_RULESET, options: Options = None
) -> list[Team]:
    """All legal teams that can be drawn from a pool of figures (a multiset of ids)."""
    return catalog.legal_teams(pool, ruleset, options)


def pool_splits(
    pool: Sequence[str], catalog: Catalog, ruleset: str = DEFAULT_RULESET, options: Options = None
) -> list[tuple[Team, Team]]:
    """Every split of the pool into two legal teams, each unordered split once (team A holds pool[0])."""
    return catalog.team_splits(pool, ruleset, options)


def dealt_pool_problem(
    mode: str, pool: Sequence[str], catalog: Catalog, ruleset: str = DEFAULT_RULESET, options: Options = None
) -> str:
    """Why a pool cannot be dealt by ``draft`` or ``random_deal`` (R-A17), or '' when it can."""
    return catalog.deal_problem(mode, pool, ruleset, options)


# ------------------------------------------------------------------------------------------ expansion

#: the seed-sequence child of a deal's seed that draws a ``random_tables`` table: apart from every
#: stream a match draws from (``krosbalance.play.match_streams`` uses the first children)
TABLE_STREAM = 100


def draw_table(teams: Sequence[Team], seats: int, seed: int) -> tuple[Team, ...]:
    """``random_tables``: ``seats`` teams drawn at random, with replacement, from the legal teams of
    the pool (each player has his own figures: two may field the same team), seeded by the deal."""
    import numpy as np

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(TABLE_STREAM,)))
    return tuple(teams[int(i)] for i in rng.integers(len(teams), size=seats))


def expand(experiment: Experiment) -> list[MatchSpec]:
    """The experiment's matches in a stable order; ``match_id`` is the index in this list.

    Order: pairing, board, AI matchup, deal; within a deal each reward variant (``held_rewards``: none,
    then each token), within it the direct match, then (paired seeds) its side-swapped twin, and each
    of these once per arm (``[[variants]]``), in order, all with the deal's seed. ``deal`` counts deals
    within a pairing across boards and AI
    matchups, so ``(pairing, deal)`` names one deal; the seed depends only on the deal's global index.
    """
    return list(iter_matches(experiment))


def iter_matches(experiment: Experiment) -> Iterator[MatchSpec]:
    arms = experiment.arms
    seats = experiment.seats
    seatings = experiment.seatings
    dealt = experiment.mode in DEALT_MODES
    drawn = experiment.mode == "random_tables"
    if dealt or experiment.board_choice:  # the pregame of R-A17/R-A19 needs the rules and the AIs
        from krosbalance.play import deal_teams, pick_board

    # each arm's ruleset object, the one its matches play (built once: ``arm_ruleset``)
    rules = [arm_ruleset(experiment.ruleset, arm_options) for _, arm_options in arms]
    patches = [experiment.patch_of(arm) for arm, _ in arms]  # each arm's cards
    if any(patches) and (dealt or experiment.board_choice):  # a draft picks by the patched cards
        from krosbalance.sim.patches import patched_registry
    cards = [
        patched_registry(patch) if patch and (dealt or experiment.board_choice) else None for patch in patches
    ]
    match_id = 0
    global_deal = 0
    for p, pairing in enumerate(experiment.pairings):
        pool = pairing[0]  # dealt and drawn modes: the pairing is the pool at every seat
        reward_variants = experiment.reward_variants_of(pairing)
        drawable = rules[0].all_teams(list(pool)) if drawn else []
        deal = 0
        for boards in experiment.board_groups:
            for table_ais, n_deals in zip(experiment.ais, experiment.deals_per_matchup, strict=True):
                for _ in range(n_deals):
                    seed = deal_seed(experiment.master_seed, global_deal)
                    # the teams of each arm: the pairing's, dealt anew by the arm's rules, or drawn
                    table: tuple[Team, ...] = draw_table(drawable, seats, seed) if drawn else pairing
                    arm_teams = [
                        deal_teams(
                            experiment.mode,
                            pool,
                            (table_ais[0], table_ais[1]),
                            seed,
                            ruleset=rules[i],
                            registry=cards[i],
                        )
                        if dealt
                        else table
                        for i in range(len(arms))
                    ]
                    for held in reward_variants:  # same seed: paired with the baseline
                        for seating in seatings:
                            swapped = seats == 2 and seating == 1
                            for i, (arm, arm_options) in enumerate(arms):  # every arm on the same seed
                                teams = arm_teams[i]
                                board = boards[0]
                                if len(boards) > 1:  # R-A19 (R-A154 with four): seated as the match
                                    seated = _seated(seats, swapped, seating)
                                    board = pick_board(
                                        boards,
                                        *(teams[k] for k in seated),
                                        ai=tuple(table_ais[k] for k in seated),
                                        seed=seed,
                                        ruleset=rules[i],
                                        registry=cards[i],
                                    )
                                yield MatchSpec(
                                    match_id=match_id,
                                    experiment=experiment.name,
                                    pairing=p,
                                    deal=deal,
                                    swapped=swapped,
                                    seed=seed,
                                    team_a=teams[0],
                                    team_b=teams[1],
                                    ai_a=table_ais[0],
                                    ai_b=table_ais[1],
                                    board=board,
                                    ruleset=experiment.ruleset,
                                    options_json=(
                                        variant_options(json.loads(arm_options), held, swapped)
                                        if held
                                        else arm_options
                                    ),
                                    record=experiment.record,
                                    variant="/".join(name for name in (arm, held) if name),
                                    more_teams=tuple(teams[2:]),
                                    more_ais=tuple(table_ais[2:]),
                                    rotation=seating if seats > 2 else 0,
                                    patch=patches[i],
                                    forbid=experiment.forbid_of(arm),
                                )
                                match_id += 1
                    deal += 1
                    global_deal += 1


def _seated(seats: int, swapped: bool, rotation: int) -> tuple[int, ...]:
    """Which of a table's teams (0 = A, 1 = B, ...) plays each seat: ``MatchSpec.label_index``."""
    if seats == 2:
        return (1, 0) if swapped else (0, 1)
    return tuple((seat + rotation) % seats for seat in range(seats))
