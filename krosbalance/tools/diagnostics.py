"""``python -m krosbalance.tools.diagnostics``: does an AI play the game the way the game is meant to be
played? Plays of each AI against itself, measured from the event log.

The questions come from watching replays of heuristic matches (issue 7): teams that sat on kamas and
never bought a GG, melee Krosmasters that never closed in, Lock that almost never came into play. Per
AI, on box deals (the box Krosmasters split at random into two teams of four, every deal played from
both seats with the same seed, as ``simulations/box-round-robin.toml`` does) it reports per match:

- ``loser_kamas``: kamas left unspent by the losing team, and ``loser_10+`` the share of decided
  matches the loser ended holding at least one GG's price (10 kamas, R-A50);
- ``gg_bought``: GG bought on Demon cells (both teams);
- ``lock_rolls`` and ``blocks``: Lock rolls made and walks blocked (R-A16, R-A45);
- ``melee_dmg``: injuries dealt by melee spells (the punch, Gobbolob, Con, Bite, Kiss...);
- ``<Krosmaster>_dmg``: injuries dealt by chosen Krosmasters in the matches they played (Anna Tommy
  and the King of the Gobballs by default: the melee figures the heuristics left idle).

Deterministic: the same arguments give the same table.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from krosbalance.ai.registry import ai_tier, list_ais
from krosbalance.content.registry import all_characters, default_registry, list_characters
from krosbalance.engine.events import Damaged, KnockedOut, LockRolled, SpellCast
from krosbalance.play import play_match
from krosbalance.rulesets.arena.events import GGChanged
from krosbalance.rulesets.arena.options import punch

DEFAULT_WATCH: tuple[str, ...] = ("anna_tommy", "king_of_the_gobballs")


@dataclass(slots=True)
class Diagnosis:
    """Per-match averages of one AI playing itself (see the module docstring for the columns)."""

    ai: str
    matches: int = 0
    decided: int = 0
    loser_kamas: float = 0.0
    loser_10: int = 0
    gg_bought: float = 0.0
    lock_rolls: float = 0.0
    blocks: float = 0.0
    melee_damage: float = 0.0
    turns: float = 0.0
    watch_damage: dict[str, list[int]] = field(default_factory=dict)

    def row(self) -> dict[str, float | int | str]:
        n = max(1, self.matches)
        out: dict[str, float | int | str] = {
            "ai": self.ai,
            "matches": self.matches,
            "loser_kamas": self.loser_kamas / max(1, self.decided),
            "loser_10+": self.loser_10 / max(1, self.decided),
            "gg_bought": self.gg_bought / n,
            "lock_rolls": self.lock_rolls / n,
            "blocks": self.blocks / n,
            "melee_dmg": self.melee_damage / n,
            "turns": self.turns / n,
        }
        for name, values in self.watch_damage.items():
            out[f"{name}_dmg"] = float(np.mean(values)) if values else math.nan
        return out


def melee_spells() -> frozenset[str]:
    """Ids of every melee spell in the content and Arena's punch (R-A39)."""
    ids = {s.id for spec in all_characters() for s in spec.spells if s.range_type == "melee"}
    ids.add(punch().id)
    return frozenset(ids)


def count_events(events: Sequence[object], melee: frozenset[str]) -> tuple[int, int, int, int]:
    """(lock rolls, blocks, melee injuries, GG bought) in one match's full event log.

    Melee injuries are those a caster deals with the melee spell it just cast (Counter injuries,
    whose source is the countering piece, are not counted). A GG gain that does not follow a KO is
    a purchase (R-A50)."""
    locks = blocks = melee_damage = bought = 0
    casting: tuple[int, bool] = (-1, False)
    after_ko = False
    for event in events:
        if isinstance(event, LockRolled):
            locks += 1
            blocks += int(event.blocked)
        elif isinstance(event, SpellCast):
            casting = (event.uid, event.spell in melee)
        elif isinstance(event, Damaged) and casting[1] and event.source == casting[0]:
            melee_damage += event.amount
        if isinstance(event, KnockedOut):
            after_ko = True
        elif isinstance(event, GGChanged):
            if event.origin != "tension" and not after_ko:
                bought += 1
        else:
            after_ko = False
    return locks, blocks, melee_damage, bought


def box_deals(deals: int, seed: int) -> list[tuple[list[str], list[str], int]]:
    """``deals`` random splits of the box Krosmasters into two teams of four, each with a match seed."""
    box = list_characters(set="arena-box")
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(deals):
        order = rng.permutation(len(box))
        half = len(box) // 2
        out.append(([box[i] for i in order[:half]], [box[i] for i in order[half:]], int(rng.integers(2**31))))
    return out


def diagnose(
    ai: str,
    deals: int = 100,
    seed: int = 7,
    board: str = "arena-elemental",
    watch: Sequence[str] = DEFAULT_WATCH,
) -> Diagnosis:
    """Play ``deals`` box deals from both seats with ``ai`` on both sides and measure them."""
    the_board = default_registry().load_board(board)
    melee = melee_spells()
    out = Diagnosis(ai, watch_damage={name: [] for name in watch})
    for team0, team1, match_seed in box_deals(deals, seed):
        for t0, t1 in ((team0, team1), (team1, team0)):
            result = play_match(t0, t1, board=the_board, ai=ai, seed=match_seed, record="full")
            out.matches += 1
            out.turns += result.turns
            locks, blocks, melee_damage, bought = count_events(result.events, melee)
            out.lock_rolls += locks
            out.blocks += blocks
            out.melee_damage += melee_damage
            out.gg_bought += bought
            if result.winner is not None:
                loser_kamas = result.values["kamas"][1 - result.winner]
                out.decided += 1
                out.loser_kamas += loser_kamas
                out.loser_10 += int(loser_kamas >= 10)
            for record in result.fighters:
                if not record.is_summon and record.character in out.watch_damage:
                    out.watch_damage[record.character].append(sum(record.stats.damage_dealt))
    return out


def diagnosis_row(ai: str, deals: int, seed: int, board: str) -> dict[str, float | int | str]:
    """:func:`diagnose` as a plain dict (what a worker process sends back)."""
    return diagnose(ai, deals, seed, board).row()


def table(rows: Sequence[dict[str, float | int | str]]) -> str:
    """A Markdown table of diagnosis rows."""
    if not rows:
        return ""
    keys = list(rows[0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for row in rows:
        cells = [f"{v:.2f}" if isinstance(v, float) else str(v) for v in row.values()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m krosbalance.tools.diagnostics", description=__doc__)
    parser.add_argument("--ai", action="append", help="AI to diagnose (repeatable; default: every heuristic)")
    parser.add_argument("--deals", type=int, default=100, help="box deals per AI (each played twice)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--board", default="arena-elemental")
    parser.add_argument("--jobs", type=int, default=1, help="AIs diagnosed in parallel (processes)")
    args = parser.parse_args(argv)

    names = args.ai or [a for a in list_ais("arena") if ai_tier(a) == "heuristic"]
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(diagnosis_row, name, args.deals, args.seed, args.board) for name in names]
            rows = [f.result() for f in futures]
    else:
        rows = [diagnosis_row(name, args.deals, args.seed, args.board) for name in names]
    print(table(rows))


if __name__ == "__main__":
    main()
