"""How ``krosbalance run`` (and its alias ``krosbalance fix``) plays a fix file: the fix finder's
stages (:mod:`krosbalance.studies.patches.fixer`), the study's
:meth:`~krosbalance.studies.patches.PatchesStudy.stage_runner`. A file of patched arms without ``[fix]`` is one
ordinary experiment."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from krosbalance.errors import KrosbalanceError
from krosbalance.sim.design import Experiment
from krosbalance.studies.patches.fixer import load_fix, probe_experiment, run_fix, verify_experiment


def planned_stages(experiment: Experiment) -> tuple[list[tuple[str, Experiment]], bool]:
    """The stages ``run`` plays for a fix file, as ``validate`` counts them: round 1's probe and
    verification, and (when the file allows more rounds) as many again per further round, an upper
    bound (a later probe covers only the figures still outside the band; a verification with
    ``verify_half_width`` counts its cap). Returns the stages and whether the count is an upper
    bound."""
    from types import SimpleNamespace

    _, spec = load_fix(experiment.file)
    no_patch = SimpleNamespace(patch=SimpleNamespace(empty=True, json=""))  # the verification's size only
    stages: list[tuple[str, Experiment]] = []
    for round_ in range(1, spec.rounds + 1):
        probe = probe_experiment(experiment, spec, round_=round_)
        verify = verify_experiment(experiment, spec, no_patch, round_=round_)  # type: ignore[arg-type]
        stages += [(probe.name, probe), (verify.name, verify)]
    return stages, spec.rounds > 1 or bool(spec.verify_half_width)


def run_fix_study(
    experiment: Experiment,
    source: str | Path,
    out: str | Path,
    *,
    patch: Any = None,
    echo: Callable[[str], Any] = print,
    **options: Any,
) -> int:
    """Run the fix finder's rounds into ``out`` and say what each stage played and what the last
    round proposes. Returns 1 when some matches raised (recorded in the stages), else 0."""
    if patch:
        raise KrosbalanceError(
            f"{source}: --patch: a fix file plays the shipped cards and patches them itself; "
            "drop --patch, or put the patched values in the cards the [fix] table starts from"
        )
    summary = run_fix(source, out, **options)
    for stage in summary.stages:
        echo(
            f"stage {stage.index}: {stage.n_matches} matches ({stage.n_played} played), "
            f"{stage.n_errors} errors -> {stage.folder}"
        )
    last = summary.stages[-1].folder / "proposal.json"  # the last round's (beside its probe and verification)
    proposal = json.loads(last.read_text(encoding="utf-8"))
    changes = "; ".join(f"{f}: {name} {d:+d}" for f, name, d in proposal["changes"]) or "no change"
    echo(
        f"round {proposal.get('round', 1)} proposed patch: {changes} "
        f"({'predicted to reach' if proposal['reached'] else 'not predicted to reach'} ±{proposal['band']})"
    )
    echo(f"{summary.n_matches} matches in {summary.seconds:.1f} s; report: krosbalance report {out}")
    return 1 if summary.n_errors else 0
