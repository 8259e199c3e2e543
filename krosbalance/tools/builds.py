"""The two builds side by side: the installed one (compiled unless ``KROSBALANCE_PURE=1`` at install
time) and a pure-Python copy of the same sources, run in a subprocess.

The copy is the installed package's directory without its extension modules, so it holds exactly the
sources that were compiled. :func:`compare_builds` plays the same seeded matches of every registered
AI, recorded in full — Arena box matches for the Arena AIs, Blast matches for the Blast AIs — in
both builds and compares the event-log digests: the identity check that
``make test`` runs and ``make bench`` prints. ``python -m krosbalance.tools.builds`` runs it alone.
The AIs of the search tier, each match of which plays hundreds of turns on copies, play a smaller
slice by default (``search_matches_per_ai``; ``make battery`` plays them as many as the others).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import krosbalance
from krosbalance.ai.registry import ai_rulesets, ai_tier, list_ais
from krosbalance.build_info import MANIFEST, build_mode
from krosbalance.content.registry import list_characters
from krosbalance.engine.results import MatchResult
from krosbalance.play import DEFAULT_BOARD, DEFAULT_RULESET, play_match
from krosbalance.rulesets.registry import get_ruleset

__all__ = [
    "BLAST_BOARD",
    "BLAST_OPTIONS",
    "BOX_SET",
    "IdentityReport",
    "WORKLOADS",
    "Workload",
    "blast_splits",
    "box_splits",
    "duel_splits",
    "compare_builds",
    "event_digests",
    "identity_matches",
    "match_digest",
    "home_ruleset",
    "match_outcome",
    "pure_copy",
    "pure_python",
]

#: the first seed of the benchmark's and the identity check's matches
BASE_SEED = 20_251_130
#: the card set whose Krosmasters the benchmark and the identity check split into teams
BOX_SET = "arena-box"
#: the Blast board and options of the benchmark's and the identity check's Blast matches
BLAST_BOARD = "blast-a"
BLAST_OPTIONS: dict[str, Any] = {"challenges": ["random"]}
#: the Duel Pack's card set and the board of the identity check's duels
DUEL_SET = "duel-pack"
DUEL_BOARD = "duel-workshop"
#: seeded matches per AI in the identity check (half against itself, half against the next AI)
MATCHES_PER_AI = 80
#: the same for each AI of the search tier in the default check
SEARCH_MATCHES_PER_AI = 6


def box_splits(card_set: str = BOX_SET) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every split of the Krosmasters of ``card_set`` into two legal Arena teams, the first always
    holding the first Krosmaster by id (35 splits for the eight box Krosmasters); the team rules are
    the Arena ruleset's."""
    return get_ruleset(DEFAULT_RULESET).team_splits(list_characters(set=card_set))


def blast_splits() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every split into two Blast teams of every four of the Blast Krosmasters (45 for the six)."""
    rules = get_ruleset("blast")
    pool = list_characters(game="blast")
    return [split for four in itertools.combinations(pool, 4) for split in rules.team_splits(list(four))]


def duel_splits() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every one-figure duel between two of the Duel Pack's and the box's Krosmasters (R-D14)."""
    pool = list_characters(set=DUEL_SET) + list_characters(set=BOX_SET)
    return [((a,), (b,)) for a, b in itertools.combinations(pool, 2)]


Splits = list[tuple[tuple[str, ...], tuple[str, ...]]]


@dataclass(frozen=True, slots=True)
class Workload:
    """The seeded matches of one ruleset that the benchmark and the identity check play: the team
    splits taken in turn, the board, the options, the offset of the seeds and the digest keys'
    prefix. Which AIs play them is their own declaration (``AI.rulesets``, :func:`home_ruleset`)."""

    splits: Callable[[], Splits]
    board: str
    options: dict[str, Any] | None
    seed_offset: int
    prefix: str


#: the workload of each ruleset the benchmark and the identity check know, by ruleset name
WORKLOADS: dict[str, Workload] = {
    DEFAULT_RULESET: Workload(box_splits, DEFAULT_BOARD, None, 0, ""),
    "blast": Workload(blast_splits, BLAST_BOARD, BLAST_OPTIONS, 1_000_000, "blast:"),
    "duel": Workload(duel_splits, DUEL_BOARD, None, 2_000_000, "duel:"),
}


def home_ruleset(ai: str) -> str | None:
    """The ruleset whose workload an AI plays in the identity check: the first it declares that has
    a workload (``random``, which plays them all, plays Arena's)."""
    return next((ruleset for ruleset in ai_rulesets(ai) if ruleset in WORKLOADS), None)


def match_outcome(result: MatchResult) -> tuple[Any, ...]:
    """Everything in a MatchResult but its events, as comparable values: the outcome, the ruleset's
    holdings (its declared values) and each fighter's counters."""
    return (
        result.winner,
        result.end_reason,
        result.turns,
        result.first_player,
        result.teams,
        result.board,
        result.ruleset,
        result.seed,
        result.versions,
        [(f.as_row(), sorted(f.values.items())) for f in result.fighters],
        sorted(result.values.items()),
    )


def match_digest(result: MatchResult) -> str:
    """SHA-256 of everything a match leaves behind: every event (``repr``) and its outcome."""
    text = "\n".join(repr(e) for e in result.events) + "\n" + repr(match_outcome(result))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def identity_matches(matches_per_ai: int, search_matches_per_ai: int) -> int:
    """How many matches :func:`event_digests` plays with these budgets."""
    return sum(
        search_matches_per_ai if ai_tier(ai) == "search" else matches_per_ai
        for ai in list_ais()
        if home_ruleset(ai) is not None
    )


def event_digests(
    matches_per_ai: int = MATCHES_PER_AI,
    board: str = DEFAULT_BOARD,
    search_matches_per_ai: int = SEARCH_MATCHES_PER_AI,
) -> dict[str, str]:
    """``{"ai0/ai1/seed": digest}`` for seeded matches of every registered AI, recorded in full, each
    on the workload of its :func:`home_ruleset` (Arena: the box splits on ``board``; Blast:
    :func:`blast_splits` on :data:`BLAST_BOARD`, a random Divine Challenge, keys ``blast:…``): each
    AI plays half its matches against itself and half against the next AI by name of that ruleset
    — an AI of the search tier ``search_matches_per_ai`` matches, the others against the next AI
    outside the search tier (so that their many matches stay cheap), or, alone in its ruleset,
    against the first other AI that plays it."""
    digests = {}
    boards = {**{ruleset: workload.board for ruleset, workload in WORKLOADS.items()}, DEFAULT_RULESET: board}
    for ruleset, workload in WORKLOADS.items():
        ais = [ai for ai in list_ais() if home_ruleset(ai) == ruleset]
        cheap = [ai for ai in ais if ai_tier(ai) != "search"]
        others = list_ais(ruleset)
        splits = workload.splits()
        for i, ai in enumerate(ais):
            searching = ai_tier(ai) == "search"
            if searching:
                rival = ais[(i + 1) % len(ais)]
            elif len(cheap) > 1:
                rival = cheap[(cheap.index(ai) + 1) % len(cheap)]
            else:
                rival = next((other for other in others if other != ai), ai)
            count = search_matches_per_ai if searching else matches_per_ai
            for k in range(count):
                pair = (ai, ai) if k % 2 == 0 else (ai, rival)
                team0, team1 = splits[(i * matches_per_ai + k) % len(splits)]
                seed = BASE_SEED + workload.seed_offset + i * matches_per_ai + k
                result = play_match(
                    team0,
                    team1,
                    board=boards[ruleset],
                    ai=pair,
                    seed=seed,
                    record="full",
                    ruleset=ruleset,
                    options=workload.options,
                )
                digests[f"{workload.prefix}{pair[0]}/{pair[1]}/{seed}"] = match_digest(result)
    return digests


def _package_dir() -> Path:
    return Path(krosbalance.__file__).resolve().parent


@contextmanager
def pure_copy() -> Iterator[Path]:
    """A temporary folder holding a copy of the installed package without its extension modules:
    put it first on ``sys.path`` (and run from it) to import the pure-Python build."""
    with tempfile.TemporaryDirectory(prefix="krosbalance-pure-") as tmp:
        shutil.copytree(
            _package_dir(),
            Path(tmp) / "krosbalance",
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", MANIFEST),
        )
        yield Path(tmp)


def pure_python(root: Path, args: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    """Start ``python ARGS`` on the pure copy at ``root`` (from :func:`pure_copy`); it checks that it
    runs the pure build."""
    env = dict(os.environ, PYTHONPATH=str(root), KROSBALANCE_EXPECT_BUILD="pure")
    return subprocess.Popen([sys.executable, *args], cwd=root, env=env, text=True, **kwargs)


def expect_build() -> None:
    """Exit with a message if ``KROSBALANCE_EXPECT_BUILD`` names another build than the one running
    (the pure copy must not import compiled modules)."""
    expected = os.environ.get("KROSBALANCE_EXPECT_BUILD")
    if expected and build_mode() != expected:
        raise SystemExit(f"expected the {expected} build, running the {build_mode()} build")


@dataclass(frozen=True)
class IdentityReport:
    """Digests of the same matches in the installed build and in the pure copy."""

    build: str
    matches: int
    mismatches: list[str]
    seconds_installed: float
    seconds_pure: float

    def line(self) -> str:
        verdict = "identical" if not self.mismatches else f"{len(self.mismatches)} DIFFER"
        return (
            f"identity: {self.matches} seeded matches of every AI ({', '.join(list_ais())}; Blast AIs "
            f"on Blast), event logs "
            f"{self.build} vs pure: {verdict} ({self.seconds_installed:.1f} s vs {self.seconds_pure:.1f} s)"
        )


def compare_builds(
    matches_per_ai: int = MATCHES_PER_AI,
    board: str = DEFAULT_BOARD,
    search_matches_per_ai: int = SEARCH_MATCHES_PER_AI,
) -> IdentityReport:
    """Play the identity matches in this process and in a pure copy (at the same time) and compare."""
    with pure_copy() as root:
        start = time.perf_counter()
        child = pure_python(
            root,
            [
                "-m",
                "krosbalance.tools.builds",
                "--digests",
                "--matches-per-ai",
                str(matches_per_ai),
                "--board",
                board,
                "--search-matches-per-ai",
                str(search_matches_per_ai),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        mine = event_digests(matches_per_ai, board, search_matches_per_ai)
        installed = time.perf_counter() - start
        out, err = child.communicate()
        pure = time.perf_counter() - start
    if child.returncode != 0:
        raise RuntimeError(f"the pure build failed (exit {child.returncode}):\n{err}")
    theirs = json.loads(out)
    differ = sorted(key for key in mine.keys() | theirs.keys() if mine.get(key) != theirs.get(key))
    return IdentityReport(build_mode(), len(mine), differ, installed, pure)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m krosbalance.tools.builds", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--matches-per-ai", type=int, default=MATCHES_PER_AI)
    parser.add_argument("--search-matches-per-ai", type=int, default=SEARCH_MATCHES_PER_AI)
    parser.add_argument("--board", default=DEFAULT_BOARD)
    parser.add_argument("--digests", action="store_true", help="print this build's digests as JSON")
    args = parser.parse_args(argv)
    expect_build()
    if args.digests:
        print(json.dumps(event_digests(args.matches_per_ai, args.board, args.search_matches_per_ai)))
        return 0
    report = compare_builds(args.matches_per_ai, args.board, args.search_matches_per_ai)
    print(report.line())
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
