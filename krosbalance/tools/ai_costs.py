"""Measure each AI's cost on this machine and write ``krosbalance/ai/data/costs.toml``, the seconds per
match that ``krosbalance validate`` and ``krosbalance list ais`` quote.

The unit is a box match: the eight Arena box Krosmasters split four against four on
``arena-elemental``, the same AI on both sides, a deal played from both sides (paired seeds), one
worker. Each AI is timed with the native core (``engine = "auto"``, the core plays what it can) and
with the Python reference engine; an AI too slow to time on the reference engine (``--skip-reference``)
is written without one and the reader scales its core cost by the measured AIs' median ratio. AIs
that do not play Arena (Blast, Duel) are timed on no box match: readers fall back on their tier.

    python -m krosbalance.tools.ai_costs --deals 2 --skip-reference lookahead mcts mcts-2 mcts-race
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from krosbalance import play
from krosbalance.ai.registry import COSTS_FILE, ai_rulesets, list_ais
from krosbalance.sim.runner import run_experiment

BOX_SPLIT = (
    ("queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy"),
    ("bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"),
)


def _experiment(ai: str, deals: int) -> str:
    team_a, team_b = (", ".join(f'"{c}"' for c in team) for team in BOX_SPLIT)
    return (
        f'name = "cost-{ai}"\nmaster_seed = 3\nmatches_per_pairing = {deals}\npaired_seeds = true\n'
        f'boards = ["arena-elemental"]\nais = ["{ai}"]\n[teams]\nmode = "pairs"\n'
        f"pairs = [[[{team_a}], [{team_b}]]]\n"
    )


def seconds_per_match(ai: str, engine: str, deals: int, jobs: int = 1) -> float:
    """Wall seconds one box match of ``ai`` takes here on ``engine``: ``deals`` deals (each from both
    sides) played one after the other after a warm-up match, the time of the matches alone. A run's
    own cost (its files, its workers' start) is :func:`startup_seconds`, apart: timed inside a small
    run it looked like match time and made a heuristic on the core look fifty times dearer."""
    if jobs != 1:
        return _run_seconds_per_match(ai, engine, deals, jobs)

    def one(k: int) -> None:
        seats = BOX_SPLIT if k % 2 == 0 else BOX_SPLIT[::-1]
        play.play_match(*seats, board="arena-elemental", ai=ai, seed=3 + k // 2, engine=engine)

    one(0)
    start = time.perf_counter()
    for k in range(2 * deals):
        one(k)
    return (time.perf_counter() - start) / (2 * deals)


def _run_seconds_per_match(ai: str, engine: str, deals: int, jobs: int) -> float:
    """Wall seconds per match of a whole small run of ``ai`` (its start and files included)."""
    with tempfile.TemporaryDirectory(prefix="krosbalance-cost-") as tmp:
        source = Path(tmp) / "cost.toml"
        source.write_text(_experiment(ai, deals), encoding="utf-8")
        start = time.perf_counter()
        summary = run_experiment(source, Path(tmp) / "out", jobs=jobs, progress=False, engine=engine)
        return (time.perf_counter() - start) / max(1, int(summary.n_matches))


def startup_seconds() -> float:
    """What a run with two workers costs before and beside its matches (the workers' start, the
    trial match, the manifest): a one-deal run of ``random`` on two workers, less its matches."""
    per_match = seconds_per_match("random", "auto", 1)
    return max(0.0, 2 * _run_seconds_per_match("random", "auto", 1, jobs=2) - 2 * per_match)


def measure(deals: int, skip_reference: Sequence[str]) -> dict[str, dict[str, float]]:
    """``{"core": {ai: s}, "reference": {ai: s}}`` for every AI that plays Arena."""
    seconds_per_match("random", "auto", 1)  # warm the imports and the core once, untimed
    out: dict[str, dict[str, float]] = {"core": {}, "reference": {}}
    for ai in list_ais("arena"):
        if "arena" not in ai_rulesets(ai):
            continue
        out["core"][ai] = seconds_per_match(ai, "auto", deals)
        if ai not in skip_reference:
            out["reference"][ai] = seconds_per_match(ai, "reference", deals)
        print(ai, {k: round(v[ai], 4) for k, v in out.items() if ai in v}, flush=True)
    return out


def write_costs(costs: dict[str, dict[str, float]], path: Path, note: str, startup: float) -> Path:
    lines = [
        "# Seconds per box match of each AI (4 v 4 Arena box split on arena-elemental, same AI both sides,",
        "# one worker), read by `krosbalance validate` and `krosbalance list ais`; startup: the seconds a",
        "# run on two workers spends beside its matches (once per run or stage).",
        f"# Written by `python -m krosbalance.tools.ai_costs` ({note}).",
        f"startup = {startup:.2f}",
    ]
    for engine in ("core", "reference"):
        lines += ["", f"[{engine}]"]
        lines += [f'"{ai}" = {seconds:.5f}' for ai, seconds in sorted(costs[engine].items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4, help="deals timed per AI (two matches each)")
    parser.add_argument("--skip-reference", nargs="*", default=[], metavar="AI")
    parser.add_argument("--out", type=Path, default=COSTS_FILE)
    args = parser.parse_args(argv)
    import platform

    note = f"{args.deals} deal(s) per AI on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    costs = measure(args.deals, args.skip_reference)
    print(write_costs(costs, args.out, note, startup_seconds()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
