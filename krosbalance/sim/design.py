"""The validated experiment: its factors (pairings, boards, AI matchups, deals, seatings) and its
arms (:class:`krosbalance.sim.arms.Arm`), as the experiment file's parser builds it
(:mod:`krosbalance.sim.experiment_file`) and the expansion reads it (:mod:`krosbalance.sim.expansion`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from krosbalance.paths import NAME_MAX as _PATH_NAME_MAX
from krosbalance.paths import name_problem
from krosbalance.sim.arms import Arm
from krosbalance.sim.catalog import DEFAULT_BOARD, DEFAULT_RULESET
from krosbalance.sim.patches import merge_patches, patch_from_json
from krosbalance.sim.reward_arms import reward_variants
from krosbalance.sim.spec import Team

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
    "content",
    "target",
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
    #: the file has a ``[fix]`` table (``krosbalance fix``, :mod:`krosbalance.studies.patches.fixer`): a patch study
    fix: bool = False
    #: ``study = "..."``: the study the file names (:mod:`krosbalance.studies`); '' = the one that
    #: claims it from its other tables
    study: str = ""
    #: ``content = "DIR"`` (or ``--content``): the designer's cards it is played with, as the absolute
    #: folder and its digest (:mod:`krosbalance.sim.content_key`); '' = the shipped cards only
    content: str = ""
    content_digest: str = ""
    #: ``[target]``: the AIs whose matches are played in rounds until the headline's CI is as narrow
    #: as asked, resolved, as JSON (:mod:`krosbalance.sim.target`); '' = every deal is played
    target: str = ""

    def patch_of(self, arm: str) -> str:
        """The canonical patch JSON an arm plays: the experiment's patch with the arm's own over it."""
        own = dict(self.arm_patches).get(arm, "")
        if not self.patch or not own:
            return own or self.patch
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
        team_a = pairing[0] if pairing and self.reward_holders != "ai" else ()
        return reward_variants(self.held_rewards, self.reward_holders, self.purchase_rewards, team_a)

    def arms_of(self, pairing: Sequence[Team]) -> tuple[Arm, ...]:
        """Every arm a deal of ``pairing`` is played under, in the order of the expansion: for each
        reward variant (:meth:`reward_variants_of`; '' first), each option arm (:attr:`arms`), with
        its patch (:meth:`patch_of`) and what it forbids (:meth:`forbid_of`). The one place an arm
        is assembled."""
        option_arms = [
            (name, options, self.patch_of(name), self.forbid_of(name)) for name, options in self.arms
        ]
        return tuple(
            Arm(name, options, patch, forbid, reward)
            for reward in self.reward_variants_of(pairing)
            for name, options, patch, forbid in option_arms
        )

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
