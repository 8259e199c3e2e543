"""The ``krosbalance`` command line: a thin layer over ``sim``, ``analysis`` and ``render``.

User mistakes (a bad experiment file, an unknown name, an output folder in the way) raise a
``KrosbalanceError``; ``main`` prints ``error: <message>`` on stderr and exits with status 2, never
with a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from krosbalance.errors import KrosbalanceError

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_MATCH_ERRORS = 1  # the run finished but some matches raised (recorded, counted, the first shown)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, not {value}")
    return value


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError("must be >= 1, or negative to count back from all cores (-1 = all)")
    return value


def build_parser() -> argparse.ArgumentParser:
    from krosbalance.engine_choice import ENGINE_CHOICES
    from krosbalance.sim.backends import BACKENDS

    parser = argparse.ArgumentParser(
        prog="krosbalance", description="Krosmaster Arena balance questions answered by simulation."
    )
    parser.add_argument(  # one option for every command (krosbalance.content.custom)
        "--content",
        type=Path,
        default=None,
        metavar="DIR",
        help="a folder of your own cards (characters/, rewards/, boards/) over the shipped ones; "
        "default $KROSBALANCE_CONTENT",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="run an experiment file, writing Parquet shards")
    run.add_argument("file", type=Path, help="experiment TOML file (see simulations/)")
    run.add_argument("--jobs", "-j", type=_jobs, default=1, help="parallel workers (-1 = all cores)")
    run.add_argument("--out", "-o", type=Path, default=None, help="output folder (default results/<name>)")
    run.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    run.add_argument(
        "--batch-size", type=_positive_int, default=None, help="matches per task (default: ~1 s)"
    )
    run.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend (default loky)")
    run.add_argument("--address", default=None, help="Dask scheduler / Ray cluster address")
    run.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    run.add_argument(
        "--engine",
        choices=ENGINE_CHOICES,
        default="auto",
        help="auto (default): the native core plays what it can, the Python reference the rest; "
        "KROSBALANCE_ENGINE=reference overrides",
    )
    run.add_argument(
        "--patch",
        default=None,
        help="a balance patch (shipped name or .toml file) played by every arm; default --out results/<name>--<patch>",
    )
    run.set_defaults(handler=cmd_run)

    fix = sub.add_parser("fix", help="propose the smallest balance patch for a [fix] file, then verify it")
    fix.add_argument(
        "file", type=Path, help="experiment TOML file with a [fix] table (see simulations/fix-the-box.toml)"
    )
    fix.add_argument("--jobs", "-j", type=_jobs, default=1, help="parallel workers (-1 = all cores)")
    fix.add_argument("--out", "-o", type=Path, default=None, help="output folder (default results/<name>)")
    fix.add_argument("--resume", action="store_true", help="continue an interrupted study in --out")
    fix.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    fix.set_defaults(handler=cmd_fix)

    report = sub.add_parser("report", help="write report.html and report.md for a finished run")
    report.add_argument("out", type=Path, help="run folder written by 'krosbalance run'")
    report.add_argument("--to", type=Path, default=None, help="report folder (default reports/<name>)")
    report.add_argument(
        "--write-ladder",
        nargs="?",
        type=Path,
        const=Path("-"),
        default=None,
        metavar="FILE",
        help="also fit the AI ladder on this run's cross-AI matches and write the standing file that every "
        "report reads (default FILE: krosbalance/ai/data/ladder.toml)",
    )
    report.add_argument(
        "--chunk-matches",
        type=_positive_int,
        default=None,
        help="matches read at a time (default 5000): lower it to lower the report's memory",
    )
    report.set_defaults(handler=cmd_report)

    answer = sub.add_parser(
        "answer", help="print the headline answer of a finished run (its study's numbers)"
    )
    answer.add_argument("out", type=Path, help="the run's results folder")
    answer.set_defaults(handler=cmd_answer)

    teams = sub.add_parser("teams", help="count and list every legal team of a roster or a collection")
    teams.add_argument(
        "roster",
        metavar="ROSTER",
        help="a set name (arena-box), set:NAME, tag:NAME, all, comma-separated Krosmasters, or a collection "
        "file (.toml, [figures] name = copies)",
    )
    teams.add_argument("--ruleset", default="arena", help="whose team rule (default arena)")
    teams.add_argument("--size", type=_positive_int, default=None, help="only teams of this many figures")
    teams.add_argument("--count", action="store_true", help="print the count only")
    teams.set_defaults(handler=cmd_teams)

    validate = sub.add_parser("validate", help="check experiment files and explain every problem")
    validate.add_argument("files", type=Path, nargs="+", metavar="FILE")
    validate.set_defaults(handler=cmd_validate)

    listing = sub.add_parser(
        "list",
        help="list characters, boards, AIs, rulesets, studies, Demonic Rewards, Blast favors or challenges",
    )
    listing.add_argument(
        "what",
        choices=("characters", "boards", "ais", "rulesets", "studies", "rewards", "favors", "challenges"),
    )
    listing.set_defaults(handler=cmd_list)

    show = sub.add_parser(
        "show", help="print one card as the game prints it, with each value's source and confidence"
    )
    show.add_argument(
        "name",
        metavar="NAME",
        help="a character, Demonic Reward, Krosmic Favor, Divine Challenge, board or AI (id, name or alias); "
        "KIND:NAME chooses the kind when several share a name (e.g. reward:xelor_style)",
    )
    show.set_defaults(handler=cmd_show)

    replay = sub.add_parser("replay", help="re-simulate one match turn by turn, with board pictures")
    replay.add_argument("out", type=Path, help="run folder written by 'krosbalance run'")
    replay.add_argument("match_id", type=int, metavar="MATCH_ID")
    replay.add_argument("--turn", type=int, default=None, help="only this turn's picture")
    replay.add_argument(
        "--pictures", type=Path, default=None, help="picture folder (default OUT/replays/match-ID)"
    )
    replay.add_argument("--no-pictures", action="store_true", help="text only")
    replay.add_argument(
        "--html", action="store_true", help="write the replay viewer, one self-contained HTML page, instead"
    )
    replay.add_argument(
        "--out",
        dest="html_out",
        type=Path,
        default=None,
        metavar="FILE",
        help="the page --html writes (default OUT/replays/match-ID.html)",
    )
    replay.set_defaults(handler=cmd_replay)

    from krosbalance.studies.matchup.command import add_compare_parser  # krosbalance compare (issue 40)

    add_compare_parser(sub)
    return parser


# ------------------------------------------------------------------------------------------ commands


def cmd_run(args: argparse.Namespace) -> int:
    from krosbalance.engine_choice import missing_core_warning
    from krosbalance.sim.experiment import load_experiment
    from krosbalance.sim.runner import run_experiment

    warning = missing_core_warning(args.engine)  # once per run, never per match or worker
    if warning:
        print(warning, file=sys.stderr)
    out = args.out
    experiment = load_experiment(args.file)
    if out is None:
        name = experiment.name
        if args.patch:
            from krosbalance.sim.patches import load_patch

            name = f"{name}--{load_patch(args.patch).name}"  # the patch's name is checked as it loads
        from krosbalance.paths import name_problem

        if name_problem(name):  # never a folder outside results/
            raise KrosbalanceError(f"{args.file}: --patch: results folder {name_problem(name)}; give --out")
        out = Path("results") / name
    staged = _stage_runner(experiment)
    if staged is not None:  # a staged study (the team ladder, the fix finder): its stages, planned as they go
        return staged(
            experiment,
            args.file,
            out,
            patch=args.patch,
            jobs=args.jobs,
            resume=args.resume,
            batch_size=args.batch_size,
            backend=args.backend,
            address=args.address,
            progress=False if args.no_progress else None,
            engine=args.engine,
        )
    summary = run_experiment(
        args.file,
        out,
        jobs=args.jobs,
        resume=args.resume,
        batch_size=args.batch_size,
        backend=args.backend,
        address=args.address,
        progress=False if args.no_progress else None,
        patch=args.patch,
        engine=args.engine,
    )
    print(
        f"{summary.experiment}: {summary.n_matches} matches ({summary.n_played} played, "
        f"{summary.n_skipped} already done), {summary.n_errors} errors, {summary.seconds:.1f} s -> {summary.out}"
    )
    if summary.n_errors:
        print(
            f"error: {summary.n_errors} of {summary.n_played} matches failed; the first: {summary.first_error}; "
            f"every traceback is in {summary.out / 'errors'}",
            file=sys.stderr,
        )
        return EXIT_MATCH_ERRORS
    return 0


def cmd_teams(args: argparse.Namespace) -> int:
    from krosbalance.sim.catalog import RegistryCatalog
    from krosbalance.sim.rosters import collection_teams, parse_roster_argument, roster_teams, teams_listing

    catalog = RegistryCatalog()
    if args.ruleset not in catalog.rulesets():
        raise KrosbalanceError(
            f"--ruleset: unknown ruleset {args.ruleset!r}; known: {', '.join(catalog.rulesets())}"
        )
    label, figures, is_collection = parse_roster_argument(args.roster, catalog, args.ruleset)
    size = (args.size, args.size) if args.size else None
    build = collection_teams if is_collection else roster_teams
    teams = build(figures, catalog, args.ruleset, None, size)
    rule = f"team rule of ruleset {args.ruleset!r}" + (f", {args.size} figures" if args.size else "")
    if not teams:
        raise KrosbalanceError(f"{label}: no legal team can be drawn from it ({rule})")
    lines = teams_listing(teams, label, rule)
    print("\n".join(lines[:1] if args.count else lines))
    return 0


def _stage_runner(experiment: Any) -> Any:
    """The experiment's study's runner of stages (:func:`krosbalance.studies.registry.stage_runner`),
    None for an experiment played once."""
    from krosbalance.studies import study_for
    from krosbalance.studies.registry import stage_runner

    return stage_runner(study_for(experiment), experiment)


def cmd_fix(args: argparse.Namespace) -> int:
    """``krosbalance fix FILE``: an alias of ``run`` for a file with a ``[fix]`` table (the fix finder
    is the patches study's stage runner)."""
    from krosbalance.studies.patches.fixer import load_fix

    experiment, _ = load_fix(args.file)  # refuses a file without [fix]
    out = args.out if args.out is not None else Path("results") / experiment.name
    staged = _stage_runner(experiment)
    assert staged is not None  # a [fix] file is the patches study's, which stages it
    status = staged(
        experiment,
        args.file,
        out,
        jobs=args.jobs,
        resume=args.resume,
        progress=False if args.no_progress else None,
    )
    return EXIT_MATCH_ERRORS if status else 0


def cmd_report(args: argparse.Namespace) -> int:
    from krosbalance.sim.experiment import folder_name_problem
    from krosbalance.sim.runner import read_manifest
    from krosbalance.sim.stages import is_staged, read_stages

    if is_staged(args.out):  # a staged study (a team ladder): its stages are read together
        name = str(read_stages(args.out).get("study") or args.out.name)
    else:
        name = str(read_manifest(args.out).get("experiment") or args.out.name)
    if args.to is None and folder_name_problem(name):
        # The manifest names the report folder: "../../x" would write outside reports/.
        raise KrosbalanceError(
            f"{args.out / 'manifest.json'}: experiment: {folder_name_problem(name)}; "
            "name the report folder with --to"
        )
    report_dir = args.to if args.to is not None else Path("reports") / name
    from krosbalance.analysis.report import write_report

    if args.write_ladder is not None:
        # Before the report, so that it already quotes the new standing.
        print(_write_ladder(args.out, None if str(args.write_ladder) == "-" else args.write_ladder, name))
    path = write_report(args.out, report_dir, chunk_matches=args.chunk_matches)
    from krosbalance.sim.ledger import check

    for note in check(args.out).notes():
        print(f"warning: {args.out}: {note}", file=sys.stderr)
    print(path)
    return 0


def cmd_answer(args: argparse.Namespace) -> int:
    from krosbalance.analysis.report import report_answer

    study, lines = report_answer(args.out)
    print(f"{study}: " + " ".join(lines) if lines else f"{study}: no answer (no error-free match)")
    return 0


def _write_ladder(out: Path, path: Path | None, experiment: str) -> Path:
    from krosbalance.analysis.ladder import write_ladder
    from krosbalance.analysis.resultset import ResultSet

    try:
        return write_ladder(ResultSet.load(out).summary().matches, path, experiment=experiment)
    except ValueError as exc:
        raise KrosbalanceError(f"{out}: {exc}") from None


def cmd_validate(args: argparse.Namespace) -> int:
    from krosbalance.sim.experiment import check_experiment
    from krosbalance.sim.trial import trial_errors

    status = 0
    for file in args.files:
        experiment, errors = check_experiment(file)
        if experiment is not None and not errors:
            errors = trial_errors(experiment, str(file))
        for error in errors:
            print(f"error: {error}", file=sys.stderr)
        if errors:
            status = EXIT_USER_ERROR
        elif experiment is not None:
            print(
                f"{file}: ok: {experiment.name!r}, {len(experiment.pairings)} pairings, "
                f"{experiment.n_deals} deals, {experiment.n_matches} matches"
            )
    return status


def cmd_list(args: argparse.Namespace) -> int:
    from krosbalance.cards import LISTINGS

    if args.what in LISTINGS:
        for line in LISTINGS[args.what]():
            print(line)
        return 0
    if args.what == "characters":
        from krosbalance.content.registry import list_characters

        names = list_characters("krosmaster", game=None)  # Arena and Krosmaster Blast cards
    elif args.what == "boards":
        from krosbalance.content.registry import list_boards

        names = list_boards()
    elif args.what == "ais":
        from krosbalance.ai.registry import list_ais

        names = list_ais()
    elif args.what == "studies":
        from krosbalance.studies import list_studies

        names = list_studies()
    else:
        from krosbalance.rulesets.registry import list_rulesets

        names = list_rulesets()
    for name in names:
        print(name)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from krosbalance.cards import show

    print(show(args.name))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from krosbalance.sim.replay import replay_match
    from krosbalance.sim.runner import RunError, read_table

    replay = replay_match(args.out, args.match_id)
    spec, result, positions = replay.spec, replay.result, replay.positions
    if args.html:
        from krosbalance.render.replay_page import write_replay_page

        page = args.html_out or args.out / "replays" / f"match-{spec.match_id}.html"
        title = f"match {spec.match_id} of {spec.experiment}: {spec.board}, seed {spec.seed}"
        print(write_replay_page(result, page, title=title, ais=tuple(spec.ais)))
        return 0
    print(
        f"match {spec.match_id} of {spec.experiment}: pairing {spec.pairing}, deal {spec.deal}, seed {spec.seed}"
    )
    for seat, (ai, team) in enumerate(zip(spec.ais, spec.teams, strict=False)):
        print(f"  side {seat} ({ai}): {', '.join(team)}")
    print(f"  board {spec.board}, first player: side {result.first_player}")
    if result.checkpoints:  # names and squares (krosbalance.render.replay_text)
        from krosbalance.content.registry import load_board
        from krosbalance.render.frames import build_replay
        from krosbalance.render.replay_text import replay_lines

        for line in replay_lines(build_replay(result, load_board(spec.board)), args.turn):
            print(line)
    else:  # a match played without checkpoints: its events as they print themselves
        for turn in sorted(replay.events_by_turn):
            if args.turn is not None and turn != args.turn:
                continue
            print(f"--- turn {turn} ---")
            for event in replay.events_by_turn[turn]:
                print(f"  {event}")

    winner = "draw" if result.winner is None else f"side {result.winner}"
    holdings = "".join(f"; {name} {value}" for name, value in result.values.items())  # the ruleset's
    print(f"result: {winner} ({result.end_reason}) after {result.turns} turns{holdings}")
    _compare_with_record(args.out, spec.match_id, result, read_table)

    if not args.no_pictures:
        turns = sorted(positions) if args.turn is None else [t for t in positions if t == args.turn]
        if args.turn is not None and not turns:
            raise RunError(f"match {spec.match_id} has no turn {args.turn} (it lasted {result.turns} turns)")
        folder = args.pictures or args.out / "replays" / f"match-{spec.match_id}"
        for path in _save_pictures(spec, positions, turns, folder):
            print(path)
    return 0


def _compare_with_record(out: Path, match_id: int, result: Any, read_table: Any) -> None:
    matches = read_table(out, "matches")
    if matches.empty:
        return
    row = matches[matches["match_id"] == match_id]
    if row.empty:
        return
    recorded = row.iloc[0]
    winner = (
        None if recorded["winner"] is None or str(recorded["winner"]) == "<NA>" else int(recorded["winner"])
    )
    if winner != result.winner or int(recorded["turns"]) != result.turns:
        print(
            f"note: the recorded result differs (winner {winner}, {int(recorded['turns'])} turns): "
            "the engine or content changed since the run",
            file=sys.stderr,
        )


def _save_pictures(spec: Any, positions: dict[int, Any], turns: Sequence[int], folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from krosbalance.content.registry import load_board
    from krosbalance.render.board_picture import plot_board

    board = load_board(spec.board)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for turn in turns:
        fig = plot_board(board, positions[turn], title=f"match {spec.match_id}, after turn {turn}")
        path = folder / f"turn-{turn:03d}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


# --------------------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for user mistakes, printed as one line)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.content is not None:
            from krosbalance.content.custom import use_content

            use_content(args.content)
        return int(args.handler(args))
    except KrosbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("interrupted: finished matches are saved; continue with --resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `krosbalance replay ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a folder not writable, a disk full: the machine's, not a bug
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
