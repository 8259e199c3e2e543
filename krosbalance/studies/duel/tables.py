"""The Duel Pack study: who beats whom in duels, and what a Duel Token of each level is worth.

It reads the matches table of a ``duel`` experiment (``simulations/duel.toml``) whose arms
(``variant``) differ only in the study option ``start_token_levels``: the baseline arm holds no
token from the start (the rules' game), each other arm gives seat 0 one extra token of a level,
face down, on top of its draft. Every deal is played under every arm on the same seed and, with
paired seeds, twice with the seats swapped, so the holder (always seat 0) is team A in one match
and team B in its twin. The arm of a match is read from the duel ruleset's declared column
``start_token_levels`` (``''`` = none; results without it: the ``options`` JSON).

Tables (this module never runs matches; each table per AI matchup, with the AI's tier):

- :func:`figure_win_rates` and :func:`figure_matrix`: each figure's win rate and the who-beats-whom
  matrix, over the baseline arm only (the tokens of the other arms go to seat 0 whoever sits
  there), reusing :func:`krosbalance.analysis.stats.character_win_rates` and
  :func:`~krosbalance.analysis.stats.matchup_matrix` (Wilson intervals on the deal-clustered
  effective n; draws count as non-wins);
- :func:`token_value`: per token level, the paired difference of the holder's (seat 0's) win
  against the baseline match of the same seed, board, AIs and seating (the same teams in the same
  seats), with a normal 95% interval whose variance is cluster-robust over deals (a deal's two
  seatings share its seed), and the exact McNemar p; how often the held token was revealed;
- :func:`pick_ups`: per arm, the duels that end before any token is picked up from a duel cell,
  the duels ending with the held token still face down, and draws by reason.

Plots are in :mod:`krosbalance.studies.duel.plots`. :func:`add_report_section` is the report's
hook for the section ``duel_tokens`` the duel ruleset declares.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar

from krosbalance.ai.ladder_order import strength_order
from krosbalance.analysis import scan
from krosbalance.analysis.ais import load_standings
from krosbalance.analysis.dependence import ai_tier, matchup_label
from krosbalance.analysis.design import CLUSTER, DEAL_KEYS, clusters
from krosbalance.analysis.names import display_name, team_label
from krosbalance.analysis.stats import (
    ALPHA,
    character_win_rates,
    matchup_matrix,
    ok_matches,
    wilson_interval,
)
from krosbalance.studies.duel import plots as duel_plots

BASELINE = ""
#: the baseline arm's label in tables and plots
NONE = "none"
#: the columns naming one match of a deal: its twin in another arm has the same values
PAIR_KEYS = ["seed", "swapped", "board", "ai0", "ai1", "team0", "team1"]
#: the matches-table columns the study reads
COLUMNS = [
    "match_id",
    *DEAL_KEYS,
    *PAIR_KEYS,
    "team_a",
    "team_b",
    "ruleset",
    "variant",
    "options",
    "winner",
    "winner_team",
    "first_player",
    "end_reason",
    "turns",
    "error",
    "start_token_levels",
    *(
        f"{name}{side}"
        for name in ("picked", "revealed", "held_from_start", "start_revealed")
        for side in (0, 1)
    ),
    "weight",
    "cluster",
]


# ------------------------------------------------------------------------------------ reading
def study_matches(rs: Any) -> pd.DataFrame:
    """The study's columns of every match of a result set: column by column from the shards of a
    result directory, or from the table of an in-memory result set."""
    root = getattr(rs, "root", None)
    if root is None:
        present = list(rs.matches.columns)
        return rs.matches[[c for c in COLUMNS if c in present]]
    import pyarrow.dataset as ds

    files = scan.shard_files(root / "matches")
    if not files:
        return pd.DataFrame(columns=COLUMNS)
    dataset = ds.dataset([str(f) for f in files], format="parquet")
    return dataset.to_table(columns=[c for c in COLUMNS if c in dataset.schema.names]).to_pandas()


def _held_from_options(text: Any) -> str:
    try:
        options = json.loads(text) if isinstance(text, str) and text else {}
    except ValueError:
        return BASELINE
    levels = options.get("start_token_levels", []) if isinstance(options, dict) else []
    return ",".join(str(level) for level in levels) if isinstance(levels, list) else BASELINE


def arm_label(held: str) -> str:
    """``none`` for no token held from the start, ``level 2`` (``level 1+4``) otherwise."""
    return NONE if not held else "level " + held.replace(",", "+")


def duel_frame(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per error-free duel with the study's columns: ``held`` (levels seat 0 held from the
    start, ``''`` none), ``arm`` (its label), ``ai`` (the matchup), ``tier``, ``holder_won`` (seat 0
    won), ``draw``, ``picked_any`` (a token was picked up from a duel cell), ``start_unrevealed``
    (seat 0 ended with a token held from the start still face down) and the deal ``cluster``."""
    m = ok_matches(matches)
    if "ruleset" in m.columns:
        m = m[m["ruleset"].astype(str).str.startswith("duel")]
    m = m.copy()
    if m.empty:
        return m.assign(held=pd.Series(dtype=str), arm=pd.Series(dtype=str), ai=pd.Series(dtype=str), tier="")
    if "start_token_levels" in m.columns:
        held = m["start_token_levels"].astype(object).where(m["start_token_levels"].notna(), None)
        from_options = m["options"].map(_held_from_options) if "options" in m.columns else BASELINE
        m["held"] = held.where(held.notna(), from_options).astype(str)
    else:
        m["held"] = m["options"].map(_held_from_options) if "options" in m.columns else BASELINE
    m["arm"] = m["held"].map(arm_label)
    m["ai"] = [matchup_label(a, b) for a, b in zip(m["ai0"], m["ai1"], strict=True)]
    tiers = {ai: ai_tier(ai) for ai in set(m["ai0"].astype(str)) | set(m["ai1"].astype(str))}
    m["tier"] = [
        tiers[str(a)] if tiers[str(a)] == tiers[str(b)] else f"{tiers[str(a)]} vs {tiers[str(b)]}"
        for a, b in zip(m["ai0"], m["ai1"], strict=True)
    ]
    winner = pd.to_numeric(m["winner"], errors="coerce").astype(float)
    m["draw"] = winner.isna().to_numpy()
    m["holder_won"] = (winner == 0).to_numpy()
    picked = [m[f"picked{s}"].astype(float).fillna(0) for s in (0, 1) if f"picked{s}" in m.columns]
    m["picked_any"] = (sum(picked) > 0).to_numpy() if picked else False
    if {"held_from_start0", "start_revealed0"} <= set(m.columns):
        held_n = m["held_from_start0"].astype(float).fillna(0)
        m["start_unrevealed"] = (m["start_revealed0"].astype(float).fillna(0) < held_n).to_numpy()
    else:
        m["start_unrevealed"] = False
    m[CLUSTER] = clusters(m)
    return m.reset_index(drop=True)


def _levels_order(held: str) -> tuple[int, ...]:
    return tuple(int(x) for x in held.split(",") if x)


# ------------------------------------------------------------------------------------ figures
def _with_ai(table: pd.DataFrame, ai: str, tier: str) -> pd.DataFrame:
    return table.assign(ai=ai, tier=tier)[["ai", "tier", *table.columns]]


def figure_win_rates(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per AI matchup, each figure's win rate in the baseline arm (``character_win_rates``: n, wins,
    draws, losses, Wilson interval on the deal-clustered effective n, deff), best first."""
    parts = []
    base = frame[frame["held"] == BASELINE] if len(frame) else frame
    for (ai, tier), g in base.groupby(["ai", "tier"], sort=True):
        parts.append(_with_ai(character_win_rates(g, alpha), str(ai), str(tier)))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def figure_matrix(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per AI matchup, who beats whom in the baseline arm: ``matchup_matrix`` rows (team,
    opponent, n, wins, draws, losses, win_rate, Wilson interval, deff), a team being its figure(s)."""
    parts = []
    base = frame[frame["held"] == BASELINE] if len(frame) else frame
    for (ai, tier), g in base.groupby(["ai", "tier"], sort=True):
        parts.append(_with_ai(matchup_matrix(g, alpha), str(ai), str(tier)))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


# ------------------------------------------------------------------------------------ token value
def paired_difference(
    diffs: np.ndarray, cluster: np.ndarray, alpha: float = ALPHA
) -> tuple[float, float, float, int]:
    """Mean of paired differences with a normal interval whose variance is cluster-robust
    (``G/(G-1) * sum_g (sum of the cluster's residuals)^2 / n^2``: pairs of one deal may be
    correlated). Returns (mean, low, high, number of clusters); the interval is NaN below 2
    clusters."""
    d = np.asarray(diffs, dtype=float)
    if len(d) == 0:
        return float("nan"), float("nan"), float("nan"), 0
    mean = float(d.mean())
    codes = np.unique(np.asarray(cluster), return_inverse=True)[1].ravel()
    g = int(codes.max()) + 1
    if g < 2:
        return mean, float("nan"), float("nan"), g
    sums = np.zeros(g)
    np.add.at(sums, codes, d - mean)
    var = g / (g - 1) * float((sums**2).sum()) / len(d) ** 2
    half = float(sps.norm.ppf(1 - alpha / 2)) * float(np.sqrt(var))
    return mean, mean - half, mean + half, g


def paired_arms(frame: pd.DataFrame) -> pd.DataFrame:
    """Every match of an arm with a token held from the start, joined to the baseline match of the
    same seed, board, AIs and seating (``*_base`` columns): the holder is seat 0 in both, whichever
    team (A or B) sits there."""
    keys = ["ai", *PAIR_KEYS]
    base = frame[frame["held"] == BASELINE].drop_duplicates(keys)
    arms = frame[frame["held"] != BASELINE]
    cols = [*keys, "holder_won", "draw", "turns", "picked_any"]
    return arms.merge(base[cols], on=keys, how="inner", suffixes=("", "_base"))


def token_value(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per AI matchup and token level(s) held by seat 0: ``n_pairs``, the holder's win rate with
    and without the token (Wilson intervals), ``delta`` (paired difference of its win, draws as
    non-wins) with ``delta_low``/``delta_high`` (normal, deal-clustered), ``n_deals`` (clusters),
    the discordant pairs (``gained``: won only with the token, ``lost``: only without), the exact
    McNemar ``p``, ``revealed`` (share of the arm's duels in which the held token was revealed)
    and the mean change in length (``turns_delta``)."""
    pairs = paired_arms(frame) if len(frame) else frame
    rows: list[dict[str, Any]] = []
    if pairs.empty:
        return pd.DataFrame(rows)
    for (ai, held), g in pairs.groupby(["ai", "held"], sort=True):
        n = len(g)
        won, won_base = g["holder_won"].to_numpy(bool), g["holder_won_base"].to_numpy(bool)
        delta, lo, hi, n_deals = paired_difference(
            won.astype(float) - won_base.astype(float), g[CLUSTER].to_numpy(), alpha
        )
        gained, lost = int((won & ~won_base).sum()), int((~won & won_base).sum())
        table = [[int((won & won_base).sum()), gained], [lost, int((~won & ~won_base).sum())]]
        with_lo, with_hi = wilson_interval(int(won.sum()), n, alpha)
        base_lo, base_hi = wilson_interval(int(won_base.sum()), n, alpha)
        revealed = int((~g["start_unrevealed"].to_numpy(bool)).sum())
        rev_lo, rev_hi = wilson_interval(revealed, n, alpha)
        rows.append(
            {
                "ai": ai,
                "tier": str(g["tier"].iloc[0]),
                "held": held,
                "arm": arm_label(str(held)),
                "n_pairs": n,
                "n_deals": n_deals,
                "win_with": float(won.mean()),
                "win_with_low": with_lo,
                "win_with_high": with_hi,
                "win_without": float(won_base.mean()),
                "win_without_low": base_lo,
                "win_without_high": base_hi,
                "delta": delta,
                "delta_low": lo,
                "delta_high": hi,
                "gained": gained,
                "lost": lost,
                "p": float(mcnemar(table, exact=True).pvalue) if gained + lost else 1.0,
                "draws_with": int(g["draw"].sum()),
                "draws_without": int(g["draw_base"].sum()),
                "revealed": revealed / n,
                "revealed_low": rev_lo,
                "revealed_high": rev_hi,
                "turns_delta": float((g["turns"] - g["turns_base"]).mean()),
            }
        )
    out = pd.DataFrame(rows)
    order = out["held"].map(_levels_order)
    return out.assign(_o=order).sort_values(["ai", "_o"]).drop(columns="_o").reset_index(drop=True)


def pick_ups(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per AI matchup and arm: duels, those ending before any token was picked up from a duel cell
    (count, share, Wilson interval), those ending with seat 0's token held from the start still
    face down, draws by end reason (``turn_limit``, ``mutual_ko``) and the mean and median length
    (game turns of both players)."""
    rows = []
    if frame.empty:
        return pd.DataFrame(rows)
    for (ai, held), g in frame.groupby(["ai", "held"], sort=True):
        n = len(g)
        before = int((~g["picked_any"].to_numpy(bool)).sum())
        lo, hi = wilson_interval(before, n, alpha)
        reasons = g.loc[g["draw"], "end_reason"].astype(str).value_counts()
        rows.append(
            {
                "ai": ai,
                "tier": str(g["tier"].iloc[0]),
                "held": held,
                "arm": arm_label(str(held)),
                "n": n,
                "no_pick_up": before,
                "no_pick_up_share": before / n,
                "no_pick_up_low": lo,
                "no_pick_up_high": hi,
                "start_unrevealed": int(g["start_unrevealed"].sum()) if held else 0,
                "draws": int(g["draw"].sum()),
                "turn_limit": int(reasons.get("turn_limit", 0)),
                "mutual_ko": int(reasons.get("mutual_ko", 0)),
                "mean_turns": float(g["turns"].mean()),
                "median_turns": float(g["turns"].median()),
            }
        )
    out = pd.DataFrame(rows)
    order = out["held"].map(_levels_order)
    return out.assign(_o=order).sort_values(["ai", "_o"]).drop(columns="_o").reset_index(drop=True)


def draw_pairings(frame: pd.DataFrame) -> pd.DataFrame:
    """The pairings (teams A and B) whose duels ended in draws, per AI matchup and end reason, most
    draws first: where the turn-limit stalemates are."""
    draws = frame[frame["draw"]] if len(frame) else frame
    if draws.empty:
        return pd.DataFrame(columns=["ai", "team_a", "team_b", "end_reason", "draws", "duels"])
    played = frame.groupby(["ai", "team_a", "team_b"]).size().rename("duels")
    out = (
        draws.groupby(["ai", "team_a", "team_b", "end_reason"])
        .size()
        .rename("draws")
        .reset_index()
        .merge(played.reset_index(), on=["ai", "team_a", "team_b"])
    )
    return out.sort_values(["draws", "team_a"], ascending=[False, True]).reset_index(drop=True)


# ------------------------------------------------------------------------------------ report
def _pct_ci(est: float, lo: float, hi: float, signed: bool = False) -> str:
    if est != est:
        return "n/a"
    sign = "+" if signed else ""
    if lo != lo or hi != hi:
        return f"{est:{sign}.1%}"
    return f"{est:{sign}.1%} [{lo:{sign}.1%}, {hi:{sign}.1%}]"


def _span(values: pd.Series) -> str:
    low, high = int(values.min()), int(values.max())
    return str(low) if low == high else f"{low}-{high}"


def strongest_first(ais: set[str]) -> list[str]:
    """The AIs played, the Duel Pack ladder's strongest first (the deciding AI's lines lead)."""
    return strength_order(sorted(ais), "duel", load_standings("duel")[0])


def headline(rates: pd.DataFrame, value: pd.DataFrame, pick: pd.DataFrame) -> list[str]:
    """The section's summary lines, per AI matchup, the strongest AI on the Duel Pack's ladder first
    (the report's summary leads with its lines): strongest and weakest figure, Δ per token level, the
    duels ending before any pick-up, the draws."""
    lines: list[str] = []
    ais = strongest_first(set(rates["ai"]) if len(rates) else set(pick["ai"]) if len(pick) else set())
    for ai in ais:
        r = rates[rates["ai"] == ai] if len(rates) else rates
        tier = str(r["tier"].iloc[0]) if len(r) else str(pick.loc[pick["ai"] == ai, "tier"].iloc[0])
        who = f"AI {ai} ({tier})"
        if len(r):
            top, bottom = r.iloc[0], r.iloc[-1]
            lines.append(
                f"{who}: strongest figure **{display_name(top['character'])}**, "
                f"{_pct_ci(top['win_rate'], top['ci_low'], top['ci_high'])} of {int(top['n'])} duels; "
                f"weakest **{display_name(bottom['character'])}**, "
                f"{_pct_ci(bottom['win_rate'], bottom['ci_low'], bottom['ci_high'])} of {int(bottom['n'])} "
                "(no token held from the start)."
            )
        v = value[value["ai"] == ai] if len(value) else value
        if len(v):
            parts = [
                f"{row.arm}: {_pct_ci(row.delta, row.delta_low, row.delta_high, signed=True)}"
                for row in v.itertuples()
            ]
            lines.append(
                f"{who}: Δ of the holder's win rate with one token held from the start, paired with the "
                f"same duel without it (n = {_span(v['n_pairs'])} pairs): " + "; ".join(parts) + "."
            )
        p = pick[pick["ai"] == ai] if len(pick) else pick
        base = p[p["held"] == BASELINE]
        if len(base):
            b = base.iloc[0]
            draws = int(p["draws"].sum())
            lines.append(
                f"{who}: {_pct_ci(b['no_pick_up_share'], b['no_pick_up_low'], b['no_pick_up_high'])} of "
                f"{int(b['n'])} duels of the rules' game end before any token is picked up from a duel "
                f"cell; {draws} of {int(p['n'].sum())} duels over every arm are draws "
                f"({int(p['turn_limit'].sum())} at the turn limit, {int(p['mutual_ko'].sum())} mutual KOs)."
            )
    return lines


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (``Ruleset.report_sections`` of the duel ruleset: ``duel_tokens``): the
    Duel Pack section, when the result set holds duels (``section(doc, title, build)`` is the
    report's guarded section builder)."""
    frame = duel_frame(study_matches(rs))
    if frame.empty:
        return
    section(
        doc,
        "Duel Pack: who beats whom, and the value of a Duel Token",
        lambda: report_section(doc, frame, tables),
    )


def _token_value_table(value: pd.DataFrame) -> pd.DataFrame:
    """The token-value table as the report shows it: per AI and level, seat 0's win rate without
    and with the held token, Δ, McNemar p, how often the token was revealed, draws and Δ turns."""
    return pd.DataFrame(
        {
            "AI (tier)": [f"{a} ({t})" for a, t in zip(value["ai"], value["tier"], strict=True)],
            "held by seat 0": value["arm"],
            "n pairs": value["n_pairs"],
            "deals": value["n_deals"],
            "seat 0 wins without [95% CI]": [
                _pct_ci(e, lo, hi)
                for e, lo, hi in zip(
                    value["win_without"], value["win_without_low"], value["win_without_high"], strict=True
                )
            ],
            "with [95% CI]": [
                _pct_ci(e, lo, hi)
                for e, lo, hi in zip(
                    value["win_with"], value["win_with_low"], value["win_with_high"], strict=True
                )
            ],
            "Δ [95% CI]": [
                _pct_ci(e, lo, hi, signed=True)
                for e, lo, hi in zip(value["delta"], value["delta_low"], value["delta_high"], strict=True)
            ],
            "won only with / only without": [
                f"{g} / {k}" for g, k in zip(value["gained"], value["lost"], strict=True)
            ],
            "McNemar p": [f"{p:.3g}" for p in value["p"]],
            "token revealed [95% CI]": [
                _pct_ci(e, lo, hi)
                for e, lo, hi in zip(
                    value["revealed"], value["revealed_low"], value["revealed_high"], strict=True
                )
            ],
            "draws with / without": [
                f"{a} / {b}" for a, b in zip(value["draws_with"], value["draws_without"], strict=True)
            ],
            "Δ turns": value["turns_delta"].round(2),
        }
    )


def report_section(
    doc: Any, frame: pd.DataFrame, tables: dict[str, pd.DataFrame], alpha: float = ALPHA
) -> None:
    """The Duel Pack section of a report: headline, each figure's win rate and the who-beats-whom
    matrix (baseline arm), the value of each token level, pick-ups and draws. Full tables go to
    ``tables`` (CSV)."""
    rates = figure_win_rates(frame, alpha)
    matrix = figure_matrix(frame, alpha)
    value = token_value(frame, alpha)
    pick = pick_ups(frame, alpha)
    draws = draw_pairings(frame)
    tables.update(
        duel_figures=rates, duel_matrix=matrix, duel_token_value=value, duel_pick_ups=pick, duel_draws=draws
    )
    arms = sorted(set(frame["held"]), key=_levels_order)
    doc.p(
        "Duels of one figure each unless the teams say otherwise. The figures' win rates and the matrix use "
        "the duels without a token held from the start (the rules' game): in the other arms seat 0 holds an "
        "extra token whoever sits there. Win rates count draws as non-wins; intervals are Wilson on the "
        "deal-clustered effective n. A token level's Δ pairs each duel in which seat 0 held a token from the "
        "start with the duel of the same seed, board, AIs and seating without it (seat 0 is team A in one "
        "seating and team B in the other): the mean difference of seat 0's win, with a normal 95% interval "
        "whose variance is clustered by deal, and the exact McNemar p over the discordant pairs. The token "
        "is held face down on top of seat 0's draft (study option start_token_levels, not a rule) and counts "
        "only once revealed (one token a turn, R-D21). The report's common sections pool every arm: their "
        "side-0 numbers (balance of side 0 vs side 1, the strength model's (side 0) term) carry the held "
        f"token. Arms here: {', '.join(arm_label(a) for a in arms)}.",
        note=True,
    )
    doc.ul(headline(rates, value, pick))
    for ai in strongest_first(set(rates["ai"])) if len(rates) else []:
        r = rates[rates["ai"] == ai]
        tier = str(r["tier"].iloc[0])
        shown = pd.DataFrame(
            {
                "figure": [display_name(c) for c in r["character"]],
                "AI (tier)": f"{ai} ({tier})",
                "n": r["n"].to_numpy(),
                "wins": r["wins"].to_numpy(),
                "draws": r["draws"].to_numpy(),
                "win rate [95% CI]": [
                    _pct_ci(e, lo, hi)
                    for e, lo, hi in zip(r["win_rate"], r["ci_low"], r["ci_high"], strict=True)
                ],
            }
        )
        doc.table(shown, f"Each figure's duel win rate, no token held from the start — AI {ai} ({tier}).")
        doc.image(
            f"duel_figures_{ai}.png".replace(" ", "_"),
            duel_plots.plot_figure_win_rates(rates, ai),
            f"duel win rate by figure, {ai}",
        )
        mx = matrix[matrix["ai"] == ai]
        cells = mx[mx["team"] != mx["opponent"]]
        if len(cells):
            wide = cells.assign(
                cell=[
                    f"{_pct_ci(w, lo, hi)} n={int(n)}"
                    for w, lo, hi, n in zip(
                        cells["win_rate"], cells["ci_low"], cells["ci_high"], cells["n"], strict=True
                    )
                ],
                team=[team_label(t) for t in cells["team"]],
                opponent=[team_label(t) for t in cells["opponent"]],
            ).pivot(index="team", columns="opponent", values="cell")
            doc.table(
                wide.fillna("").reset_index(),
                f"Who beats whom — AI {ai} ({tier}): the row figure's win rate against the column figure "
                "[95% CI], n duels.",
            )
            doc.image(
                f"duel_matrix_{ai}.png".replace(" ", "_"),
                duel_plots.plot_figure_matrix(matrix, ai),
                f"who beats whom, {ai}",
            )
    if len(value):
        shown = _token_value_table(value)
        doc.table(shown, "The value of a Duel Token held face down from the start by seat 0, per level.")
        doc.image(
            "duel_token_value.png", duel_plots.plot_token_value(value), "value of a duel token per level"
        )
    if len(pick):
        shown = pd.DataFrame(
            {
                "AI (tier)": [f"{a} ({t})" for a, t in zip(pick["ai"], pick["tier"], strict=True)],
                "arm": pick["arm"],
                "duels": pick["n"],
                "end before any pick-up [95% CI]": [
                    f"{k} = {_pct_ci(e, lo, hi)}"
                    for k, e, lo, hi in zip(
                        pick["no_pick_up"],
                        pick["no_pick_up_share"],
                        pick["no_pick_up_low"],
                        pick["no_pick_up_high"],
                        strict=True,
                    )
                ],
                "end with the held token face down": pick["start_unrevealed"],
                "draws (turn limit / mutual KO)": [
                    f"{d} ({t} / {k})"
                    for d, t, k in zip(pick["draws"], pick["turn_limit"], pick["mutual_ko"], strict=True)
                ],
                "turns: median (mean)": [
                    f"{md:g} ({mn:.1f})"
                    for md, mn in zip(pick["median_turns"], pick["mean_turns"], strict=True)
                ],
            }
        )
        doc.table(shown, "Tokens picked up from duel cells (R-D25) and draws, per arm.")
        doc.image("duel_pick_ups.png", duel_plots.plot_pick_ups(pick), "duels ending before any pick-up")
    if len(draws):
        shown = draws.assign(
            team_a=[team_label(t) for t in draws["team_a"]], team_b=[team_label(t) for t in draws["team_b"]]
        )
        doc.table(
            shown.head(20),
            "Where the draws are: pairings with drawn duels, every arm (all in tables/duel_draws.csv).",
        )
