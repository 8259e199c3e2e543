"""``python -m krosbalance.sim.bench``: how fast are matches, and what batch size suits this machine.

Plays the first matches of an experiment (default ``simulations/smoke.toml``) in this process and
prints the time per match and the batch size the runner would choose for ~1 s tasks.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from krosbalance.sim.experiment import expand, load_experiment
from krosbalance.sim.match import run_batch
from krosbalance.sim.runner import TARGET_BATCH_SECONDS, auto_batch_size


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m krosbalance.sim.bench", description=__doc__)
    parser.add_argument("file", nargs="?", default="simulations/smoke.toml")
    parser.add_argument("--matches", type=int, default=20, help="matches to time (default 20)")
    args = parser.parse_args(argv)
    specs = expand(load_experiment(args.file))
    specs = (specs * (args.matches // max(len(specs), 1) + 1))[: args.matches]
    run_batch(specs[:1])  # warm-up: imports, content loading, caches
    result = run_batch(specs)
    per_match = result.seconds / max(len(specs), 1)
    print(
        f"{len(specs)} matches in {result.seconds:.2f} s: {1000 * per_match:.1f} ms/match, {1 / per_match:.1f} matches/s"
    )
    print(f"errors: {len(result.errors)}")
    print(f"batch size for ~{TARGET_BATCH_SECONDS:.0f} s tasks: {auto_batch_size(per_match, 10**9, 1)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
