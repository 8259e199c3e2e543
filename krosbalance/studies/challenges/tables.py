"""The Divine Challenge study: does a challenge shift the first player's edge or the balance between
winning by KO and winning on glyphs, and which of its tiers is dead text?

It reads the matches table of a Blast experiment whose *arms* (``variant`` column) are the Divine
Challenges in play, one per arm, plus a ``none`` arm without a challenge, all played on the same
seeds (each deal is played under every arm: same teams, same toss, same favor deck, same dice stream
until the games diverge). The Blast holdings of each match are the typed columns the Blast ruleset
declares (``glyphs0``, ``tier1_turn0``, ``uses:<challenge>/<bonus>:0``..., written by
``krosbalance.rulesets.blast.results``); results written before those columns keep them in one
``extras`` JSON column, which is read the same way.

Tables (each rate with a Wilson 95% interval and its n; means with Student-t intervals):

- :func:`arm_summary`: per arm and AI matchup — first-player wins, second-player wins, draws, how
  games end (KO / glyph majority / draw), game length, glyphs each player holds at the end;
- :func:`team_win_rates`: per arm, each team's win rate;
- :func:`tier_table`: per arm, how often each tier (1, 3, 5 glyph cells) was reached, by the first
  player, the second, anyone; and how often each bonus acted;
- :func:`verdicts`: per arm against ``none``, on the paired seeds, the change in the first player's
  win rate and in the share of games ending by KO (paired difference with its interval, exact
  McNemar test, Holm-adjusted over every test of the table), and the tiers never reached (dead text).

Plots take these tables, an optional ``ax``, return the figure and never call ``show()``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from krosbalance.analysis import scan
from krosbalance.analysis.stats import (
    ALPHA,
    bounded_mean_interval,
    mean_interval,
    ok_matches,
    wilson_interval,
)
from krosbalance.content.blast import blast_cards

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from krosbalance.analysis.resultset import ResultSet

BASELINE = "none"
TIERS = (1, 3, 5)
ENDS = {"ko": "ko", "glyphs": "glyphs", "glyph_draw": "draw", "mutual_ko": "draw"}
PAIR_KEYS = ["seed", "swapped", "board", "ai0", "ai1", "team0", "team1"]
#: the matches-table columns the study reads (one row per match: the arms are paired match by match)
COLUMNS = [
    *PAIR_KEYS,
    "ruleset",
    "variant",
    "options",
    "winner",
    "first_player",
    "end_reason",
    "turns",
    "error",
    *(f"{name}{side}" for name in ("glyphs", "tier1_turn", "tier3_turn", "tier5_turn") for side in (0, 1)),
    "extras",  # results written before the declared columns (issue 17)
]
#: the bonus-use columns, one per bonus and side, read by prefix
USES = "uses:"


def study_matches(rs: ResultSet) -> pd.DataFrame:
    """The study's columns of every match of a result set: read column by column from the shards of
    a result directory (the report's memory stays bounded by those columns, a few bytes a match), or
    taken from the table of an in-memory result set."""
    return _columns(rs, COLUMNS)


def _columns(rs: ResultSet, columns: list[str]) -> pd.DataFrame:
    if rs.root is None:
        present = list(rs.matches.columns)
        return rs.matches[_wanted(columns, present)]
    import pyarrow.dataset as ds

    files = scan.shard_files(rs.root / "matches")
    if not files:
        return pd.DataFrame(columns=columns)
    dataset = ds.dataset([str(f) for f in files], format="parquet")
    return dataset.to_table(columns=_wanted(columns, dataset.schema.names)).to_pandas()


def _wanted(columns: list[str], present: list[str]) -> list[str]:
    """The asked columns present, and with the Blast holdings every bonus-use column."""
    names = [c for c in columns if c in present]
    if "extras" in columns:
        names += [c for c in present if c.startswith(USES)]
    return names


def _extras(matches: pd.DataFrame) -> pd.DataFrame:
    """The holdings of results written before the declared columns, from their ``extras`` JSON."""
    if "extras" not in matches:
        return pd.DataFrame(index=matches.index)
    rows = [json.loads(text) if isinstance(text, str) and text else {} for text in matches["extras"]]
    return pd.DataFrame(rows, index=matches.index)


def blast_matches(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per finished Blast match with the study's columns: ``arm``, ``ai`` (the matchup),
    ``first_won``, ``second_won``, ``draw``, ``end`` (ko / glyphs / draw / other), ``turns``,
    ``glyphs_first``, ``glyphs_second``, ``tier{1,3,5}_{first,second,any}`` and every ``uses:`` count
    of the extras."""
    m = ok_matches(matches)
    m = m[m["ruleset"].astype(str).str.startswith("blast")].copy()
    extras = _extras(m)
    extras = extras[[c for c in extras.columns if c not in m.columns or m[c].isna().all()]]
    m = m.drop(columns=[c for c in extras.columns if c in m.columns])
    frame = pd.concat([m.reset_index(drop=True), extras.reset_index(drop=True)], axis=1)
    frame["arm"] = frame["variant"].astype(str).replace("", BASELINE) if "variant" in frame else BASELINE
    frame["ai"] = np.where(frame["ai0"] == frame["ai1"], frame["ai0"], frame["ai0"] + " vs " + frame["ai1"])
    winner = frame["winner"].astype("Float64")
    first = frame["first_player"].astype(int)
    frame["draw"] = winner.isna().to_numpy(dtype=bool, na_value=True)
    frame["first_won"] = (winner == first).to_numpy(dtype=bool, na_value=False)
    frame["second_won"] = (winner == 1 - first).to_numpy(dtype=bool, na_value=False)
    frame["end"] = frame["end_reason"].astype(str).map(ENDS).fillna("other")
    second = 1 - first
    for who, side in (("first", first), ("second", second)):
        frame[f"glyphs_{who}"] = np.where(side == 0, frame["glyphs0"], frame["glyphs1"]).astype(float)
        for tier in TIERS:
            turn = np.where(side == 0, frame[f"tier{tier}_turn0"], frame[f"tier{tier}_turn1"]).astype(float)
            frame[f"tier{tier}_{who}"] = turn > 0
    for tier in TIERS:
        frame[f"tier{tier}_any"] = frame[f"tier{tier}_first"] | frame[f"tier{tier}_second"]
    return frame


def _rate(count: int, n: int, alpha: float) -> tuple[float, float, float]:
    lo, hi = wilson_interval(count, n, alpha)
    return (count / n if n else float("nan"), lo, hi)


def arm_summary(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per arm and matchup: rates of first-player wins, second-player wins, draws and each way of
    ending (Wilson intervals), mean turns and mean glyphs held at the end (t intervals)."""
    rows = []
    for (arm, ai), g in frame.groupby(["arm", "ai"], sort=True):
        n = len(g)
        row: dict[str, Any] = {"arm": arm, "ai": ai, "n": n}
        for name, mask in (
            ("first_win", g["first_won"]),
            ("second_win", g["second_won"]),
            ("draw", g["draw"]),
            ("ko", g["end"] == "ko"),
            ("glyph_win", g["end"] == "glyphs"),
        ):
            row[name], row[f"{name}_lo"], row[f"{name}_hi"] = _rate(int(mask.sum()), n, alpha)
        for name, column in (
            ("turns", "turns"),
            ("glyphs_first", "glyphs_first"),
            ("glyphs_second", "glyphs_second"),
        ):
            row[name], row[f"{name}_lo"], row[f"{name}_hi"] = mean_interval(g[column].to_numpy(float), alpha)
        rows.append(row)
    return pd.DataFrame(rows)


def team_win_rates(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per arm and team: games, wins, draws and the win rate (Wilson interval)."""
    records = []
    for side in (0, 1):
        part = frame[["arm", f"team{side}", "winner"]].rename(columns={f"team{side}": "team"})
        part = part.assign(
            won=(part["winner"].astype("Float64") == side).to_numpy(dtype=bool, na_value=False)
        )
        part = part.assign(drawn=part["winner"].isna())
        records.append(part[["arm", "team", "won", "drawn"]])
    both = pd.concat(records)
    rows = []
    for (arm, team), g in both.groupby(["arm", "team"], sort=True):
        rate, lo, hi = _rate(int(g["won"].sum()), len(g), alpha)
        rows.append(
            {
                "arm": arm,
                "team": team,
                "n": len(g),
                "wins": int(g["won"].sum()),
                "draws": int(g["drawn"].sum()),
                "win_rate": rate,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return pd.DataFrame(rows)


def tier_table(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per arm with a challenge, matchup and tier: how often the tier was reached by the first player,
    the second and anyone (Wilson intervals), and which bonus it unlocks with how often it acted."""
    rows = []
    for (arm, ai), g in frame[frame["arm"] != BASELINE].groupby(["arm", "ai"], sort=True):
        n = len(g)
        uses = [c for c in g.columns if c.startswith("uses:") and g[c].notna().any()]
        for tier in TIERS:
            row: dict[str, Any] = {"arm": arm, "ai": ai, "tier": tier, "n": n}
            for who in ("first", "second", "any"):
                count = int(g[f"tier{tier}_{who}"].sum())
                row[f"reached_{who}"], row[f"reached_{who}_lo"], row[f"reached_{who}_hi"] = _rate(
                    count, n, alpha
                )
            row["bonuses"] = ", ".join(_bonus_uses(g, uses, arm, tier))
            rows.append(row)
    return pd.DataFrame(rows)


def _bonus_uses(g: pd.DataFrame, uses: list[str], arm: str, tier: int) -> list[str]:
    """``bonus: mean uses per game (share of games it acted)`` for the bonuses of ``tier``."""
    try:
        challenge = blast_cards().challenge(arm)
    except Exception:
        return []
    reading = _tier_reading(g)
    out = []
    for bonus in challenge.bonuses:
        if bonus.tier_for(reading) != tier:
            continue
        cols = [c for c in uses if c.startswith(f"uses:{challenge.id}/{bonus.id}:")]
        if not cols:
            continue
        total = g[cols].fillna(0).sum(axis=1)
        out.append(f"{bonus.name}: {total.mean():.2f}/game, acted in {(total > 0).mean():.0%}")
    return out


def _tier_reading(g: pd.DataFrame) -> str:
    if "options" not in g or g.empty:
        return "printed"
    options = json.loads(str(g["options"].iloc[0]) or "{}")
    return str(options.get("challenge_tier_reading", "printed"))


def _paired(frame: pd.DataFrame, arm: str, ai: str) -> pd.DataFrame:
    base = frame[(frame["arm"] == BASELINE) & (frame["ai"] == ai)]
    this = frame[(frame["arm"] == arm) & (frame["ai"] == ai)]
    return this.merge(base, on=PAIR_KEYS, suffixes=("", "_base"))


def _paired_test(now: pd.Series, before: pd.Series, alpha: float) -> tuple[float, float, float, float]:
    """Mean paired difference of two boolean outcomes with a t interval, and the exact McNemar p."""
    a = now.to_numpy(dtype=bool)
    b = before.to_numpy(dtype=bool)
    diff, lo, hi = bounded_mean_interval((a.astype(float) - b.astype(float)), -1.0, 1.0, alpha)
    table = [[int((a & b).sum()), int((a & ~b).sum())], [int((~a & b).sum()), int((~a & ~b).sum())]]
    p = float(mcnemar(table, exact=True).pvalue) if table[0][1] + table[1][0] else 1.0
    return diff, lo, hi, p


def verdicts(frame: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per challenge arm and matchup against ``none`` on the same seeds: the first player's win rate
    and the KO share of endings before and after, their paired difference with its interval, exact
    McNemar p-values Holm-adjusted over the whole table, whether each shift is beyond the noise
    (adjusted p < alpha), and the tiers nobody reached (dead text)."""
    rows = []
    for (arm, ai), g in frame[frame["arm"] != BASELINE].groupby(["arm", "ai"], sort=True):
        pairs = _paired(frame, str(arm), str(ai))
        row: dict[str, Any] = {"arm": arm, "ai": ai, "n_pairs": len(pairs)}
        try:
            row["status"] = blast_cards().challenge(str(arm)).status
        except Exception:
            row["status"] = "?"
        for name, column in (("first", "first_won"), ("ko", "end")):
            now = pairs[column] == "ko" if column == "end" else pairs[column]
            before = pairs[f"{column}_base"] == "ko" if column == "end" else pairs[f"{column}_base"]
            row[f"{name}_base"] = float(before.mean()) if len(pairs) else float("nan")
            row[f"{name}_arm"] = float(now.mean()) if len(pairs) else float("nan")
            diff, lo, hi, p = _paired_test(now, before, alpha) if len(pairs) else (np.nan,) * 4
            row[f"{name}_diff"], row[f"{name}_lo"], row[f"{name}_hi"], row[f"{name}_p"] = diff, lo, hi, p
        dead = [str(t) for t in TIERS if not g[f"tier{t}_any"].any()]
        row["dead_tiers"] = ", ".join(dead) if dead else "-"
        rows.append(row)
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    pvalues = np.concatenate([table["first_p"].to_numpy(float), table["ko_p"].to_numpy(float)])
    ok = ~np.isnan(pvalues)
    adjusted = np.full(len(pvalues), np.nan)
    if ok.any():
        adjusted[ok] = multipletests(pvalues[ok], alpha=alpha, method="holm")[1]
    half = len(table)
    table["first_p_holm"] = adjusted[:half]
    table["ko_p_holm"] = adjusted[half:]
    table["shifts_first_player"] = table["first_p_holm"] < alpha
    table["shifts_ko_vs_glyph"] = table["ko_p_holm"] < alpha
    return table


# ----------------------------------------------------------------------------------------- plots


def _axes(ax: Axes | None) -> tuple[Figure, Axes]:
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4))
        return fig, ax
    return ax.figure, ax  # type: ignore[return-value]


def plot_first_player(summary: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """First-player win rate per arm (one marker per matchup) with 95% intervals; 0.5 dashed."""
    fig, ax = _axes(ax)
    arms = sorted(summary["arm"].unique(), key=lambda a: (a != BASELINE, a))
    ais = sorted(summary["ai"].unique())
    for k, ai in enumerate(ais):
        part = summary[summary["ai"] == ai].set_index("arm").reindex(arms)
        x = np.arange(len(arms)) + (k - (len(ais) - 1) / 2) * 0.15
        err = np.vstack([part["first_win"] - part["first_win_lo"], part["first_win_hi"] - part["first_win"]])
        ax.errorbar(x, part["first_win"], yerr=err, fmt="o", capsize=3, label=ai)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(np.arange(len(arms)), arms, rotation=30, ha="right")
    ax.set_ylabel("first player wins (share of games)")
    ax.set_title("First-player win rate by Divine Challenge")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_endings(summary: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """How games end per arm (all matchups pooled, weighted by n): KO, glyph majority, draw."""
    fig, ax = _axes(ax)
    arms = sorted(summary["arm"].unique(), key=lambda a: (a != BASELINE, a))
    pooled = []
    for arm in arms:
        part = summary[summary["arm"] == arm]
        n = part["n"].sum()
        pooled.append([(part[c] * part["n"]).sum() / n for c in ("ko", "glyph_win", "draw")])
    shares = np.array(pooled)
    bottom = np.zeros(len(arms))
    for j, label in enumerate(("KO", "glyph majority", "draw")):
        ax.bar(arms, shares[:, j], bottom=bottom, label=label)
        bottom += shares[:, j]
    ax.set_ylabel("share of games")
    ax.set_title("How games end, by Divine Challenge")
    ax.tick_params(axis="x", rotation=30)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_tiers(tiers: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Share of games in which anyone reached each tier, per challenge (all matchups pooled)."""
    fig, ax = _axes(ax)
    arms = sorted(tiers["arm"].unique())
    width = 0.25
    for j, tier in enumerate(TIERS):
        part = tiers[tiers["tier"] == tier]
        values = [
            (part.loc[part["arm"] == a, "reached_any"] * part.loc[part["arm"] == a, "n"]).sum()
            / max(1, part.loc[part["arm"] == a, "n"].sum())
            for a in arms
        ]
        ax.bar(np.arange(len(arms)) + (j - 1) * width, values, width, label=f"tier {tier}")
    ax.set_xticks(np.arange(len(arms)), arms, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("games where the tier was reached")
    ax.set_title("Divine Challenge tiers reached")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------------------- report


def _ci(est: pd.Series, lo: pd.Series, hi: pd.Series, pct: bool = True, digits: int = 1) -> list[str]:
    scale = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    return [
        "-"
        if pd.isna(e)
        else f"{e * scale:.{digits}f}{unit} [{low * scale:.{digits}f}, {high * scale:.{digits}f}]"
        for e, low, high in zip(est, lo, hi, strict=True)
    ]


def verdict_table(verdicts_frame: pd.DataFrame) -> pd.DataFrame:
    """The verdict table as the report shows it: one row per challenge and matchup."""
    v = verdicts_frame
    out = pd.DataFrame({"challenge": v["arm"], "card": v["status"], "AI": v["ai"], "n pairs": v["n_pairs"]})
    out["first-player wins: none -> challenge"] = [
        f"{b:.1%} -> {a:.1%}" for b, a in zip(v["first_base"], v["first_arm"], strict=True)
    ]
    out["shift [95% CI]"] = _ci(v["first_diff"], v["first_lo"], v["first_hi"])
    out["p (Holm)"] = [f"{p:.3g}" for p in v["first_p_holm"]]
    out["KO endings: none -> challenge"] = [
        f"{b:.1%} -> {a:.1%}" for b, a in zip(v["ko_base"], v["ko_arm"], strict=True)
    ]
    out["KO shift [95% CI]"] = _ci(v["ko_diff"], v["ko_lo"], v["ko_hi"])
    out["p (Holm) "] = [f"{p:.3g}" for p in v["ko_p_holm"]]
    out["verdict"] = [
        ", ".join(
            [s for s, flag in (("shifts first player", f), ("shifts KO vs glyphs", k)) if flag]
            or ["within the noise"]
        )
        for f, k in zip(v["shifts_first_player"], v["shifts_ko_vs_glyph"], strict=True)
    ]
    out["tiers never reached"] = v["dead_tiers"]
    return out


def add_report_section(doc: Any, rs: ResultSet, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (``Ruleset.report_sections`` of Blast: ``divine_challenges``): the Divine
    Challenge section, first in a Blast report (``section(doc, title, build)`` is the report's guarded
    section builder)."""
    section(
        doc, "Divine Challenges (Krosmaster Blast)", lambda: report_section(doc, study_matches(rs), tables)
    )


def report_section(
    doc: Any, matches: pd.DataFrame, tables: dict[str, pd.DataFrame], alpha: float = ALPHA
) -> None:
    """The Divine Challenge section of a Blast experiment's report (``krosbalance.analysis.report``):
    the verdict table, then the tables and plots behind it. ``doc`` is the report's document model."""
    frame = blast_matches(matches)
    if frame.empty:
        doc.p("No error-free Blast match.")
        return
    summary = arm_summary(frame, alpha)
    teams = team_win_rates(frame, alpha)
    tiers = tier_table(frame, alpha)
    verdict = verdicts(frame, alpha)
    tables.update(
        challenge_summary=summary, challenge_teams=teams, challenge_tiers=tiers, challenge_verdicts=verdict
    )
    doc.p(
        "Each deal (teams, board, first player, favor deck, dice seed) is played under every arm: no Divine "
        "Challenge ('none') and each challenge alone. A challenge's effect is the paired difference against "
        "'none' on the same deals; 'beyond the noise' = exact McNemar test, Holm-adjusted over the whole table, "
        f"p < {alpha}. Cards marked 'assumed' are invented stand-ins (no reachable source prints them): their "
        "verdicts test this toolkit's reading, not the real card.",
        note=True,
    )
    if not verdict.empty:
        doc.table(
            verdict_table(verdict),
            "Verdicts: which challenges move the first player's edge or the KO-vs-glyph balance.",
        )
    show = pd.DataFrame({"arm": summary["arm"], "AI": summary["ai"], "n": summary["n"]})
    for col, label in (
        ("first_win", "first player wins"),
        ("second_win", "second player wins"),
        ("draw", "draws"),
        ("ko", "ends by KO"),
        ("glyph_win", "ends on glyphs"),
    ):
        show[f"{label} [95% CI]"] = _ci(summary[col], summary[f"{col}_lo"], summary[f"{col}_hi"])
    for col, label in (
        ("turns", "turns"),
        ("glyphs_first", "glyphs, first player"),
        ("glyphs_second", "glyphs, second player"),
    ):
        show[f"{label} [95% CI]"] = _ci(
            summary[col], summary[f"{col}_lo"], summary[f"{col}_hi"], pct=False, digits=2
        )
    doc.table(show, "Per arm and AI matchup: outcomes, game length and glyphs held at the end.")
    doc.image("challenges_first_player.png", plot_first_player(summary), "first-player win rate by challenge")
    doc.image("challenges_endings.png", plot_endings(summary), "how games end by challenge")
    if not tiers.empty:
        t = pd.DataFrame(
            {"challenge": tiers["arm"], "AI": tiers["ai"], "tier": tiers["tier"], "n": tiers["n"]}
        )
        for who in ("first", "second", "any"):
            t[f"reached by {who} [95% CI]"] = _ci(
                tiers[f"reached_{who}"], tiers[f"reached_{who}_lo"], tiers[f"reached_{who}_hi"]
            )
        t["bonus uses"] = tiers["bonuses"]
        doc.table(t, "How often each tier (glyph cells held at once) was reached, and by whom.")
        doc.image("challenges_tiers.png", plot_tiers(tiers), "tiers reached by challenge")
    doc.table(teams, "Win rate of each team per arm (Wilson 95% CI).")
