"""The Demonic Reward study: what each token is worth, whether its price fits, and how it is used.

Three questions, each from the tidy tables (this module never runs matches):

- **Controlled value** (:func:`controlled_value`): in a reward-value experiment every deal is played
  once without rewards and once per token held face down from the start by team A (the
  ``start_rewards`` option, ``held_rewards`` in the experiment file), with the same seed, sides
  swapped as usual. The paired difference of team A's score (win 1, draw ½, loss 0) between the match
  with the token and the same deal without it is the token's Δ win rate, with a Student-t 95%
  interval over the pairs; likewise the Δ GG margin (A's GG minus B's at the end) and the Δ match
  length. Per AI matchup, with the AI tier of the ladder.
- **Value for money** (:func:`value_for_money`): Δ win rate per kama of the token's price, and a
  suggested rank: within each AI matchup the tokens are ordered by Δ win rate and given ranks in that
  order, as many of each rank as the assumed ranks hold (so the market keeps its make-up). A
  suggestion is *clear* when the token's interval lies wholly on its side of the rank boundary.
- **In play** (:func:`in_play`): in full-economy matches, how often each token comes onto a card
  (bought face up, bought at random, drawn by Ecaflip Style) and is revealed, who holds it, and the
  buying team's win rate — which is not the token's effect: teams buy when they can, so buying
  tracks being ahead (the controlled value is the causal measure).

Plots take data and an optional ``ax`` and return the figure: :func:`plot_reward_forest` (Δ win
rate per token, grouped by rank) and :func:`plot_value_vs_cost`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from krosbalance.analysis.scan import shard_files
from krosbalance.analysis.stats import (
    ALPHA,
    bounded_mean_interval,
    mean_interval,
    ok_matches,
    wilson_interval,
)
from krosbalance.content.registry import default_registry
from krosbalance.content.specs import RANKS, RewardSpec
from krosbalance.studies.rewards.arms import recorded_arms, row_options, row_tier

BASELINE = ""
HOW = {
    "v": "bought face up",
    "r": "bought at random",
    "d": "drawn (Ecaflip Style)",
    "s": "held from the start",
}
RANK_COLOURS = {"granite": "#7f7f7f", "jade": "#2ca02c", "gold": "#d4a017"}
DEFAULT_PRICES = {"granite": 3, "jade": 6, "gold": 12}


def held_by_team_a(options_json: Any, swapped: bool) -> str:
    """The tokens team A holds from the start in a match, '+'-joined ('' for none). The arms of the
    priced study (:mod:`krosbalance.studies.rewards.purchase`) are marked so that this module's
    controlled value stays the AI's-pick measure: 'TOKEN@holder' for a named holder, 'buy:TOKEN' for
    a token team A may buy (no token held, but not the baseline either)."""
    options = row_options(options_json)
    index = 1 if swapped else 0
    shop = options.get("purchasable_rewards")
    if isinstance(shop, list) and len(shop) == 2 and isinstance(shop[index], list) and shop[index]:
        return "buy:" + "+".join(str(t) for t in shop[index])
    start = options.get("start_rewards")
    if not isinstance(start, list) or len(start) != 2:
        return BASELINE
    side = start[index]
    if not isinstance(side, list):
        return BASELINE
    held = "+".join(str(t) for t in side)
    named = options.get("start_reward_holders")
    if isinstance(named, list) and len(named) == 2 and isinstance(named[index], list) and any(named[index]):
        held += "@" + "+".join(str(h) for h in named[index])
    return held


def match_scores(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per finished match: team A's held token(s), score, GG margin and length, with the AI
    matchup (``ai``: one name when both teams had the same AI) and its tier."""
    ok = ok_matches(matches)
    needed = {"options", "swapped", "ai0", "ai1", "winner_team", "gg0", "gg1", "turns", "seed", "match_id"}
    if ok.empty or not needed <= set(ok.columns):
        return pd.DataFrame(
            columns=["match_id", "ai", "tier", "seed", "swapped", "held", "score", "gg_margin", "turns"]
        )
    swapped = ok["swapped"].astype(bool).to_numpy()
    ai_a = np.where(swapped, ok["ai1"].astype(str), ok["ai0"].astype(str))
    ai_b = np.where(swapped, ok["ai0"].astype(str), ok["ai1"].astype(str))
    ai = [a if a == b else f"{a} vs {b}" for a, b in zip(ai_a, ai_b, strict=True)]
    tiers = {name: row_tier(name) for name in set(ai_a) | set(ai_b)}
    tier = [
        tiers[a] if tiers[a] == tiers[b] else f"{tiers[a]} vs {tiers[b]}"
        for a, b in zip(ai_a, ai_b, strict=True)
    ]
    winner_team = ok["winner_team"].fillna("").astype(str).to_numpy()
    score = np.where(winner_team == "A", 1.0, np.where(winner_team == "B", 0.0, 0.5))
    gg0, gg1 = ok["gg0"].to_numpy(dtype=float), ok["gg1"].to_numpy(dtype=float)
    margin = np.where(swapped, gg1 - gg0, gg0 - gg1)
    return pd.DataFrame(
        {
            "match_id": ok["match_id"].to_numpy(),
            "ai": ai,
            "tier": tier,
            "seed": ok["seed"].to_numpy(),
            "swapped": swapped,
            "held": [held_by_team_a(o, s) for o, s in zip(ok["options"], swapped, strict=True)],
            "score": score,
            "gg_margin": margin,
            "turns": ok["turns"].to_numpy(dtype=float),
        }
    )


def is_value_experiment(matches: pd.DataFrame) -> bool:
    """Whether the matches compare deals with and without a held token (a reward-value experiment)."""
    scores = match_scores(matches)
    return bool(len(scores)) and (scores["held"] == BASELINE).any() and (scores["held"] != BASELINE).any()


def _reward_info(rewards: Sequence[RewardSpec] | None) -> dict[str, RewardSpec]:
    if rewards is None:
        rewards = default_registry().all_rewards()
    return {r.id: r for r in rewards}


def controlled_value(
    matches: pd.DataFrame,
    rewards: Sequence[RewardSpec] | None = None,
    prices: dict[str, int] | None = None,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """Δ win rate, Δ GG margin and Δ match length of holding each token, per AI matchup.

    Returns one row per (ai, reward): ``tier``, ``rank``, ``price``, ``n`` (paired deals),
    ``win_with`` / ``win_without`` (team A's mean score), ``delta`` with ``delta_low``/``delta_high``,
    ``gg_delta`` (+ interval), ``turns_delta`` (+ interval), ``delta_per_kama``; sorted by ai, delta.
    """
    scores = match_scores(matches)
    info = _reward_info(rewards)
    prices = prices or DEFAULT_PRICES
    keys = ["ai", "seed", "swapped"]
    base = scores[scores["held"] == BASELINE].drop_duplicates(keys).set_index(keys)
    rows: list[dict[str, Any]] = []
    ai_pick = (scores["held"] != BASELINE) & ~scores["held"].str.contains("@|buy:", regex=True)
    for (ai, held), group in scores[ai_pick].groupby(["ai", "held"], sort=True):
        baseline = base[["score", "gg_margin", "turns"]].add_suffix("_base")
        joined = group.merge(baseline, left_on=keys, right_index=True, how="inner")
        if joined.empty:
            continue
        d_score = joined["score"] - joined["score_base"]
        d_gg = joined["gg_margin"] - joined["gg_margin_base"]
        d_turns = joined["turns"] - joined["turns_base"]
        delta, lo, hi = bounded_mean_interval(d_score, -1.0, 1.0, alpha)
        gg, gg_lo, gg_hi = mean_interval(d_gg, alpha)
        turns, t_lo, t_hi = mean_interval(d_turns, alpha)
        spec = info.get(str(held))
        rank = spec.rank if spec is not None else ""
        price = prices.get(rank, np.nan) if rank else np.nan
        rows.append(
            {
                "ai": ai,
                "tier": str(group["tier"].iloc[0]),
                "reward": held,
                "name": spec.name if spec is not None else str(held),
                "kind": spec.kind if spec is not None else "",
                "rank": rank,
                "price": price,
                "n": len(joined),
                "win_with": float(joined["score"].mean()),
                "win_without": float(joined["score_base"].mean()),
                "delta": delta,
                "delta_low": lo,
                "delta_high": hi,
                "gg_delta": gg,
                "gg_low": gg_lo,
                "gg_high": gg_hi,
                "turns_delta": turns,
                "turns_low": t_lo,
                "turns_high": t_hi,
                "delta_per_kama": delta / price if price and price == price else np.nan,
            }
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    return out.sort_values(["ai", "delta"], ascending=[True, False]).reset_index(drop=True)


def value_for_money(value: pd.DataFrame) -> pd.DataFrame:
    """``value`` with a ``suggested_rank`` per AI matchup (tokens ordered by Δ win rate get the ranks
    in the same numbers as their assumed ranks), whether it ``differs`` from the assumed rank, and
    whether the suggestion is ``clear`` (the token's interval lies wholly beyond the boundary between
    the two ranks). Rows without an assumed rank are left out of the ranking."""
    if value.empty:
        return value.assign(suggested_rank=[], differs=[], clear=[])
    parts: list[pd.DataFrame] = []
    for _, group in value.groupby("ai", sort=True):
        g = group[group["rank"].isin(RANKS)].sort_values(["delta", "reward"]).reset_index(drop=True)
        if g.empty:
            continue
        counts = [int((g["rank"] == rank).sum()) for rank in RANKS]
        suggested: list[str] = []
        for rank, count in zip(RANKS, counts, strict=True):
            suggested.extend([rank] * count)
        g["suggested_rank"] = suggested
        cuts = np.cumsum(counts)[:-1]
        deltas = g["delta"].to_numpy()
        bounds: list[float] = []  # delta midway between the last token of a rank and the next one
        for cut in cuts:
            if 0 < cut < len(deltas):
                bounds.append(float((deltas[cut - 1] + deltas[cut]) / 2))
            else:
                bounds.append(float("nan"))
        order = {rank: i for i, rank in enumerate(RANKS)}
        clear: list[bool] = []
        for _, row in g.iterrows():
            i = order[row["suggested_rank"]]
            low_ok = i == 0 or np.isnan(bounds[i - 1]) or row["delta_low"] > bounds[i - 1]
            high_ok = i == len(RANKS) - 1 or np.isnan(bounds[i]) or row["delta_high"] < bounds[i]
            clear.append(bool(low_ok and high_ok))
        g["clear"] = clear
        g["differs"] = g["suggested_rank"] != g["rank"]
        parts.append(g)
    out = pd.concat(parts, ignore_index=True) if parts else value.iloc[0:0]
    return out.sort_values(["ai", "delta"], ascending=[True, False]).reset_index(drop=True)


def headline(value: pd.DataFrame, shown: int = 5) -> pd.DataFrame:
    """The top and bottom ``shown`` tokens by Δ win rate in each AI matchup."""
    parts = []
    for _, group in value.groupby("ai", sort=True):
        g = group.sort_values("delta", ascending=False)
        top = g.head(shown).assign(place="top")
        bottom = g.tail(shown).iloc[::-1].assign(place="bottom")
        parts.append(pd.concat([top, bottom[~bottom["reward"].isin(top["reward"])]]))
    return pd.concat(parts, ignore_index=True) if parts else value


# -------------------------------------------------------------------------------------- in play


def _parse_held(text: Any) -> list[tuple[str, str]]:
    if not isinstance(text, str) or not text:
        return []
    out = []
    for item in text.split():
        token, _, how = item.partition(":")
        out.append((token, how))
    return out


def in_play(
    matches: pd.DataFrame,
    fighters: pd.DataFrame,
    rewards: Sequence[RewardSpec] | None = None,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """How each token is used in full-economy matches: ``bought`` (face up ``visible`` + ``random``),
    ``drawn``, ``revealed``, ``matches_bought`` (matches where it was bought), the Krosmasters it most
    often went to (``holders``), and the buying team's win rate (``buyer_win``, Wilson interval,
    draws as half) over ``n_buys`` purchases. Buying is not random: see the module's caveat."""
    info = _reward_info(rewards)
    columns = [
        "reward",
        "name",
        "rank",
        "bought",
        "visible",
        "random",
        "drawn",
        "revealed",
        "matches_bought",
        "holders",
        "n_buys",
        "buyer_win",
        "buyer_win_low",
        "buyer_win_high",
    ]
    if fighters.empty or "rewards_held" not in fighters.columns:
        return pd.DataFrame(columns=columns)
    ok_ids = set(ok_matches(matches)["match_id"])
    f = fighters[fighters["match_id"].isin(ok_ids)]
    held_rows: list[tuple[str, str, int, str, float]] = []
    won_col = f["won"] if "won" in f.columns else pd.Series(False, index=f.index)
    draw_col = f["draw"] if "draw" in f.columns else pd.Series(False, index=f.index)
    for match_id, character, text, won, draw in zip(
        f["match_id"], f["character"], f["rewards_held"], won_col, draw_col, strict=True
    ):
        score = 0.5 if bool(draw) else float(bool(won))
        for token, how in _parse_held(text):
            held_rows.append((token, how, int(match_id), str(character), score))
    used_col = f["rewards_used"] if "rewards_used" in f.columns else pd.Series("", index=f.index)
    used = [token for text in used_col for token, _ in _parse_held(text)]
    if not held_rows and not used:
        return pd.DataFrame(columns=columns)
    held = pd.DataFrame(held_rows, columns=["reward", "how", "match_id", "character", "score"])
    revealed = pd.Series(used, dtype=str).value_counts()
    rows = []
    for token in sorted(set(held["reward"]) | set(revealed.index)):
        h = held[held["reward"] == token]
        buys = h[h["how"].isin(["v", "r"])]
        n = len(buys)
        wins = float(buys["score"].sum())
        lo, hi = wilson_interval(wins, n, alpha) if n else (np.nan, np.nan)
        top = buys["character"].value_counts().head(3)
        spec = info.get(token)
        rows.append(
            {
                "reward": token,
                "name": spec.name if spec is not None else token,
                "rank": spec.rank if spec is not None else "",
                "bought": n,
                "visible": int((h["how"] == "v").sum()),
                "random": int((h["how"] == "r").sum()),
                "drawn": int((h["how"] == "d").sum()),
                "revealed": int(revealed.get(token, 0)),
                "matches_bought": int(buys["match_id"].nunique()),
                "holders": ", ".join(f"{c} ({k})" for c, k in top.items()),
                "n_buys": n,
                "buyer_win": wins / n if n else np.nan,
                "buyer_win_low": lo,
                "buyer_win_high": hi,
            }
        )
    return pd.DataFrame(rows, columns=columns).sort_values(["bought", "reward"], ascending=[False, True])


# -------------------------------------------------------------------------------------- plots


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        fig = ax.figure
        assert isinstance(fig, Figure)
        return fig, ax
    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def forest_data(value: pd.DataFrame, ai: str | None = None) -> pd.DataFrame:
    """The rows a forest plot draws, top to bottom: one AI matchup (the first if None), tokens grouped
    by rank (gold first) and sorted by Δ win rate within a rank."""
    if value.empty:
        return value
    ai = ai if ai is not None else str(sorted(value["ai"])[0])
    v = value[value["ai"] == ai].copy()
    v["rank_order"] = v["rank"].map({r: i for i, r in enumerate(RANKS)}).fillna(-1)
    return v.sort_values(["rank_order", "delta"], ascending=[False, False]).reset_index(drop=True)


def plot_reward_forest(value: pd.DataFrame, ai: str | None = None, ax: Axes | None = None) -> Figure:
    """Δ win rate of holding each token (95% CI), grouped by assumed rank."""
    data = forest_data(value, ai)
    fig, ax = _axes(ax, (7.0, max(3.0, 0.18 * len(data) + 1.2)))
    if data.empty:
        ax.text(0.5, 0.5, "no reward-value data", ha="center", va="center", transform=ax.transAxes)
        return fig
    y = np.arange(len(data))[::-1]
    colours = [RANK_COLOURS.get(r, "#1f77b4") for r in data["rank"]]
    est = data["delta"].to_numpy(dtype=float)
    lo = np.nan_to_num(est - data["delta_low"].to_numpy(dtype=float))
    hi = np.nan_to_num(data["delta_high"].to_numpy(dtype=float) - est)
    for yi, e, below, above, c in zip(y, est, lo, hi, colours, strict=True):
        ax.errorbar([e], [yi], xerr=[[below], [above]], fmt="o", color=c, ms=3, lw=1)
    ax.axvline(0.0, color="#444", lw=0.8)
    ax.set_yticks(y, [str(n) for n in data["name"]], fontsize=7)
    ax.set_xlabel("Δ win rate of the holding team (95% CI)")
    label = str(data["ai"].iloc[0])
    ax.set_title(f"Demonic Rewards held from the start — {label} (n = {int(data['n'].median())} deals each)")
    for rank in RANKS:
        ax.plot([], [], "o", color=RANK_COLOURS[rank], label=rank)
    ax.legend(title="assumed rank", fontsize=7, loc="lower right")
    return fig


def plot_value_vs_cost(value: pd.DataFrame, ai: str | None = None, ax: Axes | None = None) -> Figure:
    """Δ win rate against price (kamas), one point per token, coloured by assumed rank."""
    data = forest_data(value, ai)
    fig, ax = _axes(ax, (6.4, 4.2))
    if data.empty:
        ax.text(0.5, 0.5, "no reward-value data", ha="center", va="center", transform=ax.transAxes)
        return fig
    rng = np.random.default_rng(0)  # jitter only, for legibility
    x = data["price"].to_numpy(dtype=float) + rng.uniform(-0.6, 0.6, len(data))
    for rank in RANKS:
        mask = (data["rank"] == rank).to_numpy()
        ax.scatter(x[mask], data["delta"].to_numpy()[mask], s=14, color=RANK_COLOURS[rank], label=rank)
    means = data.groupby("price")["delta"].mean()
    ax.plot(means.index, means.to_numpy(), "k--", lw=0.8, label="mean per price")
    ax.axhline(0.0, color="#444", lw=0.6)
    ax.set_xticks(sorted(set(data["price"].dropna())))
    ax.set_xlabel("price (kamas)")
    ax.set_ylabel("Δ win rate")
    ax.set_title(f"Value against cost — {data['ai'].iloc[0]}")
    ax.legend(fontsize=7)
    return fig


# -------------------------------------------------------------------------------------- data

MATCH_COLUMNS = (
    "match_id",
    "swapped",
    "seed",
    "ai0",
    "ai1",
    "options",
    "winner_team",
    "gg0",
    "gg1",
    "turns",
    "error",
    "end_reason",
)
FIGHTER_COLUMNS = ("match_id", "character", "rewards_held", "rewards_used", "won", "draw")


def _read_columns(directory: Path, columns: Sequence[str], held_only: bool = False) -> pd.DataFrame:
    """The named columns of a table's shards (those present), read column-wise; with ``held_only``
    only the fighter rows that ever held a token."""
    import pyarrow.dataset as ds

    files = shard_files(directory)
    if not files:
        return pd.DataFrame(columns=list(columns))
    dataset = ds.dataset([str(f) for f in files], format="parquet")
    present = [c for c in columns if c in dataset.schema.names]
    if held_only and "rewards_held" not in present:
        return pd.DataFrame(columns=list(columns))
    flt = (ds.field("rewards_held") != "") if held_only else None
    return dataset.to_table(columns=present, filter=flt).to_pandas()


def reward_data(rs: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The matches and fighters columns the reward study reads, from a ``ResultSet``: in memory when
    it holds its tables, else read column by column from its shards (fighters: only those that held a
    token), so the memory stays that of these few columns."""
    root = getattr(rs, "root", None)
    if root is None:
        return rs.matches, rs.fighters
    matches = _read_columns(Path(root) / "matches", MATCH_COLUMNS)
    fighters = _read_columns(Path(root) / "fighters", FIGHTER_COLUMNS, held_only=True)
    return matches, fighters


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook: a "Demonic Rewards" section when the run played value arms (its record
    says so: :func:`~krosbalance.studies.rewards.arms.recorded_arms`) or tokens were held in play
    (``section(doc, title, build)`` is the report's guarded section builder)."""
    matches, fighters = reward_data(rs)
    arms = recorded_arms(rs)
    value_arms = is_value_experiment(matches) if arms is None else arms.value
    if value_arms or tokens_held(fighters):
        section(
            doc,
            "Demonic Rewards",
            lambda: report_section(doc, matches, fighters, tables, value_arms=value_arms),
        )


# -------------------------------------------------------------------------------------- report


def _ci(est: float, lo: float, hi: float) -> str:
    if est != est:
        return "–"
    if lo != lo or hi != hi:
        return f"{est:+.1%}"
    return f"{est:+.1%} [{lo:+.1%}, {hi:+.1%}]"


def tokens_held(fighters: pd.DataFrame) -> bool:
    """Whether any fighter held a token (bought, drawn or held from the start): the tokens in play."""
    return "rewards_held" in fighters.columns and bool((fighters["rewards_held"].fillna("") != "").any())


def report_section(
    doc: Any,
    matches: pd.DataFrame,
    fighters: pd.DataFrame,
    tables: dict[str, pd.DataFrame],
    rewards: Sequence[RewardSpec] | None = None,
    *,
    value_arms: bool | None = None,
) -> None:
    """The report's "Demonic Rewards" section (its hook calls it for value arms or tokens in play;
    ``value_arms``: whether the run played them, as its record says; None: as the matches show):
    the headline table, the forest plot by rank, value for money with suggested ranks, value against
    cost, and tokens in play. Full tables go to ``tables`` (CSV)."""
    if value_arms is None:
        value_arms = is_value_experiment(matches)
    measured = controlled_value(matches, rewards) if value_arms else pd.DataFrame()
    if not measured.empty:
        value = value_for_money(measured)
        tables["reward_value"] = value
        doc.p(
            "Each deal is played without rewards and once per token held face down from the start by "
            "team A (revealable whenever its AI sees fit), with the same seed: Δ win rate is team A's "
            "paired score difference (win 1, draw ½), 95% Student-t interval over the deals."
        )
        head = headline(value)
        shown = pd.DataFrame(
            {
                "AI (tier)": [f"{a} ({t})" for a, t in zip(head["ai"], head["tier"], strict=True)],
                "": head["place"],
                "token": head["name"],
                "rank": head["rank"],
                "Δ win rate [95% CI]": [
                    _ci(e, lo, hi)
                    for e, lo, hi in zip(head["delta"], head["delta_low"], head["delta_high"], strict=True)
                ],
                "Δ GG margin": head["gg_delta"].round(2),
                "Δ turns": head["turns_delta"].round(1),
                "n deals": head["n"],
            }
        )
        doc.table(shown, "Top and bottom tokens by Δ win rate (all tokens in tables/reward_value.csv).")
        for ai in sorted(set(value["ai"]))[:3]:
            doc.image(
                f"reward_forest_{ai}.png".replace(" ", "_"),
                plot_reward_forest(value, ai),
                f"reward forest {ai}",
            )
            doc.image(
                f"reward_value_cost_{ai}.png".replace(" ", "_"),
                plot_value_vs_cost(value, ai),
                f"value vs cost {ai}",
            )
        moved = value[value["differs"]]
        if moved.empty:
            doc.p("Every token's suggested rank matches its assumed rank.")
        else:
            doc.table(
                pd.DataFrame(
                    {
                        "AI": moved["ai"],
                        "token": moved["name"],
                        "assumed": moved["rank"],
                        "suggested": moved["suggested_rank"],
                        "clear": moved["clear"].map({True: "yes", False: "no"}),
                        "Δ win rate [95% CI]": [
                            _ci(e, lo, hi)
                            for e, lo, hi in zip(
                                moved["delta"], moved["delta_low"], moved["delta_high"], strict=True
                            )
                        ],
                        "Δ per kama": [f"{x:+.2%}" for x in moved["delta_per_kama"]],
                    }
                ),
                "Tokens whose measured value suggests another rank (ranks given in Δ order, as many of each "
                "as assumed; 'clear' = the interval lies wholly beyond the rank boundary).",
            )
    play = in_play(matches, fighters, rewards)
    if not play.empty and play["bought"].sum() + play["drawn"].sum() > 0:
        tables["reward_in_play"] = play
        n_matches = len(ok_matches(matches))
        top = play.head(20)
        doc.table(
            pd.DataFrame(
                {
                    "token": top["name"],
                    "rank": top["rank"],
                    "bought (face up / random)": [
                        f"{b} ({v}/{r})"
                        for b, v, r in zip(top["bought"], top["visible"], top["random"], strict=True)
                    ],
                    "revealed": top["revealed"],
                    "per match": (top["bought"] / max(n_matches, 1)).round(3),
                    "buyer's win rate": [
                        _ci(e, lo, hi).lstrip("+").replace("[+", "[").replace(", +", ", ")
                        for e, lo, hi in zip(
                            top["buyer_win"], top["buyer_win_low"], top["buyer_win_high"], strict=True
                        )
                    ],
                    "went to": top["holders"],
                }
            ),
            f"Tokens in play over {n_matches} full-economy matches (all in tables/reward_in_play.csv). "
            "Caveat: the buyer's win rate is not the token's effect — teams buy when they can afford it, "
            "and affording it tracks being ahead; the controlled value of a reward-value experiment (held_rewards) is the causal measure.",
        )
