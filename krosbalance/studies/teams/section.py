"""The report's Teams section (:func:`add_report_section`, a mode section): a team study's legal
teams, design (matches used against a full round robin, the synthetic-field check), ladder per AI
tier, meta-game (win-rate matrix, counters, Nash support, alpha-Rank, diversity), the user's
collection (best teams, what to buy next) and the what-if swaps; each figure with n, a 95%
interval and the AI tier. :func:`team_study` computes the tables (the notebook uses it too).
"""

from __future__ import annotations

import copy
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from krosbalance.analysis.narrative import fmt, pct, with_ci
from krosbalance.analysis.sections import folder_is
from krosbalance.analysis.shared_attrs import SharedFrames
from krosbalance.sim.topk import race_step
from krosbalance.studies.teams import meta as meta_mod
from krosbalance.studies.teams.collection import buy_next, collection_best, swap_effects
from krosbalance.studies.teams.design_check import lucb_check, matches_saved, synthetic_halving
from krosbalance.studies.teams.ladder import (
    field_win_rates,
    group_title,
    pairing_samples_of,
    team_key,
    team_label,
    team_ratings,
    tiers_of,
)
from krosbalance.studies.teams.planner import max_race_stages
from krosbalance.studies.teams.plots import plot_meta_weights, plot_team_ladder, plot_win_matrix

STUDY = "teams"
"""The team study's name (:class:`krosbalance.studies.teams.TeamsStudy`), as its manifest records it."""

HEURISTIC = "heuristic"
TOP_SHOWN = 10
MATRIX_MAX = 30
SYNTHETIC_REPLICATES = 20


@dataclass
class TeamStudy:
    """Every table of a team study (see :func:`team_study`)."""

    settings: dict[str, Any]
    stages: list[dict[str, Any]]
    ratings: pd.DataFrame
    field_rates: pd.DataFrame
    design: dict[str, Any] = field(default_factory=dict)
    synthetic: dict[str, Any] = field(default_factory=dict)
    matrices: dict[str, pd.DataFrame] = field(default_factory=dict)  # tier -> long win matrix
    top: dict[str, list[str]] = field(default_factory=dict)  # tier -> the matrix's teams
    metas: dict[str, pd.DataFrame] = field(default_factory=dict)
    counters: dict[str, pd.DataFrame] = field(default_factory=dict)
    collection: dict[str, pd.DataFrame] = field(default_factory=dict)
    buy: dict[str, pd.DataFrame] = field(default_factory=dict)
    swaps: pd.DataFrame = field(default_factory=pd.DataFrame)

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {
            "team_ladder": self.ratings,
            "team_field_win_rates": self.field_rates,
            "team_swaps": self.swaps,
        }
        for tier in self.matrices:
            out[f"team_matrix_{tier}"] = self.matrices[tier]
        for tier in self.metas:
            out[f"team_meta_{tier}"] = self.metas[tier]
        for tier in self.counters:
            out[f"team_counters_{tier}"] = self.counters[tier]
        for tier in self.buy:
            out[f"team_buy_next_{tier}"] = self.buy[tier]
        return out


def _per_pair(matches: pd.DataFrame, stage: str) -> int:
    """Matches a pairing of a stage plays (AI matchups x deals x seatings)."""
    m = matches[matches["stage"] == stage]
    return int(m.groupby("pairing").size().max()) if len(m) else 0


#: each result set's team study, computed once: a report asks for it three times (its section, its
#: answer, its verdict), and the Bradley-Terry fits behind it take seconds on a real ladder
_STUDIES: weakref.WeakKeyDictionary[Any, TeamStudy] = weakref.WeakKeyDictionary()


def team_study(rs: Any) -> TeamStudy:
    """The team study's tables from a staged result set (:func:`krosbalance.analysis.staged.load_staged`).

    Computed once per result set object; each call returns its own copy, so a caller that changes
    a table changes no other caller's."""
    try:
        known = _STUDIES.get(rs)
    except TypeError:  # a result set that cannot be weakly referenced: computed every time
        return _team_study(rs)
    if known is None:
        known = _STUDIES[rs] = _team_study(rs)
    return copy.deepcopy(known)


def _team_study(rs: Any) -> TeamStudy:
    settings = dict(rs.manifest["meta"]["settings"])
    stages = list(rs.manifest.get("stages", []))
    m = rs.matches
    heuristic = m[m["stage"] != "search"] if "stage" in m.columns else m
    ratings = team_ratings(m[~m["stage"].str.startswith("swap-")])
    # the ladder ranks the rated teams; teams met only as field opponents are fitted, not ranked
    rated_keys = {team_key(t) for t in settings["teams"]}
    covs = ratings.attrs.get("cov", {})
    ratings = ratings[ratings["team"].isin(rated_keys)].reset_index(drop=True)
    ratings["rank"] = ratings.groupby("tier").cumcount() + 1
    ratings.attrs["cov"] = SharedFrames(covs)
    study = TeamStudy(settings, stages, ratings, field_win_rates(heuristic))
    n_teams = len(settings["teams"])
    halving = [s for s in stages if s["stage"].startswith("halving-")]
    if settings["design"] == "lucb":
        study.design, study.synthetic = _lucb_design(m, settings, stages, ratings)
    elif halving or any(s["stage"] == "round-robin" for s in stages):
        first = halving[0]["stage"] if halving else "round-robin"
        per_pair = _per_pair(m, first)
        survivors = settings["opponents"] * (2 ** len(halving) - 1) if halving else n_teams - 1
        used = sum(
            s["n_matches"] for s in stages if s["stage"] != "search" and not s["stage"].startswith("swap-")
        )
        study.design = matches_saved(n_teams, per_pair, survivors, used) | {
            "per_pair": per_pair,
            "survivor_opponents": survivors,
            "stages": len(halving),
        }
        if halving:
            study.synthetic = _synthetic(ratings, settings, n_teams)
    for tier in sorted(set(ratings["tier"])):
        rated = ratings[(ratings["tier"] == tier) & ratings["rating"].notna()]
        robin = m[
            m["stage"].isin(["top-round-robin", "round-robin", "search"]).to_numpy()
            & (tiers_of(m["ai0"]) == tier)
        ]
        met = set(robin["team_a"]) | set(robin["team_b"])  # the teams of this tier's round robins
        top = [t for t in rated["team"] if t in met][:MATRIX_MAX]
        if len(top) >= 2:
            long = meta_mod.win_matrix(m, top, tier)
            study.matrices[tier], study.top[tier] = long, top
            study.metas[tier] = meta_mod.meta_game(long, top)
        if len(rated):
            study.counters[tier] = meta_mod.counters(m, str(rated["team"].iloc[0]), tier)
        if settings.get("mine"):
            study.collection[tier] = collection_best(ratings, settings["mine"], tier)
            copies = {c: max(Counter(t)[c] for t in settings["field"]) for c in settings["roster"]}
            study.buy[tier] = buy_next(ratings, settings["owned"], settings["roster"], tier, copies)
    if settings.get("swaps"):
        study.swaps = swap_effects(m, settings["swaps"])
    return study


def _heuristic_strengths(ratings: pd.DataFrame, n_teams: int) -> np.ndarray:
    r = ratings[(ratings["tier"] == HEURISTIC) & ratings["rating"].notna()]["rating"].to_numpy(float)
    if len(r) < n_teams:
        r = np.concatenate([r, np.full(n_teams - len(r), np.nanmin(r) if len(r) else 0.0)])
    return r


def _lucb_design(
    m: pd.DataFrame, settings: dict[str, Any], stages: list[dict[str, Any]], ratings: pd.DataFrame
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The race as it ran (the planner's own decision after its last stage: certified or not, the
    epsilon reached, where the samples went) and its synthetic-field check."""
    teams = [tuple(t) for t in settings["teams"]]
    race = [s for s in stages if s["stage"].startswith("lucb-")]
    lucb = m[m["stage"].str.startswith("lucb-")]
    sums, counts = pairing_samples_of(lucb, teams)
    step = race_step(
        sums,
        counts,
        k=settings["top_k"],
        epsilon=settings["epsilon"],
        delta=settings["delta"],
        batch=settings["batch"],
    )
    per_pair = _per_pair(m, race[0]["stage"]) if race else 0
    n = len(teams)
    order = np.argsort(-counts, kind="stable")
    near = min(3 * settings["top_k"], n)
    boundary = np.argsort(-(sums / np.maximum(counts, 1)), kind="stable")[:near]
    used = sum(
        s["n_matches"] for s in stages if s["stage"] != "search" and not s["stage"].startswith("swap-")
    )
    design = {
        "design": "lucb",
        "stages": len(race),
        "race_matches": sum(s["n_matches"] for s in race),
        "used": used,
        "per_pair": per_pair,
        "full_round_robin": n * (n - 1) // 2 * per_pair,
        "certified": bool(step.stop),
        "stage_cap": not step.stop and len(race) >= max_race_stages(),
        "reached_epsilon": float(step.reached_epsilon),
        "top": [team_key(teams[i]) for i in step.top],
        "pairings": int(counts.sum()),
        "most_sampled": int(counts[order[0]]),
        "median_sampled": float(np.median(counts)),
        "near": near,
        "near_share": float(counts[boundary].sum() / max(counts.sum(), 1.0)),
    }
    synthetic = lucb_check(_heuristic_strengths(ratings, n), settings, per_pair) if per_pair else {}
    return design, synthetic


def _synthetic(ratings: pd.DataFrame, settings: dict[str, Any], n_teams: int) -> dict[str, Any]:
    """The adaptive design replayed on synthetic fields whose known strengths are the heuristic
    tier's fitted ratings (so the gaps are the study's own): how often it recovers the top k."""
    r = _heuristic_strengths(ratings, n_teams)
    k = settings["top_k"]
    runs = [
        synthetic_halving(
            r,
            top_k=k,
            opponents=settings["opponents"] * 3,
            keep=settings["keep"],
            min_teams=settings["min_teams"],
            seed=s,
        )
        for s in range(SYNTHETIC_REPLICATES)
    ]
    return {
        "replicates": len(runs),
        "top_k": k,
        "mean_recovered": float(np.mean([x["recovered"] for x in runs])),
        "all_recovered": sum(x["recovered"] == k for x in runs),
        "deals": runs[0]["deals"],
        "round_robin_deals": runs[0]["round_robin_deals"],
    }


# ------------------------------------------------------------------------------------------ section


def _stage_rows(stages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per stage; a race's later stages (``lucb-02`` ...) in one row: there may be a hundred."""
    rows: list[dict[str, Any]] = []
    later = [x for x in stages[1:] if x["stage"].startswith("lucb-")]
    for x in stages:
        if x in later:
            if x is later[0]:
                rows.append(
                    {
                        "stage": f"{later[0]['stage']} ... {later[-1]['stage']} ({len(later)} race stages)",
                        "matches": sum(y["n_matches"] for y in later),
                    }
                )
            continue
        rows.append({"stage": x["stage"], "matches": x["n_matches"]})
    return rows


def _n(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}"


def _lucb_text(doc: Any, study: TeamStudy) -> None:
    """The lucb design: what it guarantees, what it reached, what it saved (synthetic fields)."""
    s, d, syn = study.settings, study.design, study.synthetic
    k, eps, delta = s["top_k"], s["epsilon"], s["delta"]
    outcome = (
        f"the top {k} was certified: separated up to epsilon = {fmt(eps, 2)}"
        if d["certified"]
        else (f"the staged runner's cap of {d['stages']} race stages" if d.get("stage_cap") else "the budget")
        + f" ended the race before the stopping rule: the top {k} is certified only up to "
        f"epsilon = {fmt(d['reached_epsilon'], 2)} (U_l - L_h), not the {fmt(eps, 2)} asked"
    )
    doc.p(
        f"Adaptive design: (epsilon, delta)-PAC top-{k} racing against the field (LUCB, Kalyanakrishnan et al. "
        f"2012), {d['stages']} stages, {d['race_matches']:,} race matches of a budget of {s['budget']:,} "
        f"({d['pairings']:,} field pairings of {d['per_pair']} matches; the most sampled team {d['most_sampled']}, "
        f"the median {fmt(d['median_sampled'], 0)}; the {d['near']} teams of highest score got "
        f"{pct(d['near_share'])} of the pairings); {outcome}. With the round robin of the top teams the "
        f"heuristic tier used {d['used']:,} matches; the full round robin of the {len(s['teams'])} teams is "
        f"{d['full_round_robin']:,} ({d['per_pair']} a pairing)."
    )
    doc.p(
        f"Guarantee: a team's score against the field is its expected share of wins against an opponent drawn "
        f"uniformly from every legal team. Each team's interval is a KL (Chernoff) bound with a union over the "
        f"teams and every sample count, so with probability at least 1 - delta = {pct(1 - delta)} all intervals hold "
        f"at all times, whichever teams the race sampled. It stops when the lowest lower bound of its top {k} "
        f"exceeds the highest upper bound of the rest minus epsilon: then, with that probability, the top {k} is "
        f"epsilon-correct, every team in it within epsilon = {fmt(eps, 2)} of the true {k}th-best score (the exact top "
        f"{k} when the true {k}th and {k + 1}th are more than epsilon apart).",
        note=True,
    )
    if not syn:
        return
    st, sep, rr = syn["study"], syn["separated"], syn["round_robin"]
    rows = [
        {
            "field": "this study's strengths",
            "criterion": f"epsilon-correct top {k}",
            "race matches": _n(st["matches"]),
            "race rate": f"{pct(st['eps_rate'])} (exact {pct(st['exact_rate'])})",
            "uniform design at that rate": _n(st["uniform"]["matches"]),
            "saved": _n(st["saved"]),
        },
        {
            "field": f"separated (top {k} +{fmt(1.0, 1)} log-odds; gap {fmt(sep['gap'], 3)} > epsilon)",
            "criterion": f"exact top {k}",
            "race matches": _n(sep["matches"]),
            "race rate": f"{pct(sep['exact_rate'])}",
            "uniform design at that rate": _n(sep["uniform"]["matches"]),
            "saved": _n(sep["saved"]),
        },
    ]
    doc.table(
        pd.DataFrame(rows),
        f"Synthetic-field check at the study's budget ({syn['budget']:,} race matches, at most "
        f"{max_race_stages()} race stages; {st['replicates']} seeded "
        f"Bradley-Terry fields of {syn['n_teams']} teams each, the study's heuristic ratings as the known strengths, "
        f"the race's own rules; the uniform design: every team the same number of field opponents, the smallest "
        f"reaching the race's rate over {2 * st['replicates']} fields).",
    )
    sc, pc, uc = st["certified"], sep["certified"], sep["uniform_certified"]
    doc.p(
        f"Run to its stopping rule (epsilon = {fmt(eps, 2)}, delta = {fmt(delta, 2)}; {sc['replicates']} fields each): on "
        f"the study's field the race certifies after {_n(sc['matches'])} matches (epsilon-correct in "
        f"{pct(sc['eps_rate'])}, exact {pct(sc['exact_rate'])}); on the separated field after {_n(pc['matches'])} "
        f"(exact in {pct(pc['exact_rate'])}), where the uniform design needs {_n(uc['matches'])} matches for the same "
        f"bounds to certify it ({_n(None if uc['matches'] is None else uc['matches'] - pc['matches'])} saved). "
        f"Against the full round robin at the same confidence: the round robin's {rr['matches']:,} matches certify "
        f"its top {k} up to epsilon = {fmt(rr['certified_epsilon'], 3)} (1 - delta, a union over teams only); the race "
        f"needs {_n(rr['race_matches'])} matches to certify that epsilon"
        + (
            f", {_n(rr['matches'] - rr['race_matches'])} fewer."
            if rr["race_matches"] < rr["matches"]
            else ": it saves nothing there (every round-robin match informs both teams, has no opponent-draw "
            "variance, and its fixed design needs no union over sample counts); the race's saving is against "
            "the uniform field design, at a budget."
        )
    )


def _ci(df: pd.DataFrame, est: str, lo: str, hi: str, as_pct: bool = False) -> list[str]:
    return [with_ci(e, a, b, as_pct=as_pct) for e, a, b in zip(df[est], df[lo], df[hi], strict=True)]


def _ladder_table(study: TeamStudy, tier: str, top: int = TOP_SHOWN) -> pd.DataFrame:
    r = study.ratings[(study.ratings["tier"] == tier) & study.ratings["rating"].notna()].head(top)
    f = study.field_rates[study.field_rates["tier"] == tier].set_index("team")
    t = pd.DataFrame({"rank": r["rank"].to_numpy(), "team": [team_label(x) for x in r["team"]]})
    t["rating [95% CI]"] = _ci(r, "rating", "ci_low", "ci_high")
    t["n matches"] = r["n"].astype("int64").to_numpy()
    t["field win rate [95% CI]"] = [
        with_ci(f.loc[x, "field_win_rate"], f.loc[x, "ci_low"], f.loc[x, "ci_high"], as_pct=True)
        if x in f.index
        else ""
        for x in r["team"]
    ]
    t["field deals"] = [int(f.loc[x, "n_deals"]) if x in f.index else 0 for x in r["team"]]
    return t


def _meta_game(doc: Any, study: TeamStudy, tier: str) -> None:
    """The meta-game among a tier's top teams: the win-rate matrix, the Nash equilibrium and alpha-Rank."""
    top = study.top[tier]
    doc.p(f"**Meta-game among the top {len(top)} teams, {group_title(tier)}**")
    doc.image(
        f"team_matrix_{tier}.png",
        plot_win_matrix(meta_mod.square(study.matrices[tier], top), tier),
        f"win-rate matrix of the top teams, {group_title(tier)}",
    )
    meta = study.metas[tier]
    support = meta[meta["in_support"]]
    doc.p(
        f"Nash equilibrium of the symmetric team-versus-team game (payoff: win rate minus 1/2; scipy linprog, "
        f"HiGHS): support of {len(support)} teams — "
        + "; ".join(
            f"{team_label(t)} {pct(w)}" for t, w in zip(support["team"], support["nash_weight"], strict=True)
        )
        + f". Effective number of viable teams (exp of the entropy): {fmt(meta.attrs['effective_teams_nash'], 2)} "
        f"at the point estimate, {fmt(meta.attrs['effective_teams_bootstrap'], 2)} for the mean mixture of "
        f"{meta.attrs['bootstrap']} bootstrap replicates (alpha-Rank: {fmt(meta.attrs['effective_teams_alpha_rank'], 2)})."
    )
    t = pd.DataFrame({"team": [team_label(x) for x in meta["team"]]})
    t["Nash weight"] = [pct(x) for x in meta["nash_weight"]]
    t[f"in support (of {meta.attrs['bootstrap']} bootstraps)"] = [pct(x) for x in meta["support_share"]]
    t["alpha-Rank"] = meta["alpha_rank"].to_numpy()
    t["alpha-Rank mass"] = [pct(x) for x in meta["alpha_rank_mass"]]
    t["mean win rate vs top"] = [pct(x) for x in meta["mean_vs_top"]]
    doc.table(
        t,
        f"alpha-Rank: single population, alpha = {meta_mod.ALPHA_RANK_ALPHA:g}, m = "
        f"{meta_mod.ALPHA_RANK_POPULATION} (OpenSpiel's model); bootstrap: each cell redrawn from its deals.",
    )
    doc.image(
        f"team_meta_{tier}.png", plot_meta_weights(meta), f"Nash and alpha-Rank weights, {group_title(tier)}"
    )


def report_section(doc: Any, study: TeamStudy, tables: dict[str, pd.DataFrame]) -> None:
    s = study.settings
    tables.update(study.tables())
    doc.p(
        f"**Teams.** {len(s['field'])} legal teams can be drawn from the roster ({len(s['roster'])} figures: "
        f"{', '.join(s['roster'])}; {s['rule']}; each figure as many copies as the rule allows, both players "
        f"owning their own figures, mirror and overlapping teams allowed). {len(s['teams'])} of them are rated."
    )
    doc.p("**Design**")
    rows = _stage_rows(study.stages)
    doc.table(pd.DataFrame(rows), "Stages of the study, in order (each an ordinary results folder).")
    d = study.design
    if d.get("design") == "lucb":
        _lucb_text(doc, study)
    elif d and d.get("stages") == 1:
        doc.p(
            f"One stage against the field (no halving): every rated team against {d['survivor_opponents']} opponents "
            f"drawn from the field, {d['used']:,} matches; the full round robin of the {len(s['teams'])} rated teams "
            f"would be {d['full_round_robin']:,} ({d['per_pair']} a pairing)."
        )
    elif d and d.get("stages"):
        doc.p(
            f"Adaptive design: successive halving against the field, {d['stages']} stages, then a round robin of the "
            f"top teams. It used {d['used']:,} heuristic-tier matches; the full round robin of the {len(s['teams'])} "
            f"teams is {d['full_round_robin']:,} matches ({d['per_pair']} a pairing), and a one-stage design giving every "
            f"team the {d['survivor_opponents']} field opponents the survivors got is {d['same_precision_field']:,}: "
            f"{d['saved_vs_round_robin']:,} and {d['saved_vs_field']:,} matches saved."
        )
        doc.p(
            "Guarantee (Karnin, Koren & Somekh 2013, Theorem 4.1): with a budget of T deals successive halving misses "
            "the best team with probability at most 3 log2(n) exp(-T / (8 H2 log2 n)), H2 = max_i i/gap_i^2; stopping "
            f"at {s['min_teams']} teams for a top {s['top_k']} keeps a true top-{s['top_k']} team unless more than "
            f"{s['min_teams'] - s['top_k']} teams outscored it at some stage.",
            note=True,
        )
    elif d:
        doc.p(f"Full round robin: {d['used']:,} matches, every pair of rated teams.")
    syn = study.synthetic
    if syn and d.get("design") != "lucb":
        doc.p(
            f"Synthetic-field check: the same design on {syn['replicates']} synthetic fields of {len(s['teams'])} "
            f"teams whose known strengths are this study's heuristic ratings recovered on average "
            f"{fmt(syn['mean_recovered'], 1)} of the true top {syn['top_k']} (all of them in {syn['all_recovered']} "
            f"of {syn['replicates']}), with {syn['deals']:,} deals against {syn['round_robin_deals']:,} for a round robin."
        )
    for tier in sorted(set(study.ratings["tier"])):
        doc.p(f"**Team ladder, {group_title(tier)}**")
        doc.p(
            "Bradley-Terry ratings (log-odds of beating the average rated team; every match of the tier, deal-clustered "
            "95% intervals, draws left out) and the win rate against the field (deals against opponents drawn "
            "uniformly from every legal team; a deal is a seed played with sides swapped, draws half).",
            note=True,
        )
        doc.table(_ladder_table(study, tier), f"Top {TOP_SHOWN} teams, {group_title(tier)}.")
        if d.get("design") == "lucb":
            if tier == HEURISTIC:
                doc.p(
                    f"Design of this tier: the race above (top {s['top_k']}, epsilon = {fmt(s['epsilon'], 2)}, "
                    f"delta = {fmt(s['delta'], 2)}), its synthetic-field check above, then the round robin of the "
                    "top teams.",
                    note=True,
                )
            else:
                doc.p(
                    f"Design of this group: a round robin of the heuristic tier's top teams ({group_title(tier)}, "
                    "every pair, both seats); no race, so no top-k guarantee: the intervals are the ratings'.",
                    note=True,
                )
        doc.image(
            f"team_ladder_{tier}.png",
            plot_team_ladder(study.ratings, tier),
            f"team ladder, {group_title(tier)}",
        )
        if tier in study.matrices:
            _meta_game(doc, study, tier)
        c = study.counters.get(tier)
        if c is not None and len(c):
            best = study.ratings[(study.ratings["tier"] == tier) & study.ratings["rating"].notna()][
                "team"
            ].iloc[0]
            t = pd.DataFrame({"counter": [team_label(x) for x in c["opponent"]]})
            t["its win rate [95% CI]"] = _ci(c, "win_rate", "ci_low", "ci_high", as_pct=True)
            t["deals"] = c["n_deals"].to_numpy()
            doc.table(
                t.head(TOP_SHOWN),
                f"The teams that beat the top team ({team_label(best)}) most, {group_title(tier)}.",
            )
        if tier in study.collection:
            col = study.collection[tier]
            doc.p(
                f"**Your collection, {group_title(tier)}** ({len(s['owned'])} figures: {', '.join(s['owned'])})"
            )
            t = pd.DataFrame(
                {"team": [team_label(x) for x in col["team"]], "ladder rank": col["rank"].to_numpy()}
            )
            t["rating [95% CI]"] = _ci(col, "rating", "ci_low", "ci_high")
            t["n"] = col["n"].to_numpy()
            doc.table(t.head(TOP_SHOWN), "Your best teams.")
            b = study.buy.get(tier)
            if b is not None and len(b):
                t = pd.DataFrame(
                    {"buy": [f"{x} (copy {n})" for x, n in zip(b["figure"], b["copy"], strict=True)]}
                )
                t["best team then"] = [team_label(x) for x in b["best_team"]]
                t["rating gain [95% CI]"] = _ci(b, "gain", "gain_ci_low", "gain_ci_high")
                t["new teams"] = b["new_teams"].to_numpy()
                doc.table(
                    t,
                    "What to buy next: the rise of the best reachable team's rating if that figure is added.",
                )
    if len(study.swaps):
        doc.p("**What-if swaps**")
        w = study.swaps
        t = pd.DataFrame(
            {
                "tier": w["tier"],
                "team": [team_label(x) for x in w["team"]],
                "swap": w["out"] + " -> " + w["in"],
            }
        )
        t["win rate"] = [pct(x) for x in w["win_rate"]]
        t["swapped"] = [pct(x) for x in w["swapped_win_rate"]]
        t["delta [95% CI]"] = _ci(w, "delta", "ci_low", "ci_high", as_pct=True)
        t["paired deals"] = w["n_deals"].to_numpy()
        doc.table(
            t, "Against the field: the same opponents and seeds for the team and the swapped team (paired)."
        )


def add_report_section(doc: Any, rs: Any, tables: dict[str, pd.DataFrame], section: Any) -> None:
    """The hook (a mode section): a "Teams" section for the team study's results (the folder's
    recorded study), else nothing."""
    if folder_is(rs, STUDY):
        section(doc, "Teams", lambda: report_section(doc, team_study(rs), tables))


__all__ = ["TeamStudy", "team_study", "add_report_section", "team_key"]
