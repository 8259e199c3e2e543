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

from krosbalance.cli.listing import cmd_list, cmd_show
from krosbalance.cli.replay import cmd_replay
from krosbalance.errors import KrosbalanceError
from krosbalance.sim.backends import available_cores

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


def version_text() -> str:
    """``krosbalance 0.1.0 (native core: installed)``: the package's version and its engine."""
    from krosbalance import __version__  # start-up: only this command loads it

    try:
        from krosbalance import native  # optional: native core (a broken build must not break this)

        core = "installed" if native.installed() else "not installed (pure Python reference engine)"
    except Exception:  # a broken native build must not break --version
        core = "unknown"
    return f"krosbalance {__version__} (native core: {core})"


def _subparser(sub: Any, name: str, help: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A subcommand with its examples (:data:`krosbalance.cli.examples.EPILOGS`) under its options."""
    from krosbalance.cli.examples import EPILOGS  # start-up: only this command loads it

    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help,
        description=kwargs.pop("description", help[:1].upper() + help[1:] + "."),
        epilog=EPILOGS.get(name),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **kwargs,
    )
    return parser


def _add_jobs(parser: argparse.ArgumentParser) -> None:
    cores = available_cores()
    parser.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=cores,
        help=f"parallel workers (default: the {cores} core(s) available here; -1 = all, -2 = all but one)",
    )


def _add_report_out(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--report-out",
        type=Path,
        default=None,
        metavar="DIR",
        help="report folder (default reports/<name>, or OUT/report when --out is given)",
    )
    parser.add_argument(
        "--no-report", action="store_true", help="play only; write the report later with 'report'"
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per verb, each added by its own function below, then the
    commands studies bring. Only what ``--help`` shows is imported here (start-up time)."""
    from krosbalance.cli.examples import DESCRIPTION, TOP_EPILOG  # start-up: only this command loads it

    parser = argparse.ArgumentParser(
        prog="krosbalance",
        description=DESCRIPTION,
        epilog=TOP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=version_text())
    parser.add_argument(  # one option for every command (krosbalance.content.custom)
        "--content",
        type=Path,
        default=None,
        metavar="DIR",
        help="a folder of your own cards (characters/, rewards/, boards/) over the shipped ones; "
        "default $KROSBALANCE_CONTENT",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_run, _add_fix, _add_report, _add_lookups, _add_replay):
        add(sub)
    _add_study_commands(sub)
    return parser


def _add_run(sub: Any) -> None:
    """``run``: play an experiment file (or a staged study), then write its report."""
    from krosbalance.engine_choice import ENGINE_CHOICES  # start-up: only this command loads it
    from krosbalance.sim.backends import BACKENDS  # start-up: only this command loads it

    run = _subparser(
        sub,
        "run",
        "run an experiment file (or a staged study), write its report and print its answer",
    )
    run.add_argument("file", type=Path, help="experiment TOML file (see simulations/)")
    _add_jobs(run)
    run.add_argument("--out", "-o", type=Path, default=None, help="results folder (default results/<name>)")
    _add_report_out(run)
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


def _add_fix(sub: Any) -> None:
    """``fix``: the fix finder's old spelling of ``run`` on a ``[fix]`` file."""
    fix = _subparser(
        sub, "fix", "propose the smallest balance patch for a [fix] file, then verify it (= run)"
    )
    fix.add_argument(
        "file", type=Path, help="experiment TOML file with a [fix] table (see simulations/fix-the-box.toml)"
    )
    _add_jobs(fix)
    fix.add_argument("--out", "-o", type=Path, default=None, help="results folder (default results/<name>)")
    _add_report_out(fix)
    fix.add_argument("--resume", action="store_true", help="continue an interrupted study in --out")
    fix.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    fix.set_defaults(handler=cmd_fix)


def _add_report(sub: Any) -> None:
    """``report`` and ``answer``: read a finished run."""
    report = _subparser(
        sub, "report", "write report.html and report.md for a finished run and print its answer"
    )
    report.add_argument(
        "results", type=Path, metavar="RESULTS", help="results folder written by 'krosbalance run'"
    )
    report.add_argument("--out", "-o", type=Path, default=None, help="report folder (default reports/<name>)")
    report.add_argument("--to", dest="out", type=Path, help=argparse.SUPPRESS)  # the old spelling
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

    answer = _subparser(sub, "answer", "print the headline answer of a finished run (its study's numbers)")
    answer.add_argument("results", type=Path, metavar="RESULTS", help="the run's results folder")
    answer.set_defaults(handler=cmd_answer)


def _add_lookups(sub: Any) -> None:
    """``teams``, ``validate``, ``list`` and ``show``: look things up without playing."""
    teams = _subparser(sub, "teams", "count and list every legal team of a roster or a collection")
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

    validate = _subparser(
        sub, "validate", "check experiment files, explain every problem, and say what a run would cost"
    )
    validate.add_argument("files", type=Path, nargs="+", metavar="FILE")
    _add_jobs(validate)
    validate.set_defaults(handler=cmd_validate)

    listing = _subparser(
        sub,
        "list",
        "list characters, boards, AIs, rulesets, studies, Demonic Rewards, Blast favors or challenges",
    )
    listing.add_argument(
        "what",
        choices=("characters", "boards", "ais", "rulesets", "studies", "rewards", "favors", "challenges"),
    )
    listing.set_defaults(handler=cmd_list)

    show = _subparser(
        sub, "show", "print one card as the game prints it, with each value's source and confidence"
    )
    show.add_argument(
        "name",
        metavar="NAME",
        help="a character, Demonic Reward, Krosmic Favor, Divine Challenge, board or AI (id, name or alias); "
        "KIND:NAME chooses the kind when several share a name (e.g. reward:xelor_style)",
    )
    show.set_defaults(handler=cmd_show)


def _add_replay(sub: Any) -> None:
    """``replay``: one match again, turn by turn."""
    replay = _subparser(sub, "replay", "re-simulate one match turn by turn, with board pictures")
    replay.add_argument(
        "results", type=Path, metavar="RESULTS", help="results folder written by 'krosbalance run'"
    )
    replay.add_argument("match_id", type=int, metavar="MATCH_ID")
    replay.add_argument("--turn", type=int, default=None, help="only this turn's picture")
    replay.add_argument(
        "--out",
        "-o",
        type=Path,
        default=None,
        metavar="PATH",
        help="where the pictures go (default RESULTS/replays/match-ID), or with --html the page "
        "(default RESULTS/replays/match-ID.html)",
    )
    replay.add_argument("--pictures", dest="out", type=Path, help=argparse.SUPPRESS)  # the old spelling
    replay.add_argument("--no-pictures", action="store_true", help="text only")
    replay.add_argument(
        "--html", action="store_true", help="write the replay viewer, one self-contained HTML page, instead"
    )
    replay.set_defaults(handler=cmd_replay)


def _add_study_commands(sub: Any) -> None:
    """The commands studies bring (``compare``): the ``add_parser(sub)`` of each registered study's
    ``command`` part (:func:`krosbalance.study_registry.study_part`), in registration order."""
    from krosbalance.cli.examples import EPILOGS  # start-up: only this command loads it
    from krosbalance.study_registry import studies_with, study_part  # start-up: only this command loads it

    for study in studies_with("command"):
        added = study_part(study, "command").add_parser(sub)
        if added.epilog is None and added.prog.split()[-1] in EPILOGS:
            added.epilog = EPILOGS[added.prog.split()[-1]]
            added.formatter_class = argparse.RawDescriptionHelpFormatter


# ------------------------------------------------------------------------------------------ commands


def _resume_command(args: argparse.Namespace, out: Path) -> str:
    """The exact command that continues this run where it stopped."""
    import shlex

    words = ["krosbalance", str(args.command), str(args.file), "--out", str(out), "--resume"]
    if getattr(args, "jobs", None) is not None:
        words += ["--jobs", str(args.jobs)]
    if getattr(args, "patch", None):
        words += ["--patch", str(args.patch)]
    return shlex.join(words)


def _report_folder(args: argparse.Namespace, out: Path, name: str) -> Path:
    """Where ``run`` writes its report: ``--report-out``, else beside the results when ``--out`` was
    given (OUT/report), else ``reports/<name>``."""
    if args.report_out is not None:
        return Path(args.report_out)
    return out / "report" if args.out is not None else Path("reports") / name


def _report_and_answer(args: argparse.Namespace, out: Path, name: str) -> None:
    """After a run: write its report (unless ``--no-report``) and print the study's answer."""
    if args.no_report:
        print(f"report: krosbalance report {out}")
        return
    from krosbalance.analysis.report import write_report_answer  # heavy: matplotlib, pandas, scipy

    try:
        written = write_report_answer(out, _report_folder(args, out, name))
    except FileNotFoundError as exc:  # nothing finished to report on
        print(f"no report: {exc}", file=sys.stderr)
        return
    print(f"report: {written.path}")
    print_answer(written.study, written.answer)


def print_answer(study: str, lines: Sequence[str]) -> None:
    """The study's headline answer in the terminal: its name, then each line."""
    if not lines:
        print(f"answer ({study}): no answer (no error-free match)")
        return
    print(f"answer ({study}):")
    for line in lines:
        print(f"  {line.replace('**', '')}")


def cmd_run(args: argparse.Namespace) -> int:
    from krosbalance.engine_choice import missing_core_warning  # start-up: only this command loads it
    from krosbalance.sim.experiment import load_experiment  # start-up: only this command loads it
    from krosbalance.sim.runner import run_experiment  # start-up: only this command loads it

    warning = missing_core_warning(args.engine)  # once per run, never per match or worker
    if warning:
        print(warning, file=sys.stderr)
    out = args.out
    experiment = load_experiment(args.file)
    if out is None:
        name = experiment.name
        if args.patch:
            from krosbalance.sim.patches import load_patch  # start-up: only this command loads it

            name = f"{name}--{load_patch(args.patch).name}"  # the patch's name is checked as it loads
        from krosbalance.paths import name_problem  # start-up: only this command loads it

        if name_problem(name):  # never a folder outside results/
            raise KrosbalanceError(f"{args.file}: --patch: results folder {name_problem(name)}; give --out")
        out = Path("results") / name
    args.resume_command = _resume_command(args, out)
    staged = _stage_runner(experiment)
    if staged is not None:  # a staged study (the team ladder, the fix finder): its stages, planned as they go
        status = staged(
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
        _report_and_answer(args, out, out.name)
        return EXIT_MATCH_ERRORS if status else 0
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
    for line in summary.target:  # [target]: the half-width each AI reached, or the cap
        print(f"target: {line}")
    _report_and_answer(args, Path(summary.out), out.name)
    if summary.n_errors:
        print(
            f"error: {summary.n_errors} of {summary.n_played} matches failed; the first: {summary.first_error}; "
            f"every traceback is in {summary.out / 'errors'}",
            file=sys.stderr,
        )
        return EXIT_MATCH_ERRORS
    return 0


def cmd_teams(args: argparse.Namespace) -> int:
    from krosbalance.sim.catalog import RegistryCatalog  # start-up: only this command loads it
    from krosbalance.sim.rosters import (  # start-up: only this command loads it
        collection_teams,
        parse_roster_argument,
        roster_teams,
        teams_listing,
    )

    catalog = RegistryCatalog()
    if args.ruleset not in catalog.rulesets():
        from krosbalance.rulesets.registry import unknown_ruleset  # start-up: only this command loads it

        raise KrosbalanceError(f"--ruleset: {unknown_ruleset(args.ruleset, catalog.rulesets())}")
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
    """The experiment's study's runner of stages (:func:`krosbalance.study_registry.stage_runner`),
    None for an experiment played once."""
    from krosbalance.studies import study_for  # start-up: only this command loads it
    from krosbalance.study_registry import stage_runner  # start-up: only this command loads it

    return stage_runner(study_for(experiment), experiment)


def cmd_fix(args: argparse.Namespace) -> int:
    """``krosbalance fix FILE``: an alias of ``run`` for a file with a ``[fix]`` table (the fix finder
    is the patches study's stage runner)."""
    from krosbalance.studies.patches.fixer import load_fix  # heavy: pandas, scipy, statsmodels

    experiment, _ = load_fix(args.file)  # refuses a file without [fix]
    out = args.out if args.out is not None else Path("results") / experiment.name
    args.resume_command = _resume_command(args, out)
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
    _report_and_answer(args, out, out.name)
    return EXIT_MATCH_ERRORS if status else 0


def cmd_report(args: argparse.Namespace) -> int:
    from krosbalance.sim.content_key import activate_run_content  # start-up: only this command loads it
    from krosbalance.sim.experiment import folder_name_problem  # start-up: only this command loads it
    from krosbalance.sim.runner import read_manifest  # start-up: only this command loads it
    from krosbalance.sim.stages import is_staged, read_stages  # start-up: only this command loads it

    results = args.results
    activate_run_content(results)
    if is_staged(results):  # a staged study (a team ladder): its stages are read together
        name = str(read_stages(results).get("study") or results.name)
    else:
        name = str(read_manifest(results).get("experiment") or results.name)
    if args.out is None and folder_name_problem(name):
        # The manifest names the report folder: "../../x" would write outside reports/.
        raise KrosbalanceError(
            f"{results / 'manifest.json'}: experiment: {folder_name_problem(name)}; "
            "name the report folder with --out"
        )
    report_dir = args.out if args.out is not None else Path("reports") / name
    from krosbalance.analysis.report import write_report_answer  # heavy: matplotlib, pandas, scipy

    if args.write_ladder is not None:
        # Before the report, so that it already quotes the new standing.
        print(_write_ladder(results, None if str(args.write_ladder) == "-" else args.write_ladder, name))
    written = write_report_answer(results, report_dir, chunk_matches=args.chunk_matches)
    from krosbalance.sim.ledger import check  # start-up: only this command loads it

    for note in check(results).notes():
        print(f"warning: {results}: {note}", file=sys.stderr)
    print(written.path)
    print_answer(written.study, written.answer)
    return 0


def cmd_answer(args: argparse.Namespace) -> int:
    from krosbalance.analysis.report import report_answer  # heavy: matplotlib, pandas, scipy
    from krosbalance.sim.content_key import activate_run_content  # start-up: only this command loads it

    activate_run_content(args.results)
    study, lines = report_answer(args.results)
    print_answer(study, lines)
    return 0


def _write_ladder(out: Path, path: Path | None, experiment: str) -> Path:
    from krosbalance.analysis.ladder import matches_ruleset, write_ladder  # heavy: pandas, scipy
    from krosbalance.analysis.resultset import ResultSet  # heavy: pandas, scipy, statsmodels

    try:
        results = ResultSet.load(out)
        ruleset = matches_ruleset(results.matches)  # the summary drops the column
        # four-player Arena's ladder reads the further seats' AIs, which the summary drops
        table = results.matches if ruleset == "arena-4p" else results.summary().matches
        return write_ladder(table, path, experiment=experiment, ruleset=ruleset)
    except ValueError as exc:
        raise KrosbalanceError(f"{out}: {exc}") from None


def cmd_validate(args: argparse.Namespace) -> int:
    from krosbalance.cli.cost import (  # start-up: only this command loads it
        core_installed,
        effective_jobs,
        run_cost,
        target_plan_line,
    )
    from krosbalance.sim.experiment import check_experiment  # start-up: only this command loads it
    from krosbalance.sim.trial import trial_errors  # start-up: only this command loads it

    status = 0
    jobs = effective_jobs(args.jobs, available_cores())
    core = core_installed()
    for file in args.files:
        experiment, errors = check_experiment(file)
        if experiment is not None and not errors:
            errors = trial_errors(experiment, str(file))
        for error in errors:
            print(f"error: {error}", file=sys.stderr)
        if errors:
            status = EXIT_USER_ERROR
        elif experiment is not None:
            cost = run_cost(experiment, jobs, core)
            print(
                f"{file}: ok: {experiment.name!r}, {len(experiment.pairings)} pairings, "
                f"{experiment.n_deals} deals; run plays {cost.line()}"
            )
            plan = target_plan_line(experiment, jobs, core)
            if plan:
                print(f"{file}: target: {plan}")
    return status


# --------------------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for user mistakes, printed as one line)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.content is not None:
            from krosbalance.content.custom import use_content  # start-up: only this command loads it

            use_content(args.content)
        return int(args.handler(args))
    except KrosbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        resume = getattr(args, "resume_command", None)
        print(
            "interrupted: finished matches are saved; "
            + (f"continue with: {resume}" if resume else "continue with the same command and --resume"),
            file=sys.stderr,
        )
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
