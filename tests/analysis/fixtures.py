"""Synthetic result tables with a planted truth, shaped exactly like the runner's output.

The planted world: eight characters, teams of three. ``star`` is truly strong and ``tagalong`` is
truly average but is picked beside ``star`` most of the time, so its *raw* win rate is high;
``hero`` is truly strong but usually teamed with the truly weak ``anchor``, so its raw rate looks
ordinary. The first player has a small real advantage. A teammate-adjusted model should see through
both confounds.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd

ELEMENTS = ("neutral", "water", "air", "earth", "fire")
TRUE_STRENGTH = {
    "star": 1.0,
    "tagalong": 0.0,
    "hero": 0.7,
    "anchor": -0.7,
    "bolt": 0.0,
    "fern": 0.0,
    "gale": 0.0,
    "moss": 0.0,
}
CHARACTERS = tuple(TRUE_STRENGTH)
FIRST_PLAYER_EDGE = 0.3  # log-odds
SPEC_TEXT = """question = "Is the star too strong, and does the first player win too often?"
name = "planted"
[teams]
size = 3
"""


def _team_weights(teams: list[tuple[str, ...]]) -> np.ndarray:
    w = np.ones(len(teams))
    for i, t in enumerate(teams):
        if "tagalong" in t:
            w[i] = 6.0 if "star" in t else 0.25
        if "hero" in t:
            w[i] *= 6.0 if "anchor" in t else 0.25
    return w / w.sum()


def _fighter_rows(
    match_id: int,
    side: int,
    team: tuple[str, ...],
    label: str,
    won: bool,
    draw: bool,
    rng,
    ai: str = "greedy",
):
    rows = []
    for i, c in enumerate(team):
        dealt = rng.poisson(4, len(ELEMENTS)) * (
            np.arange(len(ELEMENTS)) == i % len(ELEMENTS) + 0
        ) + rng.poisson(1, len(ELEMENTS))
        taken = rng.poisson(2, len(ELEMENTS))
        rows.append(
            _fighter(
                match_id, side, label, team, side * 10 + i, c, False, -1, dealt, taken, won, draw, rng, ai
            )
        )
        if c == "bolt":  # bolt brings a summon whose damage belongs to bolt
            dealt = np.array([3, 0, 0, 0, 0])
            rows.append(
                _fighter(
                    match_id,
                    side,
                    label,
                    team,
                    side * 10 + 5,
                    "bolt_turret",
                    True,
                    side * 10 + i,
                    dealt,
                    np.zeros(5, int),
                    won,
                    draw,
                    rng,
                    ai,
                )
            )
    return rows


def _fighter(
    match_id,
    side,
    label,
    team,
    uid,
    character,
    is_summon,
    summoner,
    dealt,
    taken,
    won,
    draw,
    rng,
    ai="greedy",
):
    row = {
        "match_id": match_id,
        "side": side,
        "team": label,
        "team_ids": ",".join(team),
        "ai": ai,
        "won": won,
        "draw": draw,
        "uid": uid,
        "character": character,
        "name": character.title(),
        "level": 4,
        "is_summon": is_summon,
        "summoner": summoner,
    }
    for e, d, t in zip(ELEMENTS, dealt, taken, strict=True):
        row[f"damage_dealt_{e}"] = int(d)
        row[f"damage_taken_{e}"] = int(t)
    row["damage_dealt"] = int(np.sum(dealt))
    row["damage_taken"] = int(np.sum(taken))
    row.update(
        heals_given=int(rng.poisson(1)),
        heals_received=int(rng.poisson(1)),
        kills=int(rng.poisson(0.5)),
        knocked_out=bool(rng.random() < (0.2 if won else 0.6)),
        turns_alive=int(rng.integers(1, 12)),
        kamas_collected=int(rng.poisson(2)),
        gg_won=int(rng.poisson(0.3)),
        spells_cast=int(rng.poisson(5)),
        moves=int(rng.poisson(6)),
        times_blocked=int(rng.poisson(0.5)),
    )
    return row


def planted_tables(
    n_pairings: int = 1000,
    seed: int = 1,
    draw_rate: float = 0.04,
    error_rate: float = 0.0,
    max_teams: int | None = None,
    ai: str = "greedy",
    board: str = "tiny",
    strength: dict[str, float] | None = None,
    first_id: int = 0,
    first_pairing: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Matches and fighters tables of ``2 * n_pairings`` matches (each pairing played with sides swapped).

    ``max_teams`` keeps only that many of the 56 possible teams (a small matchup matrix, fast plots).
    ``ai`` and ``board`` label every match; ``strength`` replaces the planted truth (an AI under which
    the characters play differently); ``first_id``/``first_pairing`` offset the ids so several
    tables can be concatenated.
    """
    truth = TRUE_STRENGTH if strength is None else strength
    rng = np.random.default_rng(seed)
    teams = list(itertools.combinations(CHARACTERS, 3))
    weights = _team_weights(teams)
    if max_teams is not None:
        keep = np.sort(rng.choice(len(teams), size=max_teams, replace=False, p=weights))
        teams = [teams[i] for i in keep]
        weights = weights[keep] / weights[keep].sum()
    matches, fighters = [], []
    mid = first_id
    for pairing in range(first_pairing, first_pairing + n_pairings):
        ia, ib = rng.choice(len(teams), size=2, p=weights)
        team_a, team_b = teams[ia], teams[ib]
        for swapped in (False, True):
            team0, team1 = (team_b, team_a) if swapped else (team_a, team_b)
            first = int(rng.integers(2))
            logit = sum(truth[c] for c in team0) - sum(truth[c] for c in team1)
            logit += FIRST_PLAYER_EDGE if first == 0 else -FIRST_PLAYER_EDGE
            error = "boom: engine bug" if rng.random() < error_rate else ""
            if error:
                winner, reason = None, "error"
            elif rng.random() < draw_rate:
                winner, reason = None, "turn_limit"
            else:
                winner = 0 if rng.random() < 1 / (1 + np.exp(-logit)) else 1
                reason = "gg" if rng.random() < 0.6 else "last_standing"
            side_a = 1 if swapped else 0
            winner_team = "" if winner is None else ("A" if winner == side_a else "B")
            matches.append(
                {
                    "match_id": mid,
                    "experiment": "planted",
                    "pairing": pairing,
                    "swapped": swapped,
                    "deal": 0,
                    "seed": int(rng.integers(2**31)),
                    "team_a": ",".join(team_a),
                    "team_b": ",".join(team_b),
                    "team0": ",".join(team0),
                    "team1": ",".join(team1),
                    "ai0": ai,
                    "ai1": ai,
                    "board": board,
                    "ruleset": "arena",
                    "options": "{}",
                    "winner": winner,
                    "winner_team": winner_team,
                    "end_reason": reason,
                    "turns": int(rng.integers(4, 30)) if reason != "turn_limit" else 40,
                    "first_player": first,
                    "gg0": int(rng.integers(0, 6)),
                    "gg1": int(rng.integers(0, 6)),
                    "kamas0": int(rng.integers(0, 10)),
                    "kamas1": int(rng.integers(0, 10)),
                    "wild_gg_left": bool(rng.random() < 0.3),
                    "engine_version": "arena-1",
                    "content_version": "test-1",
                    "package_version": "0.1.0",
                    "error": error,
                }
            )
            if not error:
                for side, team in ((0, team0), (1, team1)):
                    label = "A" if side == side_a else "B"
                    won = winner == side
                    fighters += _fighter_rows(mid, side, team, label, won, winner is None, rng, ai)
            mid += 1
    m = pd.DataFrame(matches)
    m["winner"] = m["winner"].astype("Int64")
    return m, pd.DataFrame(fighters)


def write_results(
    root: Path, matches: pd.DataFrame, fighters: pd.DataFrame, spec_text: str = SPEC_TEXT
) -> Path:
    """Write tables in the runner's layout (two shard sets, to exercise concatenation): set ``i`` is
    ``matches/part-i.parquet`` and the fighters of its matches in ``fighters/part-i.parquet``, as
    the runner names and groups them."""
    half = len(matches) // 2
    parts = [matches.iloc[half:], matches.iloc[:half]] if half else [matches]  # out of order on purpose
    for name in ("matches", "fighters"):
        (root / name).mkdir(parents=True, exist_ok=True)
    for i, part in enumerate(parts):
        part.to_parquet(root / "matches" / f"part-{i:03d}.parquet", index=False)
        own = fighters[fighters["match_id"].isin(part["match_id"])] if "match_id" in fighters else fighters
        own.to_parquet(root / "fighters" / f"part-{i:03d}.parquet", index=False)
    (root / "experiment.toml").write_text(spec_text, encoding="utf-8")
    manifest = {
        "experiment": "planted",
        "master_seed": 1,
        "n_matches": len(matches),
        "versions": {"engine": "arena-1", "content": "test-1", "package": "0.1.0"},
    }
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


# Two AIs that disagree about "anchor": weak under "brawler", strong under "sniper"; both agree that
# "star" is strong. The AIs are registered nowhere: tests pass their tiers through a stand-in ladder.
AI_STRENGTH = {
    "brawler": TRUE_STRENGTH,
    "sniper": {**TRUE_STRENGTH, "anchor": 0.7, "hero": 0.0},
}


def planted_by_ai(
    n_pairings: int = 600, seed: int = 3, boards: tuple[str, ...] = ("tiny",)
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Matches and fighters where each AI of ``AI_STRENGTH`` plays both sides, on every board."""
    ms, fs = [], []
    offset = 0
    for i, (ai, truth) in enumerate(AI_STRENGTH.items()):
        for j, board in enumerate(boards):
            m, f = planted_tables(
                n_pairings,
                seed=seed + 10 * i + j,
                ai=ai,
                board=board,
                strength=truth,
                first_id=2 * offset,
                first_pairing=offset,
            )
            ms.append(m)
            fs.append(f)
            offset += n_pairings
    return pd.concat(ms, ignore_index=True), pd.concat(fs, ignore_index=True)


PLANTED_RATINGS = {"floor": -1.5, "plain": 0.0, "clever": 0.4, "deep": 1.1}


def planted_ladder(n_deals: int = 150, seed: int = 5) -> pd.DataFrame:
    """A matches table of every ordered AI pair of ``PLANTED_RATINGS`` on mirror teams, paired seeds.

    Each deal is played twice with sides swapped; the AI follows its team. The outcome of a deal's
    two matches share a "dice" term, so they are positively correlated, as real paired seeds are.
    """
    rng = np.random.default_rng(seed)
    ais = list(PLANTED_RATINGS)
    rows = []
    mid = 0
    team = "star,bolt,fern"
    for pairing, (a, b) in enumerate(itertools.combinations(ais, 2)):
        for deal in range(n_deals):
            dice = rng.normal(0, 1.0)
            for swapped in (False, True):
                ai0, ai1 = (b, a) if swapped else (a, b)
                first = int(rng.integers(2))
                logit = PLANTED_RATINGS[ai0] - PLANTED_RATINGS[ai1] + (dice if not swapped else -dice)
                winner = 0 if rng.random() < 1 / (1 + np.exp(-logit)) else 1
                side_a = 1 if swapped else 0
                rows.append(
                    {
                        "match_id": mid,
                        "experiment": "ladder",
                        "pairing": pairing,
                        "swapped": swapped,
                        "deal": deal,
                        "seed": deal,
                        "team_a": team,
                        "team_b": team,
                        "team0": team,
                        "team1": team,
                        "ai0": ai0,
                        "ai1": ai1,
                        "board": "tiny",
                        "ruleset": "arena",
                        "options": "{}",
                        "winner": winner,
                        "winner_team": "A" if winner == side_a else "B",
                        "end_reason": "gg",
                        "turns": int(rng.integers(4, 30)),
                        "first_player": first,
                        "error": "",
                    }
                )
                mid += 1
    m = pd.DataFrame(rows)
    m["winner"] = m["winner"].astype("Int64")
    return m
