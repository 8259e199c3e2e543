"""The strength study's report sections: the common part of every report (the AIs, the data, raw win
rates, teammate-adjusted strength and how much it depends on the AI and the board, the AI ladder,
balance, first player, matchups, damage and knock-outs, match length, the board, errors).

:func:`report_body` gives the report shell (:mod:`krosbalance.analysis.report`) what it draws before
the sections (the Findings, the AIs, the character-strength picture's matches and lines) and these
sections, written between the leading sections and the others. A section that reads seat 0 against
seat 1 (:data:`~krosbalance.studies.strength.tables.TWO_PLAYER_ONLY`) is one sentence for tables of
more than two players, pointing to the Seats section.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pandas as pd

from krosbalance.analysis import balance as balance_mod
from krosbalance.analysis import dependence, ladder, narrative, plots
from krosbalance.analysis.design import weights
from krosbalance.analysis.document import Doc, ReportBody
from krosbalance.analysis.names import (
    board_is_assumed,
    board_title,
    confidence_text,
    names_column,
    team_label,
)
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.resultset import ResultSet
from krosbalance.studies.strength.common import Common, answer_lines, common_tables, findings
from krosbalance.studies.strength.tables import (
    CELLS_SHOWN,
    board_figures,
    cells_table,
    ci_col,
    headline_table,
    named,
    two_player_only,
)


def _ais(doc: Doc, c: Common) -> None:
    ais, ladder_problem = c.ais, c.ladder_problem
    if ladder_problem:
        doc.p(ladder_problem, note=True)
    if ais.empty:
        doc.p("No AI column in the results.")
        return
    t = ais[["ai", "tier"]].copy()
    t["ladder rating [95% CI]"] = [
        "not on the ladder" if pd.isna(r) else with_ci(r, lo, hi)
        for r, lo, hi in zip(ais["rating"], ais["ci_low"], ais["ci_high"], strict=True)
    ]
    t["ladder n"] = ais["ladder_n"]
    t["validated"] = ["yes" if v else "no" for v in ais["validated"]]
    t["matches here"] = ais["matches"]
    doc.p(
        "Tier from the AI registry; rating, n and validation from the AI ladder's standing file "
        "(krosbalance/ai/data/ladder.toml, written by `krosbalance report RESULTS --write-ladder` on an "
        "AI-ladder experiment). An AI is validated when the ladder shows the tiers in order "
        "(baseline < heuristic < search) for it.",
        note=True,
    )
    doc.table(t)


def _data(doc: Doc, c: Common) -> None:
    m = c.m
    ok = c.ok
    summary = c.summary
    tables = c.tables
    enough = c.enough
    seat = c.seat
    n_total = c.n_total
    reasons = ok.assign(_k=weights(ok)).groupby(ok["end_reason"].astype(str))["_k"].sum() if enough else {}
    n_err = summary.n_errors
    doc.p(
        f"{n_total} matches, {n_total - n_err} error-free, {n_err} with errors. "
        f"End reasons: {', '.join(f'{k} {int(v)}' for k, v in sorted(dict(reasons).items())) or 'none'}."
    )
    if seat is not None:
        tables["cells"] = seat.cells
        doc.table(
            seat.cells,
            f"n per arm, board and AIs of the table ({seat.n_seats} players; tables = deals, each played in "
            "every rotation of its teams round the table).",
        )
        return
    cells = cells_table(m) if len(m) else pd.DataFrame()
    tables["cells"] = cells
    if cells.empty:
        doc.p("Not enough data: no match.")
    elif len(cells) > CELLS_SHOWN:
        n = cells["n"]
        doc.p(
            f"{len(cells)} cells (a pairing of teams A and B on one board with one AI matchup); n per cell: "
            f"min {int(n.min())}, median {int(n.median())}, max {int(n.max())}. "
            "Every cell is in tables/cells.csv."
        )
    else:
        shown = cells.copy()
        for col in ("team_a", "team_b"):
            if col in shown.columns:
                shown[col] = [team_label(t) for t in shown[col]]
        doc.table(shown, "n per cell (a pairing of teams A and B on one board with one AI matchup).")


def _win_rates(doc: Doc, c: Common) -> None:
    win_rates = c.win_rates
    if win_rates.empty:
        doc.p("Not enough data: no error-free match.")
        return
    t = named(win_rates[["character", "n", "wins", "draws", "losses"]], "character")
    t["win rate [95% CI]"] = ci_col(win_rates, "win_rate", "ci_low", "ci_high", as_pct=True)
    doc.p(
        "Raw win rate of the teams that fielded each character. Confounded by teammates: see the adjusted strength below.",
        note=True,
    )
    doc.table(t)
    doc.image("win_rates.png", plots.plot_win_rates(win_rates), "raw win rates")


def _strength(doc: Doc, c: Common) -> None:
    strength = c.strength
    chars = strength[strength["kind"] == "character"] if not strength.empty else strength
    if chars.empty or chars["coef"].notna().sum() < 2:
        doc.p("Not enough data: fewer than two characters can be estimated from decided matches.")
        if not strength.empty:
            doc.table(named(strength[["term", "kind", "n", "note"]], "term"))
        return
    t = named(strength[["term", "kind", "n"]], "term")
    t["coef [95% CI]"] = ci_col(strength, "coef", "ci_low", "ci_high")
    t["p"] = [fmt(p, 3) for p in strength["p_value"]]
    t["method"] = strength["method"] + ", " + strength["interval"].astype(str)
    t["card values of low confidence"] = [
        confidence_text(term) if kind == "character" else ""
        for term, kind in zip(strength["term"], strength["kind"], strict=True)
    ]
    t["note"] = strength["note"]
    doc.p(
        "Logistic model of P(side 0 wins) over decided matches: one log-odds effect per character "
        "(copies on side 0 minus side 1), effects summing to zero (0 = average character), an intercept "
        "for side 0, and terms for playing first and for team size when they vary. Pooled over every AI "
        "and board; see the next section for each. Card values of low confidence are those whose source, "
        "in the character's content file, is marked low, medium or assumed without an outside source "
        "agreeing.",
        note=True,
    )
    doc.table(t)
    doc.image("strength_forest.png", plots.plot_strength_forest(strength), "adjusted strength forest plot")


def _dependence(doc: Doc, c: Common) -> None:
    m = c.m
    tables = c.tables
    verdicts = c.verdicts
    by_ai = c.by_ai
    by_board = c.by_board
    tau_ai = c.tau_ai
    tau_board = c.tau_board
    if not verdicts.empty:
        v = named(verdicts[["character", "verdict", "dissent"]], "character")
        for tier in [col for col in verdicts.columns if f"{col}_ci_low" in verdicts.columns]:
            v[f"{tier} [95% CI]"] = ci_col(verdicts, tier, f"{tier}_ci_low", f"{tier}_ci_high")
        v["card values of low confidence"] = [confidence_text(ch) for ch in verdicts["character"]]
        doc.p(
            "Verdicts: over- or under-powered only when the strength's 95% interval lies on the same side of "
            "zero in every AI tier played (the validated AIs of each tier pooled; random play only when nothing "
            "stronger was played) and every one of those AIs' own estimate points the same way; otherwise "
            f"'depends on AI' ('dissent' names the AIs that point the other way). Basis: "
            f"{verdicts['basis'].iloc[0]}.",
            note=True,
        )
        doc.table(v)
    else:
        doc.p("No verdict: no matchup in which both teams had the same AI.")
    for label, long, tau, by in (
        ("AI", by_ai, tau_ai, "ai_matchup"),
        ("board", by_board, tau_board, "board"),
    ):
        if long is None:
            continue
        head = dependence.headline_by(m, by, long)
        tables[f"headline_by_{label.lower()}"] = head
        doc.p(f"**Headline numbers per {label}** (strengths from same-AI matchups only):")
        shown = headline_table(head, "AI matchup" if by == "ai_matchup" else "board")
        if by == "board":
            shown["board"] = [g if g == "pooled" else board_title(g) for g in shown["board"]]
        doc.table(shown)
        wide = dependence.strength_pivot(long)
        if not wide.empty:
            counts = long.drop_duplicates("group").set_index("group")["n_matches"]
            shown_name = board_title if by == "board" else str
            wide = wide.rename(
                columns={
                    g: f"{g if g == 'pooled' else shown_name(g)} (n={int(counts[g])})" for g in wide.columns
                }
            )
            wide.insert(0, "character", names_column(wide.index))
            doc.table(wide.reset_index(drop=True), f"Teammate-adjusted strength per {label} [95% CI].")
            doc.image(
                f"strength_by_{label.lower()}.png",
                plots.plot_strength_by_group(long, title=f"Teammate-adjusted strength per {label} (95% CI)"),
                f"strength per {label}",
            )
        if not tau.empty:
            t = tau.copy()
            if by == "board":
                t["group_a"], t["group_b"] = t["group_a"].map(board_title), t["group_b"].map(board_title)
            t["tau"] = [fmt(x, 2) for x in t["tau"]]
            t["p_value"] = [fmt(x, 3) for x in t["p_value"]]
            doc.p(narrative.stability_line(tau, f"{label}s"))
            doc.table(t, f"Kendall's tau between the character rankings of two {label}s.")
    if by_ai is None and by_board is None:
        doc.p(
            "One AI matchup on one board: nothing to compare. The verdicts above rest on that AI alone; an "
            "experiment with several AIs (or boards) shows how far they agree.",
            note=True,
        )


def _ladder(doc: Doc, c: Common) -> None:
    m = c.m
    tables = c.tables
    ratings = c.ratings
    gate = c.gate
    matrix = ladder.win_matrix(m)
    tables.update(ladder_ratings=ratings, ladder_win_matrix=matrix, ladder_gate=gate)
    t = ratings[["ai", "tier", "n"]].copy()
    t["rating [95% CI]"] = ci_col(ratings, "rating", "ci_low", "ci_high")
    t["method"] = ratings["method"] + ", " + ratings["interval"].astype(str)
    validated = ladder.validated_ais(ratings, gate)
    t["validated"] = ["yes" if validated.get(a) else "no" for a in ratings["ai"]]
    doc.p(
        "Bradley-Terry ratings from the matches between different AIs (log-odds against the field's average "
        "AI; side, first player and team composition held fixed), with deal-clustered intervals.",
        note=True,
    )
    doc.table(t)
    doc.image("ladder.png", plots.plot_ladder(ratings), "AI ladder ratings")
    if not matrix.empty:
        wide = matrix.assign(
            cell=[
                f"{with_ci(r, lo, hi, as_pct=True)} n={int(n)}"
                for r, lo, hi, n in zip(
                    matrix["win_rate"], matrix["ci_low"], matrix["ci_high"], matrix["n"], strict=True
                )
            ]
        ).pivot(index="ai", columns="opponent", values="cell")
        doc.table(wide.fillna("").reset_index(), "Win rate of the row AI against the column AI [95% CI].")
        doc.image("ladder_matrix.png", plots.plot_win_matrix(matrix), "AI win-rate matrix")
    if gate.empty:
        doc.p("Validity gate: no two tiers met, so the tier order cannot be judged.")
        return
    g = gate[["lower", "lower_tier", "higher", "higher_tier"]].copy()
    g["higher minus lower [95% CI]"] = ci_col(gate, "diff", "ci_low", "ci_high")
    g["holds"] = ["yes" if h else "NO" for h in gate["holds"]]
    passed = ladder.gate_passed(gate)
    missing = [t for t in dependence.TIER_ORDER if t not in set(ratings["tier"])]
    doc.p(
        (
            "**Validity gate passed**: every tier is above the tiers below it with 95% confidence."
            if passed
            else "**Validity gate failed**: some comparisons do not hold (below); AIs involved are not validated."
        )
        + (f" Tier(s) not played: {', '.join(missing)}." if missing else "")
    )
    doc.table(g)


def _balance(doc: Doc, c: Common) -> None:
    bal = c.bal
    t = bal[["metric"]].copy()
    t["value [95% CI]"] = ci_col(bal, "value", "ci_low", "ci_high", digits=3)
    t["n"] = bal["n"]
    t["detail"] = bal["detail"]
    doc.p(
        "Ludii-style balance = 1 - (max - min) win rate over seats (1 = perfectly even). "
        "Adjusted character balance = 2*expit(-spread). Dominated team = upper bound below 50% against "
        f"every one of at least {balance_mod.MIN_OPPONENTS} opponents; a team that met one opponent is never "
        "called dominated.",
        note=True,
    )
    doc.table(t)


def _first(doc: Doc, c: Common) -> None:
    strength, first, enough = c.strength, c.first, c.enough
    if not enough or not first["n"].iloc[0]:
        doc.p("Not enough data: no decided match.")
        return
    t = first[["n_matches", "draws", "n", "first_wins"]].rename(columns={"n": "decided"}).copy()
    t["first-player win rate (decided) [95% CI]"] = ci_col(
        first, "win_rate", "ci_low", "ci_high", as_pct=True
    )
    t["binomial p"] = [fmt(p, 4) for p in first["p_value"]]
    t["design effect"] = [fmt(d, 2) for d in first["deff"]]
    doc.p(narrative.first_player_finding(first, strength))
    doc.table(t)
    doc.image("first_player.png", plots.plot_first_player(first), "first-player advantage")


def _matchups(doc: Doc, c: Common) -> None:
    matchups, dominated, losers = c.matchups, c.dominated, c.losers
    cells = matchups[matchups["team"] != matchups["opponent"]] if not matchups.empty else matchups
    if cells.empty:
        doc.p("Not enough data: no two different teams met.")
        return
    t = cells.assign(_d=(cells["win_rate"] - 0.5).abs()).sort_values(["_d", "n"], ascending=False)
    show = pd.DataFrame(
        {"team": [team_label(x) for x in t["team"]], "opponent": [team_label(x) for x in t["opponent"]]}
    )
    show[["n", "wins", "draws"]] = t[["n", "wins", "draws"]].to_numpy()
    show["win rate [95% CI]"] = ci_col(t, "win_rate", "ci_low", "ci_high", as_pct=True).to_numpy()
    doc.p(narrative.matchup_finding(matchups))
    doc.p(narrative.dominated_finding(losers))
    if not dominated.empty:
        d = dominated.assign(team=[team_label(x) for x in dominated["team"]])
        doc.table(d.assign(win_rate=[fmt(x, 3) for x in d["win_rate"]]))
    doc.image("matchups.png", plots.plot_matchups(matchups), "matchups")
    doc.table(show, "Each matchup from the row team's point of view, most lopsided first.")


def _damage(doc: Doc, c: Common) -> None:
    damage, kos = c.damage, c.kos
    if damage.empty:
        doc.p("Not enough data: no fighter rows for error-free matches.")
        return
    t = named(damage[["character", "n"]], "character")
    for col, label in (
        ("damage_dealt", "dealt"),
        ("damage_dealt_incl_summons", "dealt incl. summons"),
        ("damage_taken", "taken"),
    ):
        t[f"{label} [95% CI]"] = ci_col(damage, col, f"{col}_ci_low", f"{col}_ci_high", digits=1)
    for col in [c for c in damage.columns if c.startswith("dealt_")]:
        t[col.replace("dealt_", "")] = [fmt(v, 1) for v in damage[col]]
    doc.p(
        "Mean per Krosmaster per match. Summons are not characters here; their damage is added to their "
        "summoner's 'incl. summons' column.",
        note=True,
    )
    doc.table(t)
    doc.image("damage_by_element.png", plots.plot_damage_by_element(damage), "damage by element")
    if not kos.empty:
        k = named(kos[["character", "n", "knocked_out"]], "character")
        k["KO rate [95% CI]"] = ci_col(kos, "ko_rate", "ko_ci_low", "ko_ci_high", as_pct=True)
        for col in ("kills", "turns_alive"):
            if col in kos.columns:
                k[f"{col} [95% CI]"] = ci_col(kos, col, f"{col}_ci_low", f"{col}_ci_high")
        doc.table(k, "Knock-outs, kills and survival per Krosmaster per match.")


def _length(doc: Doc, c: Common) -> None:
    summary, bal, length = c.summary, c.bal, c.length
    if length.empty:
        doc.p("Not enough data: no error-free match.")
        return
    t = length[["end_reason", "n"]].copy()
    t["share"] = [narrative.pct(s) for s in length["share"]]
    t["mean turns [95% CI]"] = ci_col(length, "mean_turns", "ci_low", "ci_high", digits=1)
    t["median"] = length["median_turns"]
    t["min"], t["max"] = length["min_turns"], length["max_turns"]
    doc.p(narrative.ending_finding(bal))
    doc.table(t)
    doc.image("match_length.png", plots.plot_match_length(summary.turns), "match length")


def _board(doc: Doc, c: Common) -> None:
    summary, rs = c.summary, c.rs
    assumed = [board_title(b) for b in summary.first_match if board_is_assumed(b)]
    if assumed:
        doc.p(
            f"Assumed layout: {', '.join(assumed)}. The box boards' cell-by-cell layouts are not published; "
            "these are representative stand-ins (each board file says what is known and what is assumed), "
            "so board-specific numbers describe these layouts, not the printed boards.",
            note=True,
        )
    figs = board_figures(rs, summary)
    if not figs:
        doc.p("No picture: the experiment's board is not among the shipped board files.", note=True)
    for board_id, fig in figs:
        doc.image(f"board_{board_id}.png", fig, f"board {board_id}")


def _errors(doc: Doc, c: Common) -> None:
    summary = c.summary
    if summary.n_errors == 0:
        doc.p("No match ended in an error.")
        return
    t = summary.errors.copy()
    if "error" in t.columns:
        t["error"] = t["error"].astype(str).str.slice(0, 200)
    more = (
        f" (the first {len(t)} shown; errors/*.parquet holds every traceback)"
        if summary.n_errors > len(t)
        else ""
    )
    doc.table(t, f"{summary.n_errors} match(es) excluded from every statistic{more}.")


def common_sections(doc: Doc, c: Common) -> list[tuple[str, Callable[[], None]]]:
    """The common sections in report order, each ``(heading, build)``."""
    sections: list[tuple[str, Callable[[], None]]] = [
        ("AIs", partial(_ais, doc, c)),
        ("Data", partial(_data, doc, c)),
        ("Character win rates (raw)", partial(_win_rates, doc, c)),
        ("Teammate-adjusted strength", partial(_strength, doc, c)),
        ("How much the verdict depends on the AI and the board", partial(_dependence, doc, c)),
    ]
    if c.is_ladder:
        sections.append(("AI ladder", partial(_ladder, doc, c)))
    sections += [
        ("Balance summary", partial(_balance, doc, c)),
        ("First-player advantage", partial(_first, doc, c)),
        ("Matchups", partial(_matchups, doc, c)),
        ("Damage and knock-outs", partial(_damage, doc, c)),
        ("Match length and endings", partial(_length, doc, c)),
        ("Board", partial(_board, doc, c)),
        ("Errors", partial(_errors, doc, c)),
    ]
    if c.seat is not None:
        n_seats = c.seat.n_seats
        sections = [(heading, two_player_only(doc, heading, n_seats, build)) for heading, build in sections]
    return sections


def report_body(rs: ResultSet, doc: Doc, tables: dict[str, pd.DataFrame]) -> ReportBody:
    """The common part of the report of ``rs``: its tables (into ``tables``), Findings and sections."""
    c = common_tables(rs, tables)
    return ReportBody(
        findings=findings(c),
        ais=c.ais,
        verdict_matches=c.m if c.seat is None else None,
        answer_lines=partial(answer_lines, c),
        sections=common_sections(doc, c),
    )


__all__ = ["common_sections", "report_body"]
