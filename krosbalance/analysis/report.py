"""The experiment report: one HTML file (images embedded) and one Markdown file (PNGs beside it).

:func:`write_report` loads a result directory, derives every table, draws every plot and writes the
same content twice: ``report.html`` is self-contained (base64 PNGs, inline CSS) and ``report.md``
links PNG files saved next to it. Every derived table is also saved as CSV. Small or degenerate data
(one match, all draws, a character that never played) gives "not enough data" in the affected
sections, never a crash; a section that fails unexpectedly says so in place and the rest is written.
"""

from __future__ import annotations

import base64
import html
import io
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from krosbalance.analysis import balance as balance_mod
from krosbalance.analysis import narrative, plots, stats
from krosbalance.analysis import rewards as rewards_mod
from krosbalance.analysis.narrative import fmt, with_ci
from krosbalance.analysis.resultset import ResultSet
from krosbalance.analysis.strength import adjusted_strength

CELLS_SHOWN = 20  # more cells than this are summarised (n per cell), the full table goes to CSV
MAX_TABLE_ROWS = 200
CSS = """
body { font-family: system-ui, -apple-system, Segoe UI, sans-serif; max-width: 980px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #2b6cb0; padding-bottom: .2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: .85em; margin: .8em 0; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f0f4f8; } td:first-child, th:first-child { text-align: left; }
pre { background: #f6f8fa; padding: .8em; overflow-x: auto; font-size: .85em; }
img { max-width: 100%; } .note { color: #666; font-size: .9em; }
.summary li { margin: .3em 0; }
"""


# ------------------------------------------------------------------ document model
@dataclass
class Doc:
    """A tiny document model rendered both to HTML and to Markdown."""

    blocks: list[tuple[str, Any]] = field(default_factory=list)

    def h(self, text: str) -> None:
        self.blocks.append(("h2", text))

    def p(self, text: str, note: bool = False) -> None:
        self.blocks.append(("note" if note else "p", text))

    def ul(self, items: list[str]) -> None:
        self.blocks.append(("ul", items))

    def code(self, text: str, lang: str = "") -> None:
        self.blocks.append(("code", (text, lang)))

    def table(self, df: pd.DataFrame, caption: str = "") -> None:
        if len(df) > MAX_TABLE_ROWS:
            caption = (
                caption + " " if caption else ""
            ) + f"(first {MAX_TABLE_ROWS} of {len(df)} rows; all in the CSV)"
            df = df.head(MAX_TABLE_ROWS)
        self.blocks.append(("table", (df, caption)))

    def image(self, name: str, fig: Figure, alt: str) -> None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        self.blocks.append(("img", (name, buf.getvalue(), alt)))


def _html_inline(text: str) -> str:
    """Escape, then turn ``**bold**`` into <strong>."""
    parts = html.escape(text).split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


def _md_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    esc = [[str(v).replace("|", "\\|").replace("\n", " ") for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in esc]
    return "\n".join(lines)


def render_markdown(title: str, doc: Doc, report_dir: Path) -> str:
    """Markdown text; images are written into ``report_dir`` and linked by file name."""
    out = [f"# {title}", ""]
    for kind, value in doc.blocks:
        if kind == "h2":
            out += [f"## {value}", ""]
        elif kind in ("p", "note"):
            out += [value if kind == "p" else f"*{value}*", ""]
        elif kind == "ul":
            out += [f"- {item}" for item in value] + [""]
        elif kind == "code":
            text, lang = value
            fence = "````" if "```" in text else "```"
            out += [f"{fence}{lang}", text.rstrip("\n"), fence, ""]
        elif kind == "table":
            df, caption = value
            if caption:
                out += [f"*{caption}*", ""]
            out += [_md_table(df), ""]
        elif kind == "img":
            name, png, alt = value
            (report_dir / name).write_bytes(png)
            out += [f"![{alt}]({name})", ""]
    return "\n".join(out)


def render_html(title: str, doc: Doc) -> str:
    """A self-contained HTML page (inline CSS, images as base64 data URIs)."""
    body = [f"<h1>{html.escape(title)}</h1>"]
    for kind, value in doc.blocks:
        if kind == "h2":
            body.append(f"<h2>{html.escape(value)}</h2>")
        elif kind == "p":
            body.append(f"<p>{_html_inline(value)}</p>")
        elif kind == "note":
            body.append(f'<p class="note">{_html_inline(value)}</p>')
        elif kind == "ul":
            items = "".join(f"<li>{_html_inline(i)}</li>" for i in value)
            body.append(f'<ul class="summary">{items}</ul>')
        elif kind == "code":
            body.append(f"<pre><code>{html.escape(value[0])}</code></pre>")
        elif kind == "table":
            df, caption = value
            if caption:
                body.append(f'<p class="note">{html.escape(caption)}</p>')
            body.append(df.to_html(index=False, escape=True, na_rep="n/a", border=0))
        elif kind == "img":
            name, png, alt = value
            data = base64.b64encode(png).decode("ascii")
            body.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


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


def _versions(rs: ResultSet) -> pd.DataFrame:
    rows: list[tuple[str, str]] = []
    for key, value in (rs.manifest or {}).items():
        if isinstance(value, dict):
            rows += [(f"{key}.{k}", str(v)) for k, v in value.items()]
        elif not isinstance(value, list):
            rows.append((key, str(value)))
    for col in ("engine_version", "content_version", "package_version"):
        if col in rs.matches.columns:
            values = sorted(map(str, rs.matches[col].dropna().unique()))
            rows.append((f"matches.{col}", ", ".join(values) or "n/a"))
    return pd.DataFrame(rows, columns=["item", "value"])


def _cells_table(matches: pd.DataFrame) -> pd.DataFrame:
    """n per experiment cell (pairing of two teams, on a board): total, error-free, errors, draws."""
    m = matches.copy()
    ok = m.index.isin(stats.ok_matches(m).index)
    m["ok"] = ok
    m["draw"] = ok & stats.winner_series(m).isna()
    if {"ai0", "ai1", "swapped"} <= set(m.columns):  # AIs follow their team across the side swap
        swapped = m["swapped"].astype(bool)
        m["ai_a"] = m["ai0"].where(~swapped, m["ai1"])
        m["ai_b"] = m["ai1"].where(~swapped, m["ai0"])
    keys = [k for k in ("pairing", "team_a", "team_b", "board", "ai_a", "ai_b") if k in m.columns]
    g = m.groupby(keys, sort=True, dropna=False)
    out = pd.DataFrame({"n": g.size(), "ok": g["ok"].sum(), "draws": g["draw"].sum()}).reset_index()
    out["errors"] = out["n"] - out["ok"]
    return out


def _board_figures(rs: ResultSet) -> list[tuple[str, Figure]]:
    """Pictures of the experiment's boards (and pieces at the last recorded turn end, if events exist)."""
    from krosbalance.board import BOARDS_DIR, load_board_file
    from krosbalance.render.board_picture import plot_board, positions_at

    wanted = list(dict.fromkeys(map(str, stats.ok_matches(rs.matches).get("board", pd.Series(dtype=str)))))[
        :3
    ]
    found = {}
    for board_id in wanted:
        path = BOARDS_DIR / f"{board_id}.toml"
        if path.is_file():
            try:
                found[board_id] = load_board_file(path)
            except Exception:  # a broken board file is the content layer's problem, not the report's
                continue
    figs = []
    for board_id in wanted:
        if board_id not in found:
            continue
        pieces: list = []
        title = f"board {board_id}"
        ev = rs.events
        if ev is not None and {"kind", "turn", "positions", "match_id"} <= set(ev.columns):
            first = stats.ok_matches(rs.matches)
            first = first[first["board"] == board_id]
            if len(first):
                mid = int(first["match_id"].iloc[0])
                pieces = positions_at(ev[ev["match_id"] == mid].to_dict("records"))
                title += f", match {mid} at its last recorded turn end" if pieces else ""
        figs.append((board_id, plot_board(found[board_id], pieces, title=title)))
    return figs


# ------------------------------------------------------------------ sections
def _section(doc: Doc, title: str, build: Callable[[], None]) -> None:
    doc.h(title)
    try:
        build()
    except Exception as err:  # keep the rest of the report; tests make sure this never fires on valid data
        doc.p(f"This section could not be computed: {type(err).__name__}: {err}", note=True)


def build_document(rs: ResultSet) -> tuple[str, Doc, dict[str, pd.DataFrame]]:
    """Title, document and the derived tables (for CSV export) of one result set."""
    m, ok = rs.matches, rs.ok_matches
    name = str(
        (rs.manifest or {}).get("experiment")
        or (m["experiment"].iloc[0] if "experiment" in m.columns and len(m) else "experiment")
    )
    title = f"krosbalance report: {name}"
    tables: dict[str, pd.DataFrame] = {}
    win_rates = stats.character_win_rates(m)
    strength = adjusted_strength(m)
    first = stats.first_player_advantage(m)
    matchups = stats.matchup_matrix(m)
    dominated = balance_mod.dominated_teams(matchups)
    bal = balance_mod.balance_summary(m, strength=strength, win_rates=win_rates, matchups=matchups)
    damage = stats.damage_stats(m, rs.fighters)
    kos = stats.ko_stats(m, rs.fighters)
    length = stats.match_length_table(m)
    tables.update(
        win_rates=win_rates,
        adjusted_strength=strength,
        first_player=first,
        matchups=matchups,
        dominated_teams=dominated,
        balance=bal,
        damage=damage,
        ko=kos,
        match_length=length,
    )
    doc = Doc()
    enough = len(ok) > 0

    doc.h("Question")
    doc.p(spec_question(rs.spec_text) or "The experiment file states no question.")

    doc.h("Summary")
    doc.ul(
        narrative.summary_lines(
            n_total=len(m),
            n_ok=len(ok),
            win_rates=win_rates,
            strength=strength,
            first=first,
            matchups=matchups,
            dominated=dominated,
            balance=bal,
        )
    )
    doc.p(
        "95% intervals throughout: Wilson for proportions, Student t for means, Wald for model coefficients, "
        "simulation intervals for balance scores. "
        "Draws count as non-wins in win rates unless a table says 'decided matches'.",
        note=True,
    )

    def s_data() -> None:
        reasons = ok["end_reason"].value_counts().to_dict() if enough else {}
        doc.p(
            f"{len(m)} matches, {len(ok)} error-free, {len(m) - len(ok)} with errors. "
            f"End reasons: {', '.join(f'{k} {v}' for k, v in sorted(reasons.items())) or 'none'}."
        )
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
            doc.table(cells, "n per cell (a pairing of teams A and B on one board with one AI matchup).")

    def s_win_rates() -> None:
        if win_rates.empty:
            doc.p("Not enough data: no error-free match.")
            return
        t = win_rates[["character", "n", "wins", "draws", "losses"]].copy()
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
                doc.table(strength[["term", "kind", "n", "note"]])
            return
        t = strength[["term", "kind", "n"]].copy()
        t["coef [95% CI]"] = _ci_col(strength, "coef", "ci_low", "ci_high")
        t["p"] = [fmt(p, 3) for p in strength["p_value"]]
        t["method"] = strength["method"]
        t["note"] = strength["note"]
        doc.p(
            "Logistic model of P(side 0 wins) over decided matches: one log-odds effect per character "
            "(copies on side 0 minus side 1), effects summing to zero (0 = average character), an intercept "
            "for side 0, and terms for playing first and for team size when they vary.",
            note=True,
        )
        doc.table(t)
        doc.image(
            "strength_forest.png", plots.plot_strength_forest(strength), "adjusted strength forest plot"
        )

    def s_balance() -> None:
        t = bal[["metric"]].copy()
        t["value [95% CI]"] = _ci_col(bal, "value", "ci_low", "ci_high", digits=3)
        t["n"] = bal["n"]
        t["detail"] = bal["detail"]
        doc.p(
            "Ludii-style balance = 1 - (max - min) win rate over seats (1 = perfectly even). "
            "Adjusted character balance = 2*expit(-spread). Dominated team = Wilson upper bound below 50% "
            "against every opponent it met.",
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
        doc.p(narrative.first_player_finding(first, strength))
        doc.table(t)
        doc.image("first_player.png", plots.plot_first_player(first), "first-player advantage")

    def s_matchups() -> None:
        cells = matchups[matchups["team"] != matchups["opponent"]] if not matchups.empty else matchups
        if cells.empty:
            doc.p("Not enough data: no two different teams met.")
            return
        t = cells.assign(_d=(cells["win_rate"] - 0.5).abs()).sort_values(["_d", "n"], ascending=False)
        show = t[["team", "opponent", "n", "wins", "draws"]].copy()
        show["win rate [95% CI]"] = _ci_col(t, "win_rate", "ci_low", "ci_high", as_pct=True)
        doc.p(narrative.matchup_finding(matchups))
        doc.p(narrative.dominated_finding(dominated))
        if not dominated.empty:
            doc.table(dominated.assign(win_rate=[fmt(x, 3) for x in dominated["win_rate"]]))
        doc.image("matchups.png", plots.plot_matchup_heatmap(matchups), "matchup heatmap")
        doc.table(show, "Each matchup from the row team's point of view, most lopsided first.")

    def s_damage() -> None:
        if damage.empty:
            doc.p("Not enough data: no fighter rows for error-free matches.")
            return
        t = damage[["character", "n"]].copy()
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
            k = kos[["character", "n", "knocked_out"]].copy()
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
        doc.image("match_length.png", plots.plot_match_length(m), "match length")

    def s_board() -> None:
        figs = _board_figures(rs)
        if not figs:
            doc.p("No picture: the experiment's board is not among the shipped board files.", note=True)
        for board_id, fig in figs:
            doc.image(f"board_{board_id}.png", fig, f"board {board_id}")

    def s_errors() -> None:
        errs = rs.error_matches
        logged = rs.errors if rs.errors is not None else pd.DataFrame()
        if not logged.empty:
            doc.p(
                f"The runner's error log holds {len(logged)} entr{'y' if len(logged) == 1 else 'ies'} (errors/*.parquet)."
            )
        if errs.empty:
            doc.p("No match ended in an error.")
            return
        cols = [c for c in ("match_id", "seed", "team0", "team1", "board", "error") if c in errs.columns]
        t = errs[cols].copy()
        if "error" in t.columns:
            t["error"] = t["error"].astype(str).str.slice(0, 200)
        doc.table(t, f"{len(errs)} match(es) excluded from every statistic.")

    for heading, build in (
        ("Data", s_data),
        ("Character win rates (raw)", s_win_rates),
        ("Teammate-adjusted strength", s_strength),
        ("Balance summary", s_balance),
        ("First-player advantage", s_first),
        ("Matchups", s_matchups),
        ("Damage and knock-outs", s_damage),
        ("Match length and endings", s_length),
        ("Board", s_board),
        ("Errors", s_errors),
    ):
        _section(doc, heading, build)
    if rewards_mod.has_reward_data(m, rs.fighters):
        _section(doc, "Demonic Rewards", lambda: rewards_mod.report_section(doc, m, rs.fighters, tables))

    doc.h("Experiment spec")
    if rs.spec_text:
        doc.code(rs.spec_text, "toml")
    else:
        doc.p("No experiment.toml was found beside the results.")
    doc.h("Versions")
    versions = _versions(rs)
    if versions.empty:
        doc.p("No version information.")
    else:
        doc.table(versions)
    return title, doc, tables


def write_report(results_dir: Path, report_dir: Path) -> Path:
    """Write ``report.html`` (self-contained) and ``report.md`` (+ PNGs and CSVs) into ``report_dir``.

    Args:
        results_dir: a result directory written by the runner (see :class:`ResultSet`).
        report_dir: where to write; created if missing.

    Returns:
        The path of ``report.html``.
    """
    rs = ResultSet.load(Path(results_dir))
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


__all__ = ["write_report", "build_document", "spec_question", "render_html", "render_markdown"]
