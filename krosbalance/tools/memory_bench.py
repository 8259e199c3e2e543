"""``python -m krosbalance.tools.memory_bench``: peak memory (RSS) of ``run`` and ``report`` by size.

Both commands must stay flat in the number of matches: the runner expands the experiment lazily
and buffers at most one flush of rows; the report reads the shards chunk by chunk and keeps only a
summary whose size depends on the design (teams, boards, AIs), not on the number of matches.

For each size (default 10k, 100k and 1M matches) the bench

* **run**: runs the box round robin (35 splits x 3 AI matchups x deals x 2 sides, sized to the
  target) through :func:`krosbalance.sim.runner.run_experiment` with two loky workers and a fast
  stand-in match function (:func:`fake_play`, a deterministic coin with real fighter records: the
  parent's work per match -- rows, shards -- is the real one, the engine's is skipped; ``--play
  engine`` plays the real matches of the three heuristic AIs, in the native core when it is
  installed (about 2 ms a match: a million in some 20 minutes on two cores), else on the reference);
* **report**: runs ``krosbalance report`` on synthetic shards of the runner's exact schema
  (:func:`synthetic_results`, written shard by shard, so generating a million matches is itself
  flat), or on the run's own output with ``--report-on run``.

Each measurement is a fresh Python process that does the work in-process and reports its own
``ru_maxrss`` (the peak RSS of the runner's or the report's process) and that of its largest
finished child (a loky worker). Example::

    python -m krosbalance.tools.memory_bench --sizes 10000 100000 1000000 --work /tmp/kb-mem
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from krosbalance.engine.results import ENGINE_VERSION, FighterRecord, FighterStats, MatchResult
from krosbalance.sim.experiment import iter_matches, loads_experiment
from krosbalance.sim.match import run_batch
from krosbalance.sim.tables import fighters_frame, matches_frame, seat_tier

POOL = (  # the eight Krosmasters of the Arena box: 35 splits into two teams of four
    "queen_of_the_tofus",
    "king_of_the_gobballs",
    "oscar_kass",
    "anna_tommy",
    "bill_tell",
    "kassius_kaos",
    "lil_healey",
    "bad_aboum",
)
AIS = ("focus-fire", "kiter", "objective")
BOARD = "arena-elemental"
SHARD_MATCHES = 2000  # the runner's default flush
MIB = 1024 * 1024


# ----------------------------------------------------------------------------------- the experiment


def _n_splits() -> int:
    return len(loads_experiment(experiment_text(2, sized=False)[0]).pairings)


def experiment_text(n_matches: int, name: str = "memory-bench", sized: bool = True) -> tuple[str, int]:
    """The TOML of a box round robin of about ``n_matches`` matches, and its exact size."""
    n_splits = _n_splits() if sized else 1
    per_pairing = max(1, round(n_matches / (n_splits * len(AIS) * 2)))
    text = textwrap.dedent(
        f"""\
        name = "{name}"
        description = "Memory bench: box splits, three AI matchups, {per_pairing} deals per pairing"
        master_seed = 1
        matches_per_pairing = {per_pairing}
        paired_seeds = true
        boards = ["{BOARD}"]
        ais = {json.dumps(list(AIS))}
        [teams]
        mode = "splits"
        pool = {json.dumps(list(POOL))}
        """
    )
    return text, n_splits * len(AIS) * per_pairing * 2


def fake_play(
    team0: Sequence[str],
    team1: Sequence[str],
    *,
    board: Any = BOARD,
    ai: str | tuple[str, str] = "random",
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    record: str = "none",
    ruleset: str = "arena",
) -> MatchResult:
    """A stand-in for ``play_match`` that costs microseconds: a pure function of its arguments with
    real fighter records (one per Krosmaster), so every table the runner writes has its real shape."""
    h = zlib.crc32(f"{seed}|{','.join(team0)}|{','.join(team1)}|{ai}".encode())
    winner = None if h % 23 == 0 else h & 1
    fighters = []
    for side, team in enumerate((team0, team1)):
        for name in team:
            stats = FighterStats(kills=h >> 3 & 1, moves=h >> 4 & 15, turns_alive=h >> 8 & 7)
            stats.damage_dealt[h % 5] = h >> 11 & 7
            stats.damage_taken[h >> 2 & 3] = h >> 14 & 3
            stats.knocked_out = bool(h >> 16 & 1) and side != winner
            uid = len(fighters)
            fighters.append(FighterRecord(uid, side, name, name, 3, False, None, stats))
    return MatchResult(
        winner=winner,
        end_reason="gg" if winner is not None else "turn_limit",
        turns=4 + h % 25,
        first_player=h >> 1 & 1,
        teams=(tuple(team0), tuple(team1)),
        board=str(board),
        ruleset="arena",
        seed=seed,
        fighters=fighters,
        versions={"engine": ENGINE_VERSION, "content": "bench", "package": "bench"},
        values={
            "gg": (h >> 5 & 7, h >> 6 & 7),
            "kamas": (h >> 7 & 15, h >> 9 & 15),
            "wild_gg_left": bool(h >> 12 & 1),
        },
    )


# ------------------------------------------------------------------------------- synthetic shards


def _reference_frames() -> tuple[Any, Any]:
    """One real matches row and its fighter rows, through the runner's own table builders."""
    text, _ = experiment_text(210)
    spec = next(iter_matches(loads_experiment(text)))
    batch = run_batch([spec], fake_play)
    return matches_frame(batch.matches), fighters_frame(batch.fighters)


def synthetic_results(
    out: str | Path, n_matches: int, seed: int = 0, shard_matches: int = SHARD_MATCHES
) -> Path:
    """Write ``n_matches`` matches of the box round robin as the runner would (same columns, dtypes
    and shard layout), with outcomes drawn from fixed character strengths; vectorised, one shard at
    a time (memory does not grow with ``n_matches``)."""
    import pandas as pd

    out = Path(out)
    text, _ = experiment_text(n_matches)
    splits = loads_experiment(text).pairings  # exactly the runner's pairings, in its order
    ref_m, ref_f = _reference_frames()
    strength = dict(zip(POOL, np.linspace(0.8, -0.8, len(POOL)), strict=True))
    rng = np.random.default_rng(seed)
    deals_per_cell = max(1, n_matches // (2 * len(splits) * len(AIS)))
    out.mkdir(parents=True, exist_ok=True)
    (out / "experiment.toml").write_text(text, encoding="utf-8")
    for start in range(0, n_matches, shard_matches):
        ids = np.arange(start, min(start + shard_matches, n_matches), dtype=np.int64)
        deal_global = ids // 2
        swapped = (ids % 2).astype(bool)
        pairing = (deal_global // (len(AIS) * deals_per_cell)) % len(splits)
        ai = np.array(AIS)[(deal_global // deals_per_cell) % len(AIS)]
        tier = np.array([seat_tier(name) for name in AIS])[(deal_global // deals_per_cell) % len(AIS)]
        team_a = np.array([",".join(splits[p][0]) for p in pairing], dtype=object)
        team_b = np.array([",".join(splits[p][1]) for p in pairing], dtype=object)
        team0 = np.where(swapped, team_b, team_a)
        team1 = np.where(swapped, team_a, team_b)
        edge = np.array(
            [sum(strength[c] for c in splits[p][0]) - sum(strength[c] for c in splits[p][1]) for p in pairing]
        )
        first = rng.integers(0, 2, len(ids))
        p_a = 1 / (1 + np.exp(-edge))
        a_wins = rng.random(len(ids)) < p_a
        draw = rng.random(len(ids)) < 0.02
        side_a = swapped.astype(int)
        winner = np.where(a_wins, side_a, 1 - side_a)
        m = pd.DataFrame(
            {
                "match_id": ids,
                "experiment": "memory-bench",
                "pairing": pairing,
                "swapped": swapped,
                "deal": deal_global % (len(AIS) * deals_per_cell),
                "seed": rng.integers(0, 2**62, len(ids)),
                "team_a": team_a,
                "team_b": team_b,
                "team0": team0,
                "team1": team1,
                "ai0": ai,
                "ai1": ai,
                "ai0_tier": tier,
                "ai1_tier": tier,
                "board": BOARD,
                "ruleset": "arena",
                "options": "{}",
                "variant": "",
                "winner": pd.array(np.where(draw, -1, winner), dtype="Int64"),
                "winner_team": np.where(draw, "", np.where(a_wins, "A", "B")),
                "end_reason": np.where(draw, "turn_limit", "gg"),
                "turns": rng.integers(4, 40, len(ids)),
                "first_player": first,
                "gg0": rng.integers(0, 13, len(ids)),
                "gg1": rng.integers(0, 13, len(ids)),
                "kamas0": rng.integers(0, 20, len(ids)),
                "kamas1": rng.integers(0, 20, len(ids)),
                "wild_gg_left": rng.random(len(ids)) < 0.3,
                "engine_version": ENGINE_VERSION,
                "content_version": "bench",
                "package_version": "bench",
                "engine": "reference",
                "error": "",
            }
        )
        m["winner"] = m["winner"].mask(m["winner"] < 0)
        m = m.astype(ref_m.dtypes.to_dict())[list(ref_m.columns)]
        f = _synthetic_fighters(m, ref_f, rng)
        name = f"part-{int(ids[0]):08d}.parquet"
        for table, frame in (("fighters", f), ("matches", m)):
            (out / table).mkdir(exist_ok=True)
            frame.to_parquet(out / table / name, index=False)
    manifest = {"experiment": "memory-bench", "n_matches": n_matches, "status": "complete", "synthetic": True}
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return out


def _synthetic_fighters(m: Any, ref: Any, rng: np.random.Generator) -> Any:
    """Eight Krosmaster rows per match in the fighters table's exact schema."""
    import pandas as pd

    n = len(m)
    rows = 8 * n
    match_id = np.repeat(m["match_id"].to_numpy(), 8)
    side = np.tile(np.repeat([0, 1], 4), n)
    teams = np.stack([m["team0"].str.split(",").tolist(), m["team1"].str.split(",").tolist()], axis=1)
    character = teams.reshape(n, 8)
    winner = np.repeat(m["winner"].fillna(-1).astype(int).to_numpy(), 8)
    swapped = np.repeat(m["swapped"].to_numpy(), 8)
    data: dict[str, Any] = {}
    for col in ref.columns:
        kind = ref[col].dtype.kind
        if kind == "b":
            data[col] = rng.random(rows) < 0.3
        elif kind in "iu":
            data[col] = rng.integers(0, 6, rows)
        elif kind == "f":
            data[col] = rng.random(rows)
        else:
            data[col] = np.full(rows, str(ref[col].iloc[0]), dtype=object)
    data.update(
        match_id=match_id,
        side=side,
        team=np.where((side == 1) != swapped, "B", "A"),
        team_ids=np.where(
            side == 0, np.repeat(m["team0"].to_numpy(), 8), np.repeat(m["team1"].to_numpy(), 8)
        ),
        ai=np.repeat(m["ai0"].to_numpy(), 8),
        won=winner == side,
        draw=winner < 0,
        uid=np.tile(np.arange(8), n),
        character=character.ravel(),
        name=character.ravel(),
        level=3,
        is_summon=False,
        summoner=-1,
    )
    dealt = [c for c in ref.columns if c.startswith("damage_dealt_")]
    taken = [c for c in ref.columns if c.startswith("damage_taken_")]
    if "damage_dealt" in data:
        data["damage_dealt"] = sum(data[c] for c in dealt)
    if "damage_taken" in data:
        data["damage_taken"] = sum(data[c] for c in taken)
    return pd.DataFrame(data)[list(ref.columns)].astype(ref.dtypes.to_dict())


# ------------------------------------------------------------------------------------- measurement

CHILD = """
import json, resource, sys
mode, play, n_extra = sys.argv[1], sys.argv[2], int(sys.argv[3])
extra, jobs = sys.argv[4 : 4 + n_extra], sys.argv[4 + n_extra :]
for a, b in zip(jobs[::2], jobs[1::2]):
    if mode == "run":
        from krosbalance.sim.runner import run_experiment
        fn = None
        if play == "fake":
            from krosbalance.tools.memory_bench import fake_play as fn
        run_experiment(a, b, jobs=2, play=fn, progress=False)
        from joblib.externals.loky import get_reusable_executor
        get_reusable_executor().shutdown(wait=True)
    else:
        from krosbalance.cli import main
        assert main(["report", a, "--to", b, *extra]) == 0
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"self_kib": me, "children_kib": kids}), flush=True)
"""


def measure_sequence(
    mode: str, jobs: Sequence[tuple[Path, Path]], play: str = "fake", extra: Sequence[str] = ()
) -> list[dict[str, float]]:
    """Run several ``run`` (experiment file, output) or ``report`` (results, report folder) jobs one
    after the other in one fresh process; after each, the process's peak RSS so far (MiB) and that of
    its largest finished child. A peak that does not rise from a small job to a larger one is flat."""
    import time

    start = time.perf_counter()
    args = [str(x) for pair in jobs for x in pair]
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, mode, play, str(len(extra)), *extra, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} failed:\n{proc.stderr[-3000:]}")
    scale = 1024 if sys.platform != "darwin" else 1  # ru_maxrss: KiB on Linux, bytes on macOS
    seconds = time.perf_counter() - start
    out = []
    for line in (x for x in proc.stdout.splitlines() if x.startswith("{")):
        peaks = json.loads(line)
        out.append(
            {
                "peak_mib": peaks["self_kib"] * scale / MIB,
                "child_mib": peaks["children_kib"] * scale / MIB,
                "seconds": seconds,
            }
        )
    return out


def measure(mode: str, a: Path, b: Path, play: str = "fake", extra: Sequence[str] = ()) -> dict[str, float]:
    """Peak RSS (MiB) of one ``run`` (a = experiment file, b = output) or ``report`` (a = results,
    b = report folder; ``extra`` = more ``krosbalance report`` options) done in a fresh process, and
    of its largest finished child."""
    return measure_sequence(mode, [(a, b)], play, extra)[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temporary one)")
    parser.add_argument("--only", choices=("run", "report"), default=None, help="measure one command only")
    parser.add_argument("--play", choices=("fake", "engine"), default="fake", help="match function of run")
    parser.add_argument(
        "--report-on", choices=("synthetic", "run"), default="synthetic", help="shards the report reads"
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="kb-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"{'command':<8} {'matches':>10} {'peak RSS MiB':>13} {'worker MiB':>11} {'seconds':>8}")
    try:
        for size in args.sizes:
            text, exact = experiment_text(size)
            source = work / f"bench-{size}.toml"
            source.write_text(text, encoding="utf-8")
            run_out = work / f"run-{size}"
            if args.only != "report" or args.report_on == "run":
                shutil.rmtree(run_out, ignore_errors=True)
                r = measure("run", source, run_out, args.play)
                if args.only != "report":
                    print(
                        f"{'run':<8} {exact:>10,} {r['peak_mib']:>13.0f} {r['child_mib']:>11.0f} {r['seconds']:>8.1f}",
                        flush=True,
                    )
            if args.only != "run":
                if args.report_on == "synthetic":
                    results = synthetic_results(work / f"synthetic-{size}", exact)
                else:
                    results = run_out
                r = measure("report", results, work / f"report-{size}")
                print(
                    f"{'report':<8} {exact:>10,} {r['peak_mib']:>13.0f} {'':>11} {r['seconds']:>8.1f}",
                    flush=True,
                )
                if args.report_on == "synthetic":
                    shutil.rmtree(results, ignore_errors=True)
            shutil.rmtree(run_out, ignore_errors=True)
    finally:
        if not args.keep and args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
