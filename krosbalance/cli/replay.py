"""``krosbalance replay``: re-simulate one recorded match, turn by turn, as text, a page or pictures,
and check it against the row the run recorded."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from krosbalance.errors import KrosbalanceError


def cmd_replay(args: argparse.Namespace) -> int:
    from krosbalance.sim.replay import replay_match  # start-up: only this command loads it
    from krosbalance.sim.runner import RunError, read_table  # start-up: only this command loads it

    _refuse_staged_folder(args.results, args.match_id)
    replay = replay_match(args.results, args.match_id)
    spec, result, positions = replay.spec, replay.result, replay.positions
    if args.html:
        from krosbalance.render.replay_page import write_replay_page  # start-up: only this command loads it

        page = args.out or args.results / "replays" / f"match-{spec.match_id}.html"
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
        from krosbalance.content.registry import load_board  # start-up: only this command loads it
        from krosbalance.render.frames import build_replay  # start-up: only this command loads it
        from krosbalance.render.replay_text import replay_lines  # start-up: only this command loads it

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
    _compare_with_record(args.results, spec.match_id, result, read_table)

    if not args.no_pictures:
        turns = sorted(positions) if args.turn is None else [t for t in positions if t == args.turn]
        if args.turn is not None and not turns:
            raise RunError(f"match {spec.match_id} has no turn {args.turn} (it lasted {result.turns} turns)")
        folder = args.out or args.results / "replays" / f"match-{spec.match_id}"
        for path in _save_pictures(spec, positions, turns, folder):
            print(path)
    return 0


def _refuse_staged_folder(results: Path, match_id: int) -> None:
    """A staged study's folder holds one results folder per stage: say which to replay from."""
    from krosbalance.sim.stages import is_staged, read_stages  # start-up: only this command loads it

    if not is_staged(results):
        return
    folders = [str(s.get("folder")) for s in read_stages(results).get("stages", []) if s.get("folder")]
    shown = ", ".join(folders[:4]) + (f" and {len(folders) - 4} more" if len(folders) > 4 else "")
    example = f"krosbalance replay {results / folders[0]} {match_id}" if folders else ""
    raise KrosbalanceError(
        f"{results}: a staged study's folder (stages.json); replay a match of one of its stages: "
        f"{shown or '(no stage yet)'}" + (f", e.g. {example}" if example else "")
    )


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

    from krosbalance.content.registry import load_board  # start-up: only this command loads it
    from krosbalance.render.board_picture import plot_board  # heavy: matplotlib

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
