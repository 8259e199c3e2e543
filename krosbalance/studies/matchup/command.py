"""``krosbalance compare TEAM TEAM [TEAM...]``: does this team beat that one, and by how much?

A team is comma-separated figure names as the game prints them (``"Bill Tell,Lil Healey,Queen of
the Tofus,Kassius Kaos"``; ids and aliases work too) or a file: a collection file (``.toml``,
``[figures] name = copies``, :mod:`krosbalance.sim.rosters`) fielded whole, or a text file of names
(commas or one a line, ``#`` comments). Each team is checked by the ruleset's team rule; a bad name
or team is one line and exit status 2.

The command writes an experiment file for the matchup (``study = "matchup"``, every pair of teams,
each deal from both sides) beside the results folder, runs it (resumable with ``--resume``, as
``run``), prints the study's answer and writes the report, whose first screen is that answer.
Without ``--ai``, ``--budget`` chooses the strongest AI of the ladder whose estimated run fits
(:mod:`krosbalance.studies.matchup.choice`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from krosbalance import play
from krosbalance.analysis.names import display_name
from krosbalance.errors import KrosbalanceError
from krosbalance.sim.backends import available_cores
from krosbalance.sim.rosters import read_collection
from krosbalance.sim.study_names import close_names, did_you_mean
from krosbalance.studies.matchup import api
from krosbalance.studies.matchup.choice import Choice, choose_ai, ladder_candidates

Team = tuple[str, ...]
DEFAULT_MATCHES = 1000
DEFAULT_BUDGET = 300.0
DEFAULT_SEED = 20261206
DEFAULT_BOARD = "arena-elemental"
DEFAULT_RULESET = "arena"
EXIT_MATCH_ERRORS = 1


def _at_least(minimum: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, not {value}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {text}")
    return value


def add_compare_parser(sub: Any) -> argparse.ArgumentParser:
    """Add ``compare`` to the CLI's subcommands (``sub``: ``add_subparsers()``'s object)."""
    p = sub.add_parser(
        "compare",
        help="does this team beat that one? play them against each other and answer in win %%",
        description="Play two or more teams against each other (each pair, each deal from both sides), print "
        "the answer and write the report. Several teams: a round robin and a ranking.",
    )
    p.add_argument(
        "teams",
        nargs="+",
        metavar="TEAM",
        help='comma-separated figure names ("Bill Tell,Lil Healey,Queen of the Tofus,Kassius Kaos"), '
        "or a file: a collection .toml ([figures] name = copies) or a text file of names",
    )
    p.add_argument(
        "--matches",
        "-n",
        type=_at_least(2),
        default=DEFAULT_MATCHES,
        help="matches per pair, spread over the boards (default 1000)",
    )
    p.add_argument(
        "--ai", default=None, help="the AI both teams play (default: the strongest --budget affords)"
    )
    p.add_argument(
        "--budget",
        type=_seconds,
        default=DEFAULT_BUDGET,
        help=f"seconds the run may take when choosing the AI (default {DEFAULT_BUDGET:.0f})",
    )
    p.add_argument(
        "--board", action="append", default=None, help=f"board (repeat for several; default {DEFAULT_BOARD})"
    )
    p.add_argument("--ruleset", default=DEFAULT_RULESET, help=f"ruleset (default {DEFAULT_RULESET})")
    p.add_argument(
        "--seed", type=_at_least(0), default=DEFAULT_SEED, help=f"master seed (default {DEFAULT_SEED})"
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=_at_least(1),
        default=None,
        help="parallel workers (default: the cores available)",
    )
    p.add_argument("--out", "-o", type=Path, default=None, help="results folder (default results/<name>)")
    p.add_argument(
        "--report-out", type=Path, default=None, metavar="DIR", help="report folder (default reports/<name>)"
    )
    p.add_argument("--to", dest="report_out", type=Path, help=argparse.SUPPRESS)  # the old spelling
    p.add_argument("--resume", action="store_true", help="continue an interrupted compare in --out")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(handler=cmd_compare)
    parser: argparse.ArgumentParser = p
    return parser


add_parser = add_compare_parser
"""The hook the CLI finds in a study's ``command`` module (:mod:`krosbalance.cli`)."""


# ------------------------------------------------------------------------------------------- teams


def _names_in(text: str) -> list[str]:
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    return [part.strip() for line in lines for part in line.split(",") if part.strip()]


def _unknown(name: str, where: str, known: Sequence[str]) -> KrosbalanceError:
    shown = {display_name(c): c for c in known}
    close = close_names(name, list(shown))
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return KrosbalanceError(
        f"{where}: unknown figure {name!r}{hint} (krosbalance list characters lists every one)"
    )


def parse_team(text: str, where: str, catalog: Any, ruleset: str) -> Team:
    """One TEAM argument as ids, checked by the ruleset's team rule.

    Raises:
        KrosbalanceError: an unknown figure (with the near names), an unreadable file, or a team the
            rules refuse; one line naming the team and the figure.
    """
    known = catalog.characters(ruleset)
    if text.endswith(".toml"):
        try:
            ids = list(read_collection(text, catalog, ruleset))
        except KrosbalanceError as exc:
            raise KrosbalanceError(f"{where}: {exc}") from None
        where = f"{where} ({text})"
    else:
        path = Path(text)
        if "," not in text and path.is_file():
            names = _names_in(path.read_text(encoding="utf-8"))
            where = f"{where} ({text})"
        else:
            names = [part.strip() for part in text.split(",") if part.strip()]
        if not names:
            raise KrosbalanceError(
                f"{where}: no figure named; a team is comma-separated figure names or a file"
            )
        ids = []
        for name in names:
            try:
                figure = catalog.resolve_character(name)
            except KrosbalanceError:
                raise _unknown(name, where, known) from None
            if figure not in known:
                raise KrosbalanceError(
                    f"{where}: {display_name(figure)!r} is not a Krosmaster of ruleset {ruleset!r}"
                )
            ids.append(figure)
    try:
        catalog.check_team(ids, ruleset)
    except KrosbalanceError as exc:
        raise KrosbalanceError(f"{where}: {exc}") from None
    return tuple(ids)


def parse_teams(texts: Sequence[str], catalog: Any, ruleset: str) -> list[Team]:
    """Every TEAM argument; two that are the same team (in any order) are refused."""
    if len(texts) < 2:
        raise KrosbalanceError("compare needs two teams or more")
    teams: list[Team] = []
    for i, text in enumerate(texts, 1):
        team = parse_team(text, f"team {i}", catalog, ruleset)
        same = next((j for j, other in enumerate(teams, 1) if sorted(other) == sorted(team)), None)
        if same is not None:
            raise KrosbalanceError(f"team {i}: the same team as team {same}; compare different teams")
        teams.append(team)
    return teams


def _one_of(value: str, known: Sequence[str], what: str, listing: str) -> str:
    if value in known:
        return value

    raise KrosbalanceError(
        f"--{what}: unknown {what} {value!r}{did_you_mean(value, known)} ({listing} lists them)"
    )


# -------------------------------------------------------------------------------------- experiment


def experiment_name(
    teams: Sequence[Team], boards: Sequence[str], ai: str, seed: int, matches: int, ruleset: str
) -> str:
    """``compare-bill_tell-vs-king_of_the_gobballs-1a2b3c``: readable, and one folder per request."""
    digest = hashlib.sha1(
        json.dumps([list(map(list, teams)), list(boards), ai, seed, matches, ruleset]).encode()
    ).hexdigest()[:6]
    head = "-vs-".join(team[0] for team in teams[:2]) + (f"-and-{len(teams) - 2}" if len(teams) > 2 else "")
    return f"compare-{head[:60]}-{digest}"


def deals_per_board(matches: int, boards: Sequence[str]) -> int:
    """Deals per pair and board so that a pair plays at least ``matches`` matches (two a deal)."""
    return max(1, math.ceil(matches / (2 * len(boards))))


def experiment_text(
    name: str, teams: Sequence[Team], boards: Sequence[str], ai: str, seed: int, matches: int, ruleset: str
) -> str:
    """The experiment file of a compare: every pair of teams, ``matches`` per pair (half as many
    deals, each from both sides), one AI for both teams, ``study = "matchup"``."""
    pairs = [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]]
    described = " vs ".join("(" + ", ".join(display_name(c) for c in team) + ")" for team in teams)
    pair_lines = ",\n".join(f"    [{json.dumps(list(a))},\n     {json.dumps(list(b))}]" for a, b in pairs)
    return (
        f"# Written by `krosbalance compare`; `krosbalance run` plays it again.\n"
        f"name = {json.dumps(name)}\n"
        f"description = {json.dumps('Compare ' + described)}\n"
        f'study = "matchup"\n'
        f"ruleset = {json.dumps(ruleset)}\n"
        f"master_seed = {seed}\n"
        f"matches_per_pairing = {deals_per_board(matches, boards)}  # deals per pair and board, each from both sides\n"
        f"paired_seeds = true\n"
        f"boards = {json.dumps(list(boards))}\n"
        f"ais = [{json.dumps(ai)}]\n\n"
        f"[teams]\n"
        f'mode = "pairs"\n'
        f"pairs = [\n{pair_lines},\n]\n"
    )


#: how long the timing of one AI plays after its warm-up match (it plays at least two matches)
TIMING_SECONDS = 0.5


def measure_seconds(ai: str, teams: Sequence[Team], boards: Sequence[str], seed: int, ruleset: str) -> float:
    """Seconds one match of ``ai`` takes here, as the run will play it (the engine ``auto`` picks):
    one warm-up match first (imports, the native core's catalog: paid once per worker, not per
    match), then matches of the first two teams, sides alternating, for :data:`TIMING_SECONDS` (at
    least two). Timing a whole small run instead counted its files and start-up as match time and
    made a heuristic look fifty times dearer than it is."""
    first, second = list(teams[0]), list(teams[1])

    def one(k: int) -> None:
        seats = (first, second) if k % 2 == 0 else (second, first)
        play.play_match(*seats, board=boards[0], ai=ai, seed=seed + k, ruleset=ruleset)

    one(0)
    start, played = time.perf_counter(), 0
    while played < 2 or (time.perf_counter() - start < TIMING_SECONDS and played < 200):
        played += 1
        one(played)
    return (time.perf_counter() - start) / played


def resumed_ai(out: Path) -> str | None:
    """The AI of the compare being resumed in ``out`` (its experiment copy), None without one."""
    import tomllib

    copy = out / "experiment.toml"
    try:
        ais = tomllib.loads(copy.read_text(encoding="utf-8")).get("ais")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return str(ais[0]) if isinstance(ais, list) and ais and isinstance(ais[0], str) else None


def choose(
    args: argparse.Namespace,
    teams: Sequence[Team],
    boards: Sequence[str],
    catalog: Any,
    jobs: int,
    out: Path | None,
) -> Choice:
    """The AI of the run: ``--ai``; on ``--resume`` the one the run began with; else the budget's."""
    ais = catalog.ais(args.ruleset)
    if args.ai is not None:
        ai = _one_of(args.ai, ais, "ai", "krosbalance list ais")
        problem = catalog.ai_problem(ai, args.ruleset)
        if problem:
            raise KrosbalanceError(f"--ai: {problem}")
        return Choice(ai, f"AI: {ai} (--ai).")
    candidates = ladder_candidates(
        api.ladder_ratings(), lambda a: not catalog.ai_problem(a, args.ruleset), ais
    )
    if not candidates:
        candidates = [a for a in ais if not catalog.ai_problem(a, args.ruleset)]
    if args.resume:  # the AI the run began with: in --out, or in the default folder of one AI
        folders = (
            [out]
            if out is not None
            else [
                Path("results") / experiment_name(teams, boards, ai, args.seed, args.matches, args.ruleset)
                for ai in candidates
            ]
        )
        for folder in folders:
            before = resumed_ai(folder)
            if before is not None:
                return Choice(before, f"AI: {before}, the AI of the run being resumed in {folder}.")
    pairs = len(teams) * (len(teams) - 1) // 2
    n_matches = pairs * len(boards) * 2 * deals_per_board(args.matches, boards)
    return choose_ai(
        candidates,
        n_matches,
        jobs,
        args.budget,
        lambda ai: measure_seconds(ai, teams, boards, args.seed, args.ruleset),
    )


# ------------------------------------------------------------------------------------------ command


def cmd_compare(args: argparse.Namespace) -> int:
    """Check the teams, choose the AI, run the matchup, print the answer, write the report."""
    started = time.perf_counter()
    catalog = api.catalog()
    _one_of(args.ruleset, catalog.rulesets(), "ruleset", "krosbalance list rulesets")
    if catalog.seats(args.ruleset) != 2:
        raise KrosbalanceError(
            f"--ruleset: {args.ruleset!r} seats {catalog.seats(args.ruleset)} players; compare plays two"
        )
    teams = parse_teams(args.teams, catalog, args.ruleset)
    boards = [
        _one_of(b, catalog.boards(args.ruleset), "board", "krosbalance list boards")
        for b in args.board or [DEFAULT_BOARD]
    ]
    jobs = args.jobs or available_cores()
    choice = choose(args, teams, boards, catalog, jobs, args.out)
    name = experiment_name(teams, boards, choice.ai, args.seed, args.matches, args.ruleset)
    out = args.out if args.out is not None else Path("results") / name
    report_dir = args.report_out if args.report_out is not None else Path("reports") / name
    source = out.parent / f"{out.name}.toml"
    text = experiment_text(name, teams, boards, choice.ai, args.seed, args.matches, args.ruleset)
    experiment = api.load_experiment_text(text, str(source))  # checked before anything is written
    print(choice.reason)
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text, encoding="utf-8")
    pairs = len(experiment.pairings)
    print(
        f"{len(teams)} teams, {pairs} pair{'s' if pairs > 1 else ''}, {experiment.n_matches:,} matches "
        f"({experiment.n_matches // pairs:,} per pair, each deal from "
        f"both sides) on {', '.join(boards)}, seed {args.seed}, {jobs} jobs; experiment file {source}"
    )
    summary = api.run_experiment(
        source, out, jobs=jobs, resume=args.resume, progress=False if args.no_progress else None
    )
    print(
        f"{summary.n_matches:,} matches ({summary.n_played:,} played, {summary.n_skipped:,} already done), "
        f"{summary.n_errors} errors, {summary.seconds:.1f} s -> {summary.out}"
    )
    path, lines = api.write_report(out, report_dir)  # the answer from the report's own tables, built once
    print()
    for line in lines or ["No answer: no error-free match."]:
        print(line)
    print()
    print(f"report: {path} ({time.perf_counter() - started:.0f} s in all)")
    if summary.n_errors:
        print(
            f"error: {summary.n_errors} of {summary.n_played} matches failed; the first: {summary.first_error}; "
            f"every traceback is in {summary.out / 'errors'}",
            file=sys.stderr,
        )
        return EXIT_MATCH_ERRORS
    return 0


__all__ = [
    "add_compare_parser",
    "choose",
    "cmd_compare",
    "experiment_name",
    "experiment_text",
    "measure_seconds",
    "parse_team",
    "parse_teams",
]
