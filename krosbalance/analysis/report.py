"""The experiment report: one HTML file (images embedded) and one Markdown file (PNGs beside it).

:func:`write_report` opens a result directory, derives every table from its :meth:`ResultSet.summary`
(a chunked scan: memory does not grow with the number of matches), draws every plot and writes the
same content twice (:mod:`document`). Every derived table is also saved as CSV (ids, not display
names: they are data). Small or degenerate data (one match, all draws, a character that never
played) gives "not enough data" in the affected sections, never a crash; a section that fails
unexpectedly says so in place and the rest is written.

A report leads with its answer: first the verdict picture (:mod:`krosbalance.analysis.verdict`: each
figure's strength per AI tier with 95% intervals, marked converged or not; the study's own picture
when a section of the registry gives one — Demonic Reward value, Divine Challenge effect, duel
figures, strength at a four-player table), then a summary of at most five lines, then the detail:
the question, every finding, and the sections.

What a report always says: which AIs played, their tier and ladder standing (a warning in the
summary when any is not validated); every headline number per AI matchup and per board next to the
pooled one, with n and intervals; how stable the character ranking is between AIs and boards; which
characters are over- or under-powered in every AI tier (or "depends on AI"), and the card values of
low confidence behind those verdicts (in the Findings). An experiment whose matches pair different AIs gets the AI
ladder section (ratings, win-rate matrix, validity gate).

Matches of more than two seats (four-player Arena) get the Seats section first
(:mod:`krosbalance.analysis.seats`, a mode section): the Summary gives its headlines, each common
section that reads seat 0 against seat 1 (:data:`TWO_PLAYER_ONLY`) is one sentence pointing to it,
and only the tables that hold for any number of players are exported with the seat tables. Reports
of two-player results are unchanged by this.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis import balance as balance_mod
from krosbalance.analysis import dependence, ladder, narrative, plots, seats, stats
from krosbalance.analysis import verdict as verdict_mod
from krosbalance.analysis.answers import report_verdict
from krosbalance.analysis.design import weights
from krosbalance.analysis.document import Doc, render_html, render_markdown
from krosbalance.analysis.names import (
    board_is_assumed,
    board_title,
    confidence_text,
    display_name,
    names_column,
    team_label,
)
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.scan import Summary
from krosbalance.analysis.sections import folder_study, ruleset_sections
from krosbalance.analysis.strength import adjusted_strength
from krosbalance.analysis.verdict import Verdict
from krosbalance.studies.patches import section as patch_section

CELLS_SHOWN = 20  # more cells than this are summarised (n per cell), the full table goes to CSV
BOARDS_DRAWN = 3


# ------------------------------------------------------------------ helpers
def spec_question(spec_text: str) -> str:
    """The experiment's ``question`` (or ``description``), top level or in any top-level table."""
    if not spec_text.strip():
        return ""
    try:
        spec = tomllib.loads(spec_text)
    except tomllib.TOMLDecodeError:
        return ""
    tables = [spec] + [v for v in spec.values() if isinstance(v, dict)]
    for key in ("question", "description"):
        for table in tables:
            if isinstance(table.get(key), str) and table[key].strip():
                return table[key].strip()
    return ""


def _ci_col(df: pd.DataFrame, est: str, lo: str, hi: str, as_pct: bool = False, digits: int = 2) -> pd.Series:
    return pd.Series(
        [with_ci(e, a, b, as_pct, digits) for e, a, b in zip(df[est], df[lo], df[hi], strict=True)],
        index=df.index,
        dtype=object,
    )


def _versions(rs: ResultSet, summary: Summary) -> pd.DataFrame:
    rows: list[tuple[str, str]] = []
    for key, value in (rs.manifest or {}).items():
        if key == "meta":  # a staged study's settings (krosbalance.sim.stages): its own section shows them
            continue
        if isinstance(value, dict):
            rows += [(f"{key}.{k}", str(v)) for k, v in value.items()]
        elif not isinstance(value, list):
            rows.append((key, str(value)))
    for col, values in summary.versions.items():
        rows.append((f"matches.{col}", ", ".join(values) or "n/a"))
    return pd.DataFrame(rows, columns=["item", "value"])


def _cells_table(matches: pd.DataFrame) -> pd.DataFrame:
    """n per experiment cell (pairing of two teams, on a board, with one AI matchup): total,
    error-free, errors, draws."""
    m = matches.copy()
    k = weights(m)
    ok = m.index.isin(stats.ok_matches(m).index)
    m["_n"] = k
    m["ok"] = k * ok
    m["draws"] = k * (ok & stats.winner_series(m).isna().to_numpy())
    if {"ai0", "ai1", "swapped"} <= set(m.columns) and not {"ai_a", "ai_b"} <= set(m.columns):
        swapped = m["swapped"].astype(bool)
        m["ai_a"] = m["ai0"].where(~swapped, m["ai1"])
        m["ai_b"] = m["ai1"].where(~swapped, m["ai0"])
    keys = [c for c in ("pairing", "team_a", "team_b", "board", "ai_a", "ai_b") if c in m.columns]
    for c in keys:
        m[c] = m[c].astype(str) if c != "pairing" else m[c]
    g = m.groupby(keys, sort=True, dropna=False)
    out = g[["_n", "ok", "draws"]].sum().round().astype("int64").rename(columns={"_n": "n"}).reset_index()
    out["errors"] = out["n"] - out["ok"]
    return out


def ai_table(matches: pd.DataFrame, standings: dict[str, Any]) -> pd.DataFrame:
    """The AIs of the experiment (every seat's: ``ai0``, ``ai1``, ...) with their tier, ladder standing
    and matches played."""
    cols = ["ai", "tier", "rating", "ci_low", "ci_high", "ladder_n", "validated", "matches"]
    m = stats.ok_matches(matches)
    if m.empty or "ai0" not in m.columns:
        return pd.DataFrame(columns=cols)
    k = weights(m)
    seats_ai = [c for c in (f"ai{s}" for s in range(seats.MAX_SEATS)) if c in m.columns]
    played: dict[str, float] = {}
    for row, w in zip(m[seats_ai].astype(str).itertuples(index=False), k, strict=True):
        for a in dict.fromkeys(row):  # each AI of a match once
            played[a] = played.get(a, 0.0) + w
    rows = []
    for ai in sorted(played, key=lambda a: (dependence._tier_rank(dependence.ai_tier(a)), a)):
        s = standings.get(ai)
        rows.append(
            (
                ai,
                dependence.ai_tier(ai),
                s.rating if s else np.nan,
                s.ci_low if s else np.nan,
                s.ci_high if s else np.nan,
                s.n if s else 0,
                bool(s.validated) if s else False,
                int(round(played[ai])),
            )
        )
    return pd.DataFrame(rows, columns=cols)


def _load_standings() -> tuple[dict[str, Any], str]:
    from krosbalance.ai.ladder import load_ladder
    from krosbalance.errors import KrosbalanceError

    try:
        return load_ladder(), ""
    except KrosbalanceError as err:
        return {}, f"The ladder file could not be read ({err}); no AI counts as validated."


def _board_figures(rs: ResultSet, summary: Summary) -> list[tuple[str, Figure]]:
    """Pictures of the experiment's boards (and pieces at the last recorded turn end, if events exist).

    Each picture carries the board's own label when its layout is assumed."""
    from krosbalance.board import BOARDS_DIR, load_board_file
    from krosbalance.paths import name_problem
    from krosbalance.render.board_picture import plot_board, positions_at

    figs = []
    for board_id in list(summary.first_match)[:BOARDS_DRAWN]:
        if name_problem(board_id):  # a results folder's board column names a file: never a path
            continue
        path = BOARDS_DIR / f"{board_id}.toml"
        if not path.is_file():
            continue
        try:
            board = load_board_file(path)
        except Exception:  # a broken board file is the content layer's problem, not the report's
            continue
        pieces: list = []
        title = board.name
        mid = summary.first_match[board_id]
        events = rs.events_of(mid)
        if events is not None and {"kind", "turn", "positions"} <= set(events.columns):
            pieces = positions_at(events.to_dict("records"))
            title += f", match {mid} at its last recorded turn end" if pieces else ""
        figs.append((board_id, plot_board(board, pieces, title=title)))
    return figs


def _named(df: pd.DataFrame, column: str, label: str = "") -> pd.DataFrame:
    """``df`` with its id column shown as display names (``label`` renames the column)."""
    out = df.copy()
    out[column] = names_column(out[column])
    return out.rename(columns={column: label}) if label else out


# ------------------------------------------------------------------ sections
TWO_PLAYER_ONLY: dict[str, str] = {
    "Character win rates (raw)": "side 0 against side 1",
    "Teammate-adjusted strength": "a logit of side 0 against side 1",
    "How much the verdict depends on the AI and the board": "the two-player strength model per AI and board",
    "AI ladder": "one AI against another",
    "Balance summary": "first against second player, side 0 against side 1, dominated teams",
    "First-player advantage": "first against second player",
    "Matchups": "team against team",
}
"""The common sections that read seat 0 against seat 1, and what each compares."""


def _two_player_only(doc: Doc, heading: str, n_seats: int, build: Callable[[], None]) -> Callable[[], None]:
    """``build``, or, for a two-player-only section of a report of ``n_seats`` players, one sentence
    that says so and points to the Seats section."""
    compares = TWO_PLAYER_ONLY.get(heading)
    if compares is None:
        return build
    return lambda: doc.p(
        f"This section is a two-player analysis ({compares}) and these matches seat {n_seats} players, so it "
        "is left out: see the Seats section, which gives the win rates by play position, partnership and seat "
        "and each character's strength at the table."
    )


def _section(doc: Doc, title: str, build: Callable[[], None]) -> None:
    doc.h(title)
    try:
        build()
    except Exception as err:  # keep the rest of the report; tests make sure this never fires on valid data
        doc.p(f"This section could not be computed: {type(err).__name__}: {err}", note=True)


def _headline_table(head: pd.DataFrame, by: str) -> pd.DataFrame:
    t = pd.DataFrame({by: head["group"]})
    if "tier" in head.columns:
        t["tier"] = head["tier"]
    t["matches"] = head["matches"]
    for label in ("strongest", "weakest"):
        t[label] = [
            f"{display_name(c)} {with_ci(e, lo, hi)}" if c else "n/a"
            for c, e, lo, hi in zip(
                head[label],
                head[f"{label}_coef"],
                head[f"{label}_ci_low"],
                head[f"{label}_ci_high"],
                strict=True,
            )
        ]
    t["first-player win rate (decided)"] = _ci_col(
        head, "first_rate", "first_ci_low", "first_ci_high", as_pct=True
    )
    t["draw share"] = _ci_col(head, "draw_share", "draw_ci_low", "draw_ci_high", as_pct=True)
    return t


# ------------------------------------------------------------------ the verdict
def _verdict_section(doc: Doc, answer: Verdict, question: str, tables: dict[str, pd.DataFrame]) -> None:
    """The report's first section: the verdict picture, what it shows and the question it answers."""
    doc.h("Verdict")
    doc.image("verdict.png", verdict_mod.plot_verdict(answer), f"verdict: {answer.study} per AI tier")
    conv = verdict_mod.convergence(answer.data) if not answer.data.empty else pd.DataFrame()
    tables["verdict"] = (
        answer.data.merge(conv[["figure", "status"]], on="figure", how="left") if len(conv) else answer.data
    )
    doc.p(
        f"{answer.caption} Marked converged when the figure's 95% intervals in the two strongest AI tiers "
        "played overlap (one tier: not judged).",
        note=True,
    )
    if question:
        doc.p(f"The question: {question}", note=True)


def _summary_header(n_total: int, n_ok: int, ais: pd.DataFrame) -> list[str]:
    """The summary's first line: how many matches, and which AIs (tier) played them."""
    played = ", ".join(f"{a} ({t})" for a, t in zip(ais["ai"], ais["tier"], strict=True)) if len(ais) else ""
    return [f"Based on {n_ok} error-free matches out of {n_total}" + (f"; AIs: {played}." if played else ".")]


def _warnings(findings: list[str]) -> list[str]:
    """The findings a summary must not leave out: unvalidated AIs, errors, random play only."""
    keys = ("**Warning", "ended in an error", "Only random play", "No error-free match")
    return [line for line in findings if any(line.startswith(k) or k in line[:60] for k in keys)]


def _folder_check(doc: Doc, rs: ResultSet) -> None:
    """Say first when the results folder held files that were not read, or lost part of a table."""
    notes = rs.folder_notes()
    if not notes:
        return
    doc.h("Results folder check")
    lost = rs.lost_matches()
    doc.p(
        "Incomplete: this report leaves out the files below"
        + (f", and with them {lost} match(es) the run wrote" if lost else "")
        + ". `krosbalance run FILE --out RESULTS --resume` moves them aside and plays the missing matches again."
    )
    doc.ul(notes)


def build_document(rs: ResultSet) -> tuple[str, Doc, dict[str, pd.DataFrame]]:
    """Title, document and the derived tables (for CSV export) of one result set."""
    summary = rs.summary()
    m = summary.matches
    ok = stats.ok_matches(m)
    n_ok = int(round(weights(ok).sum()))
    n_total = summary.n_matches
    name = str((rs.manifest or {}).get("experiment") or summary.experiment or "experiment")
    title = f"krosbalance report: {name}"
    tables: dict[str, pd.DataFrame] = {}
    standings, ladder_problem = _load_standings()
    # more than two seats: the two-player analyses are replaced by the Seats section (a mode section)
    seat = seats.for_result_set(rs)
    ais = ai_table(m if seat is None else seat.matches, standings)
    damage = stats.damage_table(summary.fighters)
    kos = stats.ko_table(summary.fighters)
    length = stats.match_length_table(summary.turns)
    if seat is None:
        win_rates = stats.character_win_rates(m)
        strength = adjusted_strength(m)
        first = stats.first_player_advantage(m)
        matchups = stats.matchup_matrix(m)
        dominated = balance_mod.dominated_teams(matchups)
        losers = balance_mod.losing_every_matchup(matchups)
        bal = balance_mod.balance_summary(m, strength=strength, win_rates=win_rates, matchups=matchups)
        grouped = dependence.with_groups(m) if len(m) else m
        several_ais = len(set(grouped["ai_matchup"])) > 1 if len(grouped) else False
        boards = dependence.groups_of(m, "board") if len(m) else []
        by_ai = dependence.strength_by(m, "ai_matchup") if several_ais else None
        by_board = dependence.strength_by(m, "board") if len(boards) > 1 else None
        tau_ai = dependence.rank_stability(by_ai) if by_ai is not None else pd.DataFrame()
        tau_board = dependence.rank_stability(by_board) if by_board is not None else pd.DataFrame()
        verdicts = dependence.verdicts(m, standings)
        is_ladder = ladder.is_ladder(m)
        ratings = ladder.ladder_ratings(m) if is_ladder else pd.DataFrame()
        gate = ladder.validity_gate(ratings) if is_ladder else pd.DataFrame()
        ladder_summary = narrative.ladder_line(ratings, gate, ladder.gate_passed(gate)) if is_ladder else ""
        tables.update(
            ais=ais,
            win_rates=win_rates,
            adjusted_strength=strength,
            verdicts=verdicts,
            first_player=first,
            matchups=matchups,
            dominated_teams=dominated,
            balance=bal,
            damage=damage,
            ko=kos,
            match_length=length,
        )
        if by_ai is not None:
            tables.update(strength_by_ai=by_ai, rank_stability_ai=tau_ai)
        if by_board is not None:
            tables.update(strength_by_board=by_board, rank_stability_board=tau_board)
    else:
        bal = balance_mod.ending_shares(m)  # draws and the turn limit hold for any number of seats
        is_ladder = bool((seat.seats["table_ai"] == seats.MIXED).any())  # AIs met: say the ladder is 2-player
        tables.update(ais=ais, damage=damage, ko=kos, match_length=length)
    doc = Doc()
    enough = n_ok > 0

    if seat is None:
        findings = narrative.summary_lines(
            n_total=n_total,
            n_ok=n_ok,
            win_rates=win_rates,
            strength=strength,
            first=first,
            matchups=matchups,
            dominated=losers,
            balance=bal,
            ais=ais,
            verdicts=verdicts,
            by_ai=by_ai,
            stability=[
                narrative.stability_line(tau_ai, "AIs"),
                narrative.stability_line(tau_board, "boards"),
            ],
            ladder=ladder_summary,
        )
    else:
        head = narrative.header_lines(n_total=n_total, n_ok=n_ok, ais=ais)
        findings = head + (seats.summary_lines(seat) + [narrative.ending_finding(bal)] if n_ok else [])
    own_sections = ruleset_sections(rs, folder_study(rs))
    answer = report_verdict(rs, tables, own_sections, m if seat is None else None)
    if seat is None and answer.study == "character strength" and n_ok:
        stability = narrative.stability_line(tau_ai, "AIs")
        answer.lines = narrative.verdict_lines(verdicts, by_ai)[:1] + ([stability] if stability else [])
    _verdict_section(doc, answer, spec_question(rs.spec_text), tables)
    incomplete = (
        ["**Incomplete results folder**: some files were not read (see the Results folder check below)."]
        if rs.folder_notes()
        else []
    )
    doc.h("Summary")
    doc.ul(
        verdict_mod.summary(answer, _summary_header(n_total, n_ok, ais), incomplete + _warnings(findings))
        if n_ok
        else findings[:5]
    )
    _folder_check(doc, rs)  # after the answer, before the detail: what the numbers leave out

    doc.h("Question")
    doc.p(spec_question(rs.spec_text) or "The experiment file states no question.")
    patch_section.add_header(doc, rs.manifest)

    doc.h("Findings")
    doc.ul(findings)
    doc.p(
        "95% intervals throughout: proportions are Wilson intervals on the effective sample size of the "
        "deal-clustered design (matches of one deal share their dice), model coefficients have "
        "deal-clustered (cluster-robust) intervals when deals hold several matches, means Student t, balance "
        "scores simulation intervals. Draws count as non-wins in win rates unless a table says 'decided matches'.",
        note=True,
    )

    def s_ais() -> None:
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

    def s_data() -> None:
        reasons = (
            ok.assign(_k=weights(ok)).groupby(ok["end_reason"].astype(str))["_k"].sum() if enough else {}
        )
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
        cells = _cells_table(m) if len(m) else pd.DataFrame()
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
            for c in ("team_a", "team_b"):
                if c in shown.columns:
                    shown[c] = [team_label(t) for t in shown[c]]
            doc.table(shown, "n per cell (a pairing of teams A and B on one board with one AI matchup).")

    def s_win_rates() -> None:
        if win_rates.empty:
            doc.p("Not enough data: no error-free match.")
            return
        t = _named(win_rates[["character", "n", "wins", "draws", "losses"]], "character")
        t["win rate [95% CI]"] = _ci_col(win_rates, "win_rate", "ci_low", "ci_high", as_pct=True)
        doc.p(
            "Raw win rate of the teams that fielded each character. Confounded by teammates: see the adjusted strength below.",
            note=True,
        )
        doc.table(t)
        doc.image("win_rates.png", plots.plot_win_rates(win_rates), "raw win rates")

    def s_strength() -> None:
        chars = strength[strength["kind"] == "character"] if not strength.empty else strength
        if chars.empty or chars["coef"].notna().sum() < 2:
            doc.p("Not enough data: fewer than two characters can be estimated from decided matches.")
            if not strength.empty:
                doc.table(_named(strength[["term", "kind", "n", "note"]], "term"))
            return
        t = _named(strength[["term", "kind", "n"]], "term")
        t["coef [95% CI]"] = _ci_col(strength, "coef", "ci_low", "ci_high")
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
        doc.image(
            "strength_forest.png", plots.plot_strength_forest(strength), "adjusted strength forest plot"
        )

    def s_dependence() -> None:
        if not verdicts.empty:
            v = _named(verdicts[["character", "verdict", "dissent"]], "character")
            for tier in [c for c in verdicts.columns if f"{c}_ci_low" in verdicts.columns]:
                v[f"{tier} [95% CI]"] = _ci_col(verdicts, tier, f"{tier}_ci_low", f"{tier}_ci_high")
            v["card values of low confidence"] = [confidence_text(c) for c in verdicts["character"]]
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
            shown = _headline_table(head, "AI matchup" if by == "ai_matchup" else "board")
            if by == "board":
                shown["board"] = [g if g == "pooled" else board_title(g) for g in shown["board"]]
            doc.table(shown)
            wide = dependence.strength_pivot(long)
            if not wide.empty:
                counts = long.drop_duplicates("group").set_index("group")["n_matches"]
                shown_name = board_title if by == "board" else str
                wide = wide.rename(
                    columns={
                        g: f"{g if g == 'pooled' else shown_name(g)} (n={int(counts[g])})"
                        for g in wide.columns
                    }
                )
                wide.insert(0, "character", names_column(wide.index))
                doc.table(wide.reset_index(drop=True), f"Teammate-adjusted strength per {label} [95% CI].")
                doc.image(
                    f"strength_by_{label.lower()}.png",
                    plots.plot_strength_by_group(
                        long, title=f"Teammate-adjusted strength per {label} (95% CI)"
                    ),
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

    def s_ladder() -> None:
        matrix = ladder.win_matrix(m)
        tables.update(ladder_ratings=ratings, ladder_win_matrix=matrix, ladder_gate=gate)
        t = ratings[["ai", "tier", "n"]].copy()
        t["rating [95% CI]"] = _ci_col(ratings, "rating", "ci_low", "ci_high")
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
        g["higher minus lower [95% CI]"] = _ci_col(gate, "diff", "ci_low", "ci_high")
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

    def s_balance() -> None:
        t = bal[["metric"]].copy()
        t["value [95% CI]"] = _ci_col(bal, "value", "ci_low", "ci_high", digits=3)
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

    def s_first() -> None:
        if not enough or not first["n"].iloc[0]:
            doc.p("Not enough data: no decided match.")
            return
        t = first[["n_matches", "draws", "n", "first_wins"]].rename(columns={"n": "decided"}).copy()
        t["first-player win rate (decided) [95% CI]"] = _ci_col(
            first, "win_rate", "ci_low", "ci_high", as_pct=True
        )
        t["binomial p"] = [fmt(p, 4) for p in first["p_value"]]
        t["design effect"] = [fmt(d, 2) for d in first["deff"]]
        doc.p(narrative.first_player_finding(first, strength))
        doc.table(t)
        doc.image("first_player.png", plots.plot_first_player(first), "first-player advantage")

    def s_matchups() -> None:
        cells = matchups[matchups["team"] != matchups["opponent"]] if not matchups.empty else matchups
        if cells.empty:
            doc.p("Not enough data: no two different teams met.")
            return
        t = cells.assign(_d=(cells["win_rate"] - 0.5).abs()).sort_values(["_d", "n"], ascending=False)
        show = pd.DataFrame(
            {"team": [team_label(x) for x in t["team"]], "opponent": [team_label(x) for x in t["opponent"]]}
        )
        show[["n", "wins", "draws"]] = t[["n", "wins", "draws"]].to_numpy()
        show["win rate [95% CI]"] = _ci_col(t, "win_rate", "ci_low", "ci_high", as_pct=True).to_numpy()
        doc.p(narrative.matchup_finding(matchups))
        doc.p(narrative.dominated_finding(losers))
        if not dominated.empty:
            d = dominated.assign(team=[team_label(x) for x in dominated["team"]])
            doc.table(d.assign(win_rate=[fmt(x, 3) for x in d["win_rate"]]))
        doc.image("matchups.png", plots.plot_matchups(matchups), "matchups")
        doc.table(show, "Each matchup from the row team's point of view, most lopsided first.")

    def s_damage() -> None:
        if damage.empty:
            doc.p("Not enough data: no fighter rows for error-free matches.")
            return
        t = _named(damage[["character", "n"]], "character")
        for col, label in (
            ("damage_dealt", "dealt"),
            ("damage_dealt_incl_summons", "dealt incl. summons"),
            ("damage_taken", "taken"),
        ):
            t[f"{label} [95% CI]"] = _ci_col(damage, col, f"{col}_ci_low", f"{col}_ci_high", digits=1)
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
            k = _named(kos[["character", "n", "knocked_out"]], "character")
            k["KO rate [95% CI]"] = _ci_col(kos, "ko_rate", "ko_ci_low", "ko_ci_high", as_pct=True)
            for col in ("kills", "turns_alive"):
                if col in kos.columns:
                    k[f"{col} [95% CI]"] = _ci_col(kos, col, f"{col}_ci_low", f"{col}_ci_high")
            doc.table(k, "Knock-outs, kills and survival per Krosmaster per match.")

    def s_length() -> None:
        if length.empty:
            doc.p("Not enough data: no error-free match.")
            return
        t = length[["end_reason", "n"]].copy()
        t["share"] = [narrative.pct(s) for s in length["share"]]
        t["mean turns [95% CI]"] = _ci_col(length, "mean_turns", "ci_low", "ci_high", digits=1)
        t["median"] = length["median_turns"]
        t["min"], t["max"] = length["min_turns"], length["max_turns"]
        doc.p(narrative.ending_finding(bal))
        doc.table(t)
        doc.image("match_length.png", plots.plot_match_length(summary.turns), "match length")

    def s_board() -> None:
        assumed = [board_title(b) for b in summary.first_match if board_is_assumed(b)]
        if assumed:
            doc.p(
                f"Assumed layout: {', '.join(assumed)}. The box boards' cell-by-cell layouts are not published; "
                "these are representative stand-ins (each board file says what is known and what is assumed), "
                "so board-specific numbers describe these layouts, not the printed boards.",
                note=True,
            )
        figs = _board_figures(rs, summary)
        if not figs:
            doc.p("No picture: the experiment's board is not among the shipped board files.", note=True)
        for board_id, fig in figs:
            doc.image(f"board_{board_id}.png", fig, f"board {board_id}")

    def s_errors() -> None:
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

    for own in own_sections:
        if own.leading:
            own.hook(doc, rs, tables, _section)
    sections: list[tuple[str, Callable[[], None]]] = [
        ("AIs", s_ais),
        ("Data", s_data),
        ("Character win rates (raw)", s_win_rates),
        ("Teammate-adjusted strength", s_strength),
        ("How much the verdict depends on the AI and the board", s_dependence),
    ]
    if is_ladder:
        sections.append(("AI ladder", s_ladder))
    sections += [
        ("Balance summary", s_balance),
        ("First-player advantage", s_first),
        ("Matchups", s_matchups),
        ("Damage and knock-outs", s_damage),
        ("Match length and endings", s_length),
        ("Board", s_board),
        ("Errors", s_errors),
    ]
    if seat is not None:
        sections = [
            (heading, _two_player_only(doc, heading, seat.n_seats, build)) for heading, build in sections
        ]
    for heading, build in sections:
        _section(doc, heading, build)
    for own in own_sections:
        if not own.leading:
            own.hook(doc, rs, tables, _section)

    doc.h("Experiment spec")
    if rs.spec_text:
        doc.code(rs.spec_text, "toml")
    else:
        doc.p("No experiment.toml was found beside the results.")
    doc.h("Versions")
    versions = _versions(rs, summary)
    if versions.empty:
        doc.p("No version information.")
    else:
        doc.table(versions)
    return title, doc, tables


def load_results(results_dir: Path) -> ResultSet:
    """A result directory written by the runner, or a staged study's folder (every stage read:
    :func:`krosbalance.analysis.staged.load_staged`)."""
    from krosbalance.sim.stages import is_staged

    if is_staged(results_dir):  # a staged study: every stage's results, as one result set
        from krosbalance.analysis.staged import load_staged

        return load_staged(results_dir)
    return ResultSet.load(Path(results_dir))


def report_answer(results_dir: Path) -> tuple[str, list[str]]:
    """The study of a results folder and its headline answer (:mod:`krosbalance.analysis.answers`),
    from the same tables the report derives."""
    from krosbalance.analysis.answers import headline_answer
    from krosbalance.analysis.sections import folder_study
    from krosbalance.studies import DEFAULT_STUDY

    rs = load_results(results_dir)
    _, _, tables = build_document(rs)
    study = folder_study(rs)
    return (study.name if study is not None else DEFAULT_STUDY), headline_answer(rs, tables)


def write_report(results_dir: Path, report_dir: Path, *, chunk_matches: int | None = None) -> Path:
    """Write ``report.html`` (self-contained) and ``report.md`` (+ PNGs and CSVs) into ``report_dir``.

    Args:
        results_dir: a result directory written by the runner (see :class:`ResultSet`), or a staged
            study's folder (every stage read: :func:`krosbalance.analysis.staged.load_staged`).
        report_dir: where to write; created if missing.
        chunk_matches: matches read at a time (default :data:`scan.CHUNK_MATCHES`); bounds memory.

    Returns:
        The path of ``report.html``.
    """
    rs = load_results(results_dir)
    if chunk_matches is not None:
        rs.summary(chunk_matches)
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    title, doc, tables = build_document(rs)
    (report_dir / "report.md").write_text(render_markdown(title, doc, report_dir), encoding="utf-8")
    out = report_dir / "report.html"
    out.write_text(render_html(title, doc), encoding="utf-8")
    tables_dir = report_dir / "tables"
    tables_dir.mkdir(exist_ok=True)
    for name, df in tables.items():
        df.to_csv(tables_dir / f"{name}.csv", index=False)
    return out


__all__ = [
    "write_report",
    "load_results",
    "report_answer",
    "build_document",
    "spec_question",
    "render_html",
    "render_markdown",
    "ai_table",
]
