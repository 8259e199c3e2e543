"""The entry points of other layers the matchup study and ``compare`` call, imported here only, so
that a module moved elsewhere (the runner, the experiment loader, the report) is one line to change.
The analysis's are imported when called: the CLI imports this study's command at start-up, and the
report's statistics and plots (scipy, statsmodels, matplotlib) would add about two seconds to every
command, ``krosbalance list`` included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from krosbalance.ai.ladder import load_ladder
from krosbalance.sim.catalog import RegistryCatalog
from krosbalance.sim.experiment import load_experiment as load
from krosbalance.sim.experiment import loads_experiment
from krosbalance.sim.runner import run_experiment as run


def folder_study(rs: Any) -> Any:
    """The study a result set records (:func:`krosbalance.analysis.sections.folder_study`)."""
    from krosbalance.analysis.sections import folder_study as found  # heavy: pandas, scipy, statsmodels

    return found(rs)


def load_experiment(path: Path) -> Any:
    return load(path)


def run_experiment(source: Path, out: Path, **kwargs: Any) -> Any:
    """:func:`krosbalance.sim.runner.run_experiment` (its summary: n_matches, n_played, seconds...)."""
    return run(source, out, **kwargs)


def write_report(out: Path, report_dir: Path) -> tuple[Path, list[str]]:
    """The report of ``out`` written into ``report_dir``: its ``report.html`` and the headline answer
    its Summary opens with (one build of the report gives both)."""
    from krosbalance.analysis.report import write_report_answer  # heavy: matplotlib, pandas, scipy

    written = write_report_answer(out, report_dir)
    return written.path, written.answer


def catalog() -> Any:
    """The names an experiment may use and the rulesets' team rules (:class:`RegistryCatalog`)."""
    return RegistryCatalog()


def ladder_ratings() -> dict[str, float]:
    """{AI: Bradley-Terry rating} of the shipped AI ladder (``krosbalance/ai/data/ladder.toml``)."""
    return {name: standing.rating for name, standing in load_ladder().items()}


def load_experiment_text(text: str, file: str) -> Any:
    """An experiment from its text (:func:`krosbalance.sim.experiment.loads_experiment`): checked
    before anything is written."""
    return loads_experiment(text, file)
