"""Run a small study from Python (a notebook) and get its results back in one call.

``krosbalance run FILE`` in a terminal and :func:`run_study` in a notebook play the same matches: the
same experiment file (or its text), the same study, staged studies (the team ladder, the fix finder)
played stage by stage as ``run`` plays them, and the results folder written as ``run`` writes it::

    from krosbalance.notebook import run_study

    results = run_study('''
    name = "three-teams"
    master_seed = 1
    matches_per_pairing = 4
    ais = ["focus_fire"]
    [teams]
    mode = "round_robin"
    list = [["Bill Tell", "Lil Healey", "Queen of the Tofus", "Kassius Kaos"], ...]
    ''')
    results.matches.groupby("board")["turns"].mean()   # plain pandas from here on

Small means a few dozen to a few thousand matches: a notebook waits for them. Big runs belong to
``krosbalance run`` (its progress bar, ``--resume`` after an interruption), whose results folder a
notebook then loads with :meth:`krosbalance.analysis.resultset.ResultSet.load`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from krosbalance.sim.experiment import load_experiment, loads_experiment
from krosbalance.sim.runner import run_experiment
from krosbalance.studies import study_for
from krosbalance.study_registry import stage_runner

__all__ = ["run_study"]


def run_study(
    experiment: str | Path,
    out: str | Path | None = None,
    *,
    jobs: int = 1,
    engine: str = "auto",
) -> Any:
    """Play the experiment and return its results.

    Args:
        experiment: an experiment file, or the text of one (TOML with at least one line break). A
            ``content`` key in a text is relative to the current folder.
        out: the results folder (must not hold another run); default a new temporary folder.
        jobs: worker processes (1: this process).
        engine: ``auto``, ``core`` or ``reference`` (:mod:`krosbalance.engine_choice`).

    Returns:
        A :class:`~krosbalance.analysis.resultset.ResultSet` (``matches``, ``fighters`` and the
        derived tables); for a staged study, its stages' results as ``krosbalance report`` reads them
        (:func:`krosbalance.analysis.staged.load_staged`).

    Raises:
        KrosbalanceError: the experiment is invalid (every problem is one line), or a run refuses it.
    """
    from krosbalance.analysis.resultset import ResultSet  # heavy: pandas, scipy, statsmodels

    home = Path(tempfile.mkdtemp(prefix="krosbalance-")) if out is None else Path(out).resolve().parent
    if isinstance(experiment, str) and "\n" in experiment:
        loaded = loads_experiment(experiment, str(Path.cwd() / "<notebook>.toml"))
        source = home / f"{loaded.name}.toml"
        home.mkdir(parents=True, exist_ok=True)
        source.write_text(experiment, encoding="utf-8")
    else:
        source = Path(experiment)
        loaded = load_experiment(source)
    folder = Path(out) if out is not None else home / loaded.name
    staged = stage_runner(study_for(loaded), loaded)
    if staged is not None:
        from krosbalance.analysis.staged import load_staged  # heavy: pandas, scipy, statsmodels

        staged(loaded, source, folder, jobs=jobs, progress=False, engine=engine)
        return load_staged(folder)
    run_experiment(source, folder, jobs=jobs, progress=False, engine=engine, experiment=loaded)
    return ResultSet.load(folder)
