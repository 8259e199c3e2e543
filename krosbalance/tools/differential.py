"""``python -m krosbalance.tools.differential --matches 100000 --seed S --jobs 2``: the differential
fuzz of the native core against the Python reference (:mod:`krosbalance.testing.differential`), run
in parallel.

The matches are cut into chunks of ``--chunk`` specs; each joblib worker draws its chunk's specs
itself (spec ``k`` depends on the master seed and ``k`` only), plays them in the core in one batch
and on the reference one by one, and compares the logs. About 15% of the matches are Duel Pack
duels (``mode=duel``, :mod:`krosbalance.testing.fuzz_duel`). The counts (matches by mode, AI,
rewards, turn limit, restriction, board, option, end reason), the divergences and the core's errors are
summed over the chunks, and the first divergence kept is the one of the lowest match number: the
output does not depend on ``--jobs``. Exit status 1, with the first divergence's report, when any
match diverges or the core fails on one. ``--only K`` replays match K alone and prints its report.
``make battery`` runs 100,000.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from krosbalance.testing.differential import ChunkResult, compare, play_core, play_reference, run_chunk
from krosbalance.testing.fuzz_specs import match_spec

#: the master seed of ``make battery``'s fuzz
DEFAULT_SEED = 20_261_206
#: matches shown per error line at most
MAX_ERRORS = 5


def fuzz(
    matches: int, seed: int, jobs: int = 1, chunk: int = 250, progress: bool | None = None
) -> ChunkResult:
    """Fuzz matches 0 to ``matches`` of ``seed`` on ``jobs`` worker processes."""
    from joblib import Parallel, delayed  # type: ignore[import-untyped]
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    bounds = [(start, min(start + chunk, matches)) for start in range(0, matches, chunk)]
    disable = (not sys.stderr.isatty()) if progress is None else not progress
    total = ChunkResult()
    bar = tqdm(total=matches, disable=disable, desc="differential", unit="match", dynamic_ncols=True)
    parts = Parallel(n_jobs=jobs, return_as="generator_unordered")(
        delayed(run_chunk)(seed, start, stop) for start, stop in bounds
    )
    for part in parts:
        total.merge(part)
        bar.update(part.matches)
        bar.set_postfix(divergences=total.divergences, errors=len(total.errors))
    bar.close()
    total.diverging_ids.sort()
    total.errors.sort()
    return total


def summary(found: ChunkResult, seconds: float) -> str:
    """The counts, one group a line."""
    groups: dict[str, list[str]] = {}
    for label, n in sorted(found.counts.items()):
        key, _, value = label.partition("=")
        groups.setdefault(key, []).append(f"{value} {n:,}")
    per = 1000 * found.cpu_seconds / max(found.matches, 1)
    lines = [
        f"{found.matches:,} matches in {seconds:,.0f} s wall, {found.cpu_seconds:,.0f} CPU-s in the workers "
        f"({per:.1f} ms a match, both engines and the comparison)"
    ]
    lines += [f"  {key}: {', '.join(values)}" for key, values in groups.items()]
    lines.append(
        f"divergences: {found.divergences:,}"
        + (f" (matches {found.diverging_ids[:20]})" if found.divergences else "")
    )
    lines.append(f"core errors: {len(found.errors):,}")
    lines += [f"  {error}" for error in found.errors[:MAX_ERRORS]]
    return "\n".join(lines)


def replay_one(seed: int, k: int) -> int:
    """Play fuzz match ``k`` of ``seed`` on both engines; print its report (or that it agrees)."""
    spec = match_spec(seed, k)
    (out,) = play_core([spec])
    if "error" in out:
        print(f"the core fails on match {k}: {out['error']}")
        return 1
    divergence = compare(spec, out, play_reference(spec))
    if divergence is None:
        print(
            f"match {k} of seed {seed}: both engines agree on all {len(out['events'])} events and the result"
        )
        return 0
    print(divergence.report())
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=250, help="specs per worker task")
    parser.add_argument("--only", type=int, default=None, help="replay this match number alone")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.only is not None:
        return replay_one(args.seed, args.only)
    started = time.perf_counter()
    found = fuzz(args.matches, args.seed, args.jobs, args.chunk, progress=False if args.no_progress else None)
    print(summary(found, time.perf_counter() - started))
    if found.first_divergence:
        print("\nthe first divergence:\n" + found.first_divergence)
    return 1 if found.divergences or found.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
