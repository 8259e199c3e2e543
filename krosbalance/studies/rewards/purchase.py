"""The reward study priced as real play (issue 18): value per holder, value as a purchase, reveal timing.

Reads a reward experiment's tidy tables (``reward_holders`` / ``purchase_rewards``,
:mod:`krosbalance.sim.reward_arms`); never runs matches. Every arm of a deal is played on the deal's
seed, sides swapped as usual, so each match is paired with the baseline match (no token, no market:
GG only) of the same deal, side and AI. Team A's score is 1 for a win, ½ for a draw, 0 for a loss.

- **Per holder** (:func:`holder_value`): Δ win rate of team A holding the token from the start on a
  named Krosmaster, and Δ log-odds (logit of the arm's win rate minus the baseline's, ½ added to
  wins and losses). Intervals are deal-clustered: the two seatings of a deal share their dice, so a
  deal is one cluster — Δ win rate has a Student-t interval over the deals' mean differences, Δ
  log-odds a percentile bootstrap over deals (:data:`BOOTSTRAP` resamples, fixed seed). Per token the
  summary (:func:`holder_summary`) gives the best holder (its Δ is selected as the largest of several,
  so it is biased upwards: read it with the others) and the mean over holders (a deal's mean
  difference over all holders, same interval).
- **As a purchase** (:func:`purchase_value`): in the ``buy:`` arm team A may buy the token face up
  on a Demon cell at its price (R-A51, R-A136), its AI choosing whether, when and where, and the
  baseline spends the same kamas on GG only. Δ is the value of having the offer (intention to treat,
  deal-clustered as above); the purchase rate (Wilson interval on the deals' effective size) and the
  game turn of purchase say how the AI used it; Δ per purchase is Δ / purchase rate (the effect on the
  matches where the AI buys, an instrumental-variable reading: bootstrap interval, only with at
  least one purchase). Verdict: *worth its kamas* when Δ's interval lies above 0, *not worth its
  kamas* when below, *never bought* when the AI never bought it, else *not shown either way*.
- **Reveal timing** (:func:`reveal_timing`): in every match where team A's Krosmaster received the
  token (held, per holder or bought), whether it was revealed and at which game turn (the fighter
  columns ``rewards_used_turns`` / ``rewards_held_turns``): the share revealed (Wilson) and the
  quartiles of the reveal turn and of the turns it waited on the card.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis.stats import (
    ALPHA,
    bounded_mean_interval,
    ok_matches,
    wilson_interval,
)
from krosbalance.studies.rewards.arms import recorded_arms, row_options, row_tier

BOOTSTRAP = 1000
"""Bootstrap resamples over deals for the log-odds and per-purchase intervals."""
BOOTSTRAP_SEED = 20261202
KEYS = ["ai", "seed", "swapped"]


def _side_list(options: dict[str, Any], key: str, side: int) -> list[str]:
    value = options.get(key)
    if isinstance(value, list) and len(value) == 2 and isinstance(value[side], list):
        return [str(v) for v in value[side]]
    return []


def arm_of(options_json: Any, swapped: bool) -> tuple[str, str, str]:
    """(kind, token, holder) of team A in one match: kind '' (baseline: no token, nothing to buy),
    'held' (held from the start, the AI's pick of holder), 'holder' (held by the named Krosmaster),
    'buy' (for sale to team A) or 'other' (several tokens: not an arm of this study)."""
    options = row_options(options_json)
    side = 1 if swapped else 0
    held = _side_list(options, "start_rewards", side)
    holders = _side_list(options, "start_reward_holders", side)
    buy = _side_list(options, "purchasable_rewards", side)
    if options.get("demonic_rewards") or len(held) + len(buy) > 1:
        return "other", "", ""
    if buy:
        return "buy", buy[0], ""
    if held:
        named = holders[0] if holders else ""
        return ("holder" if named else "held"), held[0], named
    return "", "", ""


def arm_scores(matches: pd.DataFrame) -> pd.DataFrame:
    """One row per finished match: AI (team A's; 'a vs b' when the teams differ), tier, seed, swapped,
    arm kind, token, holder, team A's score and side."""
    ok = ok_matches(matches)
    columns = ["match_id", "ai", "tier", "seed", "swapped", "kind", "token", "holder", "score", "side_a"]
    if ok.empty or not {"options", "swapped", "ai0", "ai1", "winner_team", "seed"} <= set(ok.columns):
        return pd.DataFrame(columns=columns)
    swapped = ok["swapped"].astype(bool).to_numpy()
    ai_a = np.where(swapped, ok["ai1"].astype(str), ok["ai0"].astype(str))
    ai_b = np.where(swapped, ok["ai0"].astype(str), ok["ai1"].astype(str))
    ai = [a if a == b else f"{a} vs {b}" for a, b in zip(ai_a, ai_b, strict=True)]
    tiers = {name: row_tier(name) for name in set(ai_a) | set(ai_b)}
    arms = [arm_of(o, s) for o, s in zip(ok["options"], swapped, strict=True)]
    winner = ok["winner_team"].fillna("").astype(str).to_numpy()
    return pd.DataFrame(
        {
            "match_id": ok["match_id"].to_numpy(),
            "ai": ai,
            "tier": [tiers[a] for a in ai_a],
            "seed": ok["seed"].to_numpy(),
            "swapped": swapped,
            "kind": [a[0] for a in arms],
            "token": [a[1] for a in arms],
            "holder": [a[2] for a in arms],
            "score": np.where(winner == "A", 1.0, np.where(winner == "B", 0.0, 0.5)),
            "side_a": swapped.astype("int64"),
        },
        columns=columns,
    )


def is_priced_experiment(matches: pd.DataFrame) -> bool:
    """Whether the matches hold per-holder or purchase arms beside a baseline."""
    if "options" not in matches.columns:
        return False
    text = matches["options"].astype(str)
    if not (
        text.str.contains("start_reward_holders").any() or text.str.contains("purchasable_rewards").any()
    ):
        return False
    kinds = set(arm_scores(matches)["kind"])
    return "" in kinds and bool(kinds & {"holder", "buy"})


def paired(scores: pd.DataFrame) -> pd.DataFrame:
    """Each arm match beside its baseline match (same AI, deal seed and seating): ``base`` and ``d``."""
    base = scores[scores["kind"] == ""].drop_duplicates(KEYS).set_index(KEYS)["score"].rename("base")
    arms = scores[scores["kind"].isin(["held", "holder", "buy"])]
    joined = arms.join(base, on=KEYS, how="inner")
    return joined.assign(d=joined["score"] - joined["base"])


def _logit(p: np.ndarray | float, n: np.ndarray | float) -> np.ndarray | float:
    """Log-odds of a win rate over ``n`` matches, with ½ a win and ½ a loss added (never infinite)."""
    return np.log((p * n + 0.5) / ((1 - p) * n + 0.5))


def _cluster_stats(group: pd.DataFrame, rng: np.random.Generator, alpha: float) -> dict[str, float]:
    """Δ win rate (t over deals) and Δ log-odds (bootstrap over deals) of paired rows."""
    deals = group.groupby("seed").agg(score=("score", "sum"), base=("base", "sum"), n=("d", "size"))
    per_deal = (deals["score"] - deals["base"]) / deals["n"]
    delta, lo, hi = bounded_mean_interval(per_deal.to_numpy(), -1.0, 1.0, alpha)
    n = float(deals["n"].sum())
    logodds = float(_logit(deals["score"].sum() / n, n) - _logit(deals["base"].sum() / n, n))
    lo_l = hi_l = float("nan")
    if len(deals) > 1:
        idx = rng.integers(len(deals), size=(BOOTSTRAP, len(deals)))
        s, b, m = (deals[c].to_numpy(dtype=float)[idx].sum(axis=1) for c in ("score", "base", "n"))
        boot = _logit(s / m, m) - _logit(b / m, m)
        lo_l, hi_l = (float(x) for x in np.quantile(boot, [alpha / 2, 1 - alpha / 2]))
    return {
        "n_matches": int(n),
        "n_deals": len(deals),
        "win_with": float(group["score"].mean()),
        "win_without": float(group["base"].mean()),
        "delta": delta,
        "delta_low": lo,
        "delta_high": hi,
        "logodds": logodds,
        "logodds_low": lo_l,
        "logodds_high": hi_l,
    }


def holder_value(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Δ win rate and Δ log-odds of each token on each holder, per AI: one row per (ai, token,
    holder); holder '(AI's pick)' for ``held`` arms."""
    pairs = paired(arm_scores(matches))
    pairs = pairs[pairs["kind"].isin(["held", "holder"])]
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    rows = []
    for (ai, token, holder), group in pairs.groupby(["ai", "token", "holder"], sort=True):
        rows.append(
            {
                "ai": ai,
                "tier": str(group["tier"].iloc[0]),
                "token": token,
                "holder": holder or "(AI's pick)",
                **_cluster_stats(group, rng, alpha),
            }
        )
    return pd.DataFrame(rows)


def holder_summary(matches: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per (ai, token): the best holder and its Δ, the worst, and the mean over holders (a deal's
    mean difference across every holder, t interval over deals)."""
    per = holder_value(matches, alpha)
    if per.empty:
        return per
    pairs = paired(arm_scores(matches))
    pairs = pairs[pairs["kind"] == "holder"]
    rng = np.random.default_rng(BOOTSTRAP_SEED + 1)
    rows = []
    named = per[per["holder"] != "(AI's pick)"]
    for (ai, token), group in named.groupby(["ai", "token"], sort=True):
        best = group.loc[group["delta"].idxmax()]
        worst = group.loc[group["delta"].idxmin()]
        mean = _cluster_stats(pairs[(pairs["ai"] == ai) & (pairs["token"] == token)], rng, alpha)
        rows.append(
            {
                "ai": ai,
                "tier": best["tier"],
                "token": token,
                "holders": len(group),
                "best_holder": best["holder"],
                "best_delta": best["delta"],
                "best_low": best["delta_low"],
                "best_high": best["delta_high"],
                "worst_holder": worst["holder"],
                "worst_delta": worst["delta"],
                "mean_delta": mean["delta"],
                "mean_low": mean["delta_low"],
                "mean_high": mean["delta_high"],
                "mean_logodds": mean["logodds"],
                "mean_logodds_low": mean["logodds_low"],
                "mean_logodds_high": mean["logodds_high"],
                "n_deals": mean["n_deals"],
                "n_matches": mean["n_matches"],
            }
        )
    return (
        pd.DataFrame(rows).sort_values(["ai", "mean_delta"], ascending=[True, False]).reset_index(drop=True)
    )


def _events(fighters: pd.DataFrame, column: str, turns: str) -> pd.DataFrame:
    """(match_id, side, character, token, turn) of each entry of a space-separated fighter column and
    its parallel turns column (held tokens keep their ':how' suffix in ``how``)."""
    out: list[tuple[int, int, str, str, str, int]] = []
    if fighters.empty or column not in fighters.columns:
        return pd.DataFrame(columns=["match_id", "side", "character", "token", "how", "turn"])
    f = fighters[fighters[column].fillna("") != ""]
    turn_col = f[turns] if turns in f.columns else pd.Series("", index=f.index)
    for mid, side, who, text, when in zip(
        f["match_id"], f["side"], f["character"], f[column], turn_col.fillna(""), strict=True
    ):
        items = str(text).split()
        stamps = [int(t) for t in str(when).split()]
        for i, item in enumerate(items):
            token, _, how = item.partition(":")
            out.append((int(mid), int(side), str(who), token, how, stamps[i] if i < len(stamps) else -1))
    return pd.DataFrame(out, columns=["match_id", "side", "character", "token", "how", "turn"])


def purchase_value(matches: pd.DataFrame, fighters: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per (ai, token) of the ``buy:`` arms: Δ (intention to treat), purchase rate and turn, Δ per
    purchase, the holders the AI chose and the verdict."""
    scores = arm_scores(matches)
    pairs = paired(scores)
    pairs = pairs[pairs["kind"] == "buy"]
    if pairs.empty:
        return pd.DataFrame()
    held = _events(fighters, "rewards_held", "rewards_held_turns")
    bought = held[held["how"] == "v"].merge(pairs[["match_id", "token", "side_a"]], on=["match_id", "token"])
    bought = bought[bought["side"] == bought["side_a"]].drop_duplicates("match_id")
    pairs = pairs.assign(bought=pairs["match_id"].isin(bought["match_id"]))
    rng = np.random.default_rng(BOOTSTRAP_SEED + 2)
    rows = []
    for (ai, token), group in pairs.groupby(["ai", "token"], sort=True):
        stats = _cluster_stats(group, rng, alpha)
        deals = group.groupby("seed").agg(d=("d", "sum"), bought=("bought", "sum"), n=("d", "size"))
        k, n = int(group["bought"].sum()), len(group)
        deff = _design_effect(group["bought"].astype(float), group["seed"])
        r_lo, r_hi = wilson_interval(round(k / deff), max(1, round(n / deff)), alpha)
        turns = bought[bought["match_id"].isin(group["match_id"])]
        per_buy = lo_b = hi_b = float("nan")
        if k:
            per_buy = stats["delta"] / (k / n)
            idx = rng.integers(len(deals), size=(BOOTSTRAP, len(deals)))
            d, b = (deals[c].to_numpy(dtype=float)[idx].sum(axis=1) for c in ("d", "bought"))
            with np.errstate(divide="ignore", invalid="ignore"):
                boot = np.where(b > 0, d / np.maximum(b, 1), np.nan)
            boot = boot[np.isfinite(boot)]
            if len(boot) > BOOTSTRAP // 2:
                lo_b, hi_b = (float(x) for x in np.quantile(boot, [alpha / 2, 1 - alpha / 2]))
        rows.append(
            {
                "ai": ai,
                "tier": str(group["tier"].iloc[0]),
                "token": token,
                **stats,
                "bought": k,
                "purchase_rate": k / n,
                "rate_low": float(r_lo),
                "rate_high": float(r_hi),
                "turn_median": float(turns["turn"].median()) if k else float("nan"),
                "turn_q1": float(turns["turn"].quantile(0.25)) if k else float("nan"),
                "turn_q3": float(turns["turn"].quantile(0.75)) if k else float("nan"),
                "holders": ", ".join(f"{c} {v}" for c, v in turns["character"].value_counts().items()),
                "delta_per_purchase": per_buy,
                "per_purchase_low": lo_b,
                "per_purchase_high": hi_b,
                "verdict": _verdict(k, stats["delta_low"], stats["delta_high"]),
            }
        )
    return pd.DataFrame(rows).sort_values(["ai", "delta"], ascending=[True, False]).reset_index(drop=True)


def _design_effect(values: pd.Series, clusters: pd.Series) -> float:
    """Kish's design effect of a clustered proportion (1 when clusters hold one match or nothing varies)."""
    total = values.var(ddof=0)
    if not total or len(values) < 2:
        return 1.0
    sizes = clusters.value_counts()
    m = float(sizes.mean())
    if m <= 1:
        return 1.0
    frame = pd.DataFrame({"v": values.to_numpy(), "c": clusters.to_numpy()})
    within = frame.groupby("c")["v"].var(ddof=0).mean()
    rho = max(0.0, 1 - float(within) / float(total) * m / max(m - 1, 1))
    return max(1.0, 1 + (m - 1) * min(rho, 1.0))


def _verdict(bought: int, low: float, high: float) -> str:
    if bought == 0:
        return "never bought"
    if low > 0:
        return "worth its kamas"
    if high < 0:
        return "not worth its kamas"
    return "not shown either way"


def reveal_timing(matches: pd.DataFrame, fighters: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per (ai, token, arm kind): matches where team A's Krosmaster received the token, the share
    revealed [Wilson], the reveal turn's quartiles and the turns it waited on the card."""
    scores = arm_scores(matches)
    arms = scores[scores["kind"].isin(["held", "holder", "buy"])]
    held = _events(fighters, "rewards_held", "rewards_held_turns")
    used = _events(fighters, "rewards_used", "rewards_used_turns")
    got = held.merge(arms[["match_id", "ai", "tier", "kind", "token", "side_a"]], on=["match_id", "token"])
    got = got[got["side"] == got["side_a"]].drop_duplicates(["match_id", "token"])
    if got.empty:
        return pd.DataFrame()
    first_use = used.groupby(["match_id", "side", "token"])["turn"].min().rename("revealed_turn")
    got = got.join(first_use, on=["match_id", "side", "token"])
    rows = []
    for (ai, token, kind), g in got.groupby(["ai", "token", "kind"], sort=True):
        revealed = g["revealed_turn"].notna()
        lo, hi = wilson_interval(int(revealed.sum()), len(g), alpha)
        r = g.loc[revealed, "revealed_turn"]
        wait = r - g.loc[revealed, "turn"]
        rows.append(
            {
                "ai": ai,
                "tier": str(g["tier"].iloc[0]),
                "token": token,
                "arm": {"held": "held (AI's holder)", "holder": "held (each holder)", "buy": "bought"}[kind],
                "received": len(g),
                "revealed": int(revealed.sum()),
                "share": float(revealed.mean()),
                "share_low": float(lo),
                "share_high": float(hi),
                "turn_q1": float(r.quantile(0.25)) if len(r) else float("nan"),
                "turn_median": float(r.median()) if len(r) else float("nan"),
                "turn_q3": float(r.quantile(0.75)) if len(r) else float("nan"),
                "wait_median": float(wait.median()) if len(r) else float("nan"),
            }
        )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------ pictures


def plot_holder_forest(per_holder: pd.DataFrame, ai: str) -> Figure:
    """Δ win rate [95% CI] of each token on each holder (one row per token and holder), for one AI."""
    data = per_holder[(per_holder["ai"] == ai) & (per_holder["holder"] != "(AI's pick)")]
    data = data.sort_values(["token", "delta"])
    fig = Figure(figsize=(7.5, max(2.5, 0.2 * len(data) + 1)))
    ax = fig.subplots()
    y = np.arange(len(data))
    ax.errorbar(
        data["delta"],
        y,
        xerr=[data["delta"] - data["delta_low"], data["delta_high"] - data["delta"]],
        fmt="o",
        ms=3,
        lw=1,
    )
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, [f"{t} @ {h}" for t, h in zip(data["token"], data["holder"], strict=True)], fontsize=6)
    ax.set_xlabel("Δ win rate of team A, paired with the no-token deal [95% CI, deal-clustered]")
    ax.set_title(f"Each token on each holder ({ai})")
    fig.tight_layout()
    return fig


def plot_purchase(purchases: pd.DataFrame, ai: str) -> Figure:
    """Δ win rate of the offer to buy each token (ITT) [95% CI], with its purchase rate, for one AI."""
    data = purchases[purchases["ai"] == ai].sort_values("delta")
    fig = Figure(figsize=(7, max(2.5, 0.35 * len(data) + 1)))
    ax = fig.subplots()
    y = np.arange(len(data))
    ax.errorbar(
        data["delta"],
        y,
        xerr=[data["delta"] - data["delta_low"], data["delta_high"] - data["delta"]],
        fmt="s",
        ms=4,
        lw=1,
    )
    ax.axvline(0, color="grey", lw=0.8)
    labels = [f"{t} (bought {r:.0%})" for t, r in zip(data["token"], data["purchase_rate"], strict=True)]
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xlabel("Δ win rate: token for sale vs the same kamas on GG only [95% CI, deal-clustered]")
    ax.set_title(f"Tokens as purchases ({ai})")
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------------------ the section


def _ci(e: float, lo: float, hi: float, pct: bool = True) -> str:
    if e != e:
        return "n/a"
    if pct:
        return f"{e:+.1%} [{lo:+.1%}, {hi:+.1%}]"
    return f"{e:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _top_bottom(df: pd.DataFrame, key: str, k: int) -> pd.DataFrame:
    parts = []
    for _, g in df.groupby("ai", sort=True):
        g = g.sort_values(key, ascending=False)
        pick = g if len(g) <= 2 * k else pd.concat([g.head(k), g.tail(k)])
        parts.append(pick)
    return pd.concat(parts) if parts else df


def report_section(
    doc: Any, matches: pd.DataFrame, fighters: pd.DataFrame, tables: dict[str, pd.DataFrame]
) -> None:
    """The "Rewards priced as real play" section: per holder, as purchases, reveal timing."""
    summary = holder_summary(matches)
    per = holder_value(matches)
    buys = purchase_value(matches, fighters)
    timing = reveal_timing(matches, fighters)
    doc.p(
        "Every arm of a deal is played on the deal's seed, sides swapped, beside the baseline (no token, no "
        "market: kamas go to GG only). Δ = team A's paired score difference (win 1, draw ½); 95% intervals "
        "are deal-clustered (t over deals for Δ win rate, bootstrap over deals for Δ log-odds). The AI tier "
        "of each row is its ladder tier."
    )
    if not buys.empty:
        tables["reward_purchase"] = buys
        top = _top_bottom(buys, "delta", 3)
        doc.table(
            pd.DataFrame(
                {
                    "AI (tier)": [f"{a} ({t})" for a, t in zip(top["ai"], top["tier"], strict=True)],
                    "token": top["token"],
                    "Δ win rate, offer to buy [95% CI]": [
                        _ci(e, lo, hi)
                        for e, lo, hi in zip(top["delta"], top["delta_low"], top["delta_high"], strict=True)
                    ],
                    "Δ log-odds [95% CI]": [
                        _ci(e, lo, hi, False)
                        for e, lo, hi in zip(
                            top["logodds"], top["logodds_low"], top["logodds_high"], strict=True
                        )
                    ],
                    "bought [95% CI]": [
                        f"{r:.0%} [{lo:.0%}, {hi:.0%}]"
                        for r, lo, hi in zip(
                            top["purchase_rate"], top["rate_low"], top["rate_high"], strict=True
                        )
                    ],
                    "turn bought (median, IQR)": [
                        "—" if m != m else f"{m:.0f} ({a:.0f}–{b:.0f})"
                        for m, a, b in zip(top["turn_median"], top["turn_q1"], top["turn_q3"], strict=True)
                    ],
                    "Δ per purchase [95% CI]": [
                        _ci(e, lo, hi)
                        for e, lo, hi in zip(
                            top["delta_per_purchase"],
                            top["per_purchase_low"],
                            top["per_purchase_high"],
                            strict=True,
                        )
                    ],
                    "verdict": top["verdict"],
                    "n (matches / deals)": [
                        f"{m} / {d}" for m, d in zip(top["n_matches"], top["n_deals"], strict=True)
                    ],
                }
            ),
            "Top and bottom tokens as purchases, per AI (all in tables/reward_purchase.csv): the token for sale "
            "face up on a Demon cell at its price (R-A51, R-A136), the AI deciding whether, when and where, against "
            "the same side spending its kamas on GG only. 'Δ per purchase' = Δ / purchase rate (the effect where "
            "the AI buys; an instrumental-variable reading). The holder of a bought token is the AI's choice.",
        )
        for ai in sorted(set(buys["ai"]))[:3]:
            doc.image(
                f"reward_purchase_{ai}.png".replace(" ", "_"), plot_purchase(buys, ai), f"purchases {ai}"
            )
    if not summary.empty:
        tables["reward_holder_summary"] = summary
        tables["reward_per_holder"] = per
        top = _top_bottom(summary, "mean_delta", 3)
        doc.table(
            pd.DataFrame(
                {
                    "AI (tier)": [f"{a} ({t})" for a, t in zip(top["ai"], top["tier"], strict=True)],
                    "token": top["token"],
                    "mean over holders Δ [95% CI]": [
                        _ci(e, lo, hi)
                        for e, lo, hi in zip(
                            top["mean_delta"], top["mean_low"], top["mean_high"], strict=True
                        )
                    ],
                    "mean Δ log-odds [95% CI]": [
                        _ci(e, lo, hi, False)
                        for e, lo, hi in zip(
                            top["mean_logodds"],
                            top["mean_logodds_low"],
                            top["mean_logodds_high"],
                            strict=True,
                        )
                    ],
                    "best holder": top["best_holder"],
                    "best Δ [95% CI]": [
                        _ci(e, lo, hi)
                        for e, lo, hi in zip(
                            top["best_delta"], top["best_low"], top["best_high"], strict=True
                        )
                    ],
                    "worst holder (Δ)": [
                        f"{h} ({d:+.1%})"
                        for h, d in zip(top["worst_holder"], top["worst_delta"], strict=True)
                    ],
                    "n (matches / deals)": [
                        f"{m} / {d}" for m, d in zip(top["n_matches"], top["n_deals"], strict=True)
                    ],
                }
            ),
            "Top and bottom tokens held from the start, every holder of team A tried in its own paired arm "
            "(tables/reward_holder_summary.csv; each holder in tables/reward_per_holder.csv). The best holder's Δ "
            "is the largest of several estimates, so it is biased upwards; the mean over holders is not.",
        )
        for ai in sorted(set(per["ai"]))[:3]:
            doc.image(
                f"reward_holders_{ai}.png".replace(" ", "_"), plot_holder_forest(per, ai), f"holders {ai}"
            )
    if not timing.empty:
        tables["reward_reveal_timing"] = timing
        doc.table(
            pd.DataFrame(
                {
                    "AI (tier)": [f"{a} ({t})" for a, t in zip(timing["ai"], timing["tier"], strict=True)],
                    "token": timing["token"],
                    "arm": timing["arm"],
                    "revealed [95% CI]": [
                        f"{s:.0%} [{lo:.0%}, {hi:.0%}] of {n}"
                        for s, lo, hi, n in zip(
                            timing["share"],
                            timing["share_low"],
                            timing["share_high"],
                            timing["received"],
                            strict=True,
                        )
                    ],
                    "reveal turn (median, IQR)": [
                        "—" if m != m else f"{m:.0f} ({a:.0f}–{b:.0f})"
                        for m, a, b in zip(
                            timing["turn_median"], timing["turn_q1"], timing["turn_q3"], strict=True
                        )
                    ],
                    "turns on the card before (median)": [
                        "—" if w != w else f"{w:.0f}" for w in timing["wait_median"]
                    ],
                }
            ),
            "Reveal timing: of the matches where team A's Krosmaster received the token, the share in which it "
            "was turned face up (Wilson interval, matches as units) and the game turn of the reveal "
            "(tables/reward_reveal_timing.csv). Held tokens arrive after deployment (turn 0).",
        )


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The report's hook (a mode section): only for a run its record says has per-holder or purchase arms."""
    matches, arms = rs.matches, recorded_arms(rs)
    if not (is_priced_experiment(matches) if arms is None else arms.priced):
        return
    section(doc, "Rewards priced as real play", lambda: report_section(doc, matches, rs.fighters, tables))
