from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from krosbalance.analysis.report import spec_question, write_report
from tests.analysis.fixtures import SPEC_TEXT, planted_tables, write_results


def _check(report_dir: Path, html_path: Path) -> tuple[str, str]:
    assert html_path == report_dir / "report.html" and html_path.is_file()
    html = html_path.read_text(encoding="utf-8")
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    assert "could not be computed" not in html, html  # no section fell over
    assert "could not be computed" not in md
    return html, md


def test_full_report(tmp_path, small) -> None:
    m, f = small
    res = write_results(tmp_path / "res", m, f)
    out = tmp_path / "rep"
    html, md = _check(out, write_report(res, out))
    assert html.count("data:image/png;base64,") >= 6
    assert "Is the star too strong" in html and "Is the star too strong" in md
    assert "[teams]" in md and "```toml" in md  # spec verbatim
    assert "arena-1" in html  # versions
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert {"win_rates.png", "strength_forest.png", "matchups.png", "first_player.png"} <= set(pngs)
    for name in pngs:
        assert f"]({name})" in md
    assert "match(es) ended in an error" in md
    assert (out / "tables" / "adjusted_strength.csv").is_file()
    assert "[" in md and "%" in md  # numbers come with intervals


def _degenerate(kind: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    if kind == "one match":
        m, f = planted_tables(n_pairings=1, seed=3, draw_rate=0.0)
        return m.iloc[:1], f[f["match_id"] == m["match_id"].iloc[0]]
    if kind == "all draws":
        return planted_tables(n_pairings=4, seed=3, draw_rate=1.0)
    if kind == "all errors":
        return planted_tables(n_pairings=2, seed=3, error_rate=1.0)
    if kind == "character absent":
        m, f = planted_tables(n_pairings=30, seed=3, max_teams=12)
        keep = ~m["team_a"].str.contains("star") & ~m["team_b"].str.contains("star")
        m = m[keep]
        return m, f[f["match_id"].isin(m["match_id"])]
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["one match", "all draws", "all errors", "character absent"])
def test_degenerate_data_does_not_crash(tmp_path, kind) -> None:
    m, f = _degenerate(kind)
    res = write_results(tmp_path / "res", m, f, spec_text='description = "degenerate"\n')
    html, md = _check(tmp_path / "rep", write_report(res, tmp_path / "rep"))
    assert "degenerate" in md
    if kind in ("all draws", "all errors"):
        assert "ot enough data" in md
    if kind == "one match":  # one match proves nothing: no claim may be made
        assert "excludes zero" not in md and "significantly more" not in md and "excludes 50%" not in md
    if kind == "character absent":
        assert "**star**" not in md


def test_report_without_spec_or_manifest(tmp_path) -> None:
    m, f = planted_tables(n_pairings=3, seed=9)
    (tmp_path / "res" / "matches").mkdir(parents=True)
    m.to_parquet(tmp_path / "res" / "matches" / "part-0.parquet")
    html, md = _check(tmp_path / "rep", write_report(tmp_path / "res", tmp_path / "rep"))
    assert "states no question" in md and "No experiment.toml" in md


def test_spec_question() -> None:
    assert spec_question(SPEC_TEXT).startswith("Is the star")
    assert spec_question('[experiment]\ndescription = "why"\n') == "why"
    assert spec_question("not = [valid") == ""
    assert spec_question("") == ""


def test_report_draws_a_shipped_board(tmp_path) -> None:
    import krosbalance.board as board_mod

    path = board_mod.BOARDS_DIR / "test-open-5x5.toml"
    m, f = planted_tables(n_pairings=4, seed=5, max_teams=4)
    m["board"] = board_mod.load_board_file(path).id
    res = write_results(tmp_path / "res", m, f)
    html, md = _check(tmp_path / "rep", write_report(res, tmp_path / "rep"))
    assert (tmp_path / "rep" / f"board_{m['board'].iloc[0]}.png").is_file()


FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "results-small"


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("rep")
    write_report(FIXTURE, out)
    return (out / "report.md").read_text(encoding="utf-8")


def test_report_on_real_results_speaks_in_display_names(fixture_report) -> None:
    from krosbalance.content.registry import list_characters, load_character

    body = fixture_report.split("## Experiment spec")[0]  # the spec is quoted verbatim, ids and all
    for char_id in list_characters():
        if char_id in FIXTURE.joinpath("experiment.toml").read_text():
            assert load_character(char_id).name in body
            assert char_id not in body, char_id


def test_report_states_the_ais_their_tiers_and_warns_when_not_validated(fixture_report) -> None:
    from krosbalance.ai.ladder import load_ladder

    summary = fixture_report.split("## Summary")[1].split("## AIs")[0]
    assert "AIs used: random (baseline;" in summary and "focus-fire (heuristic;" in summary
    standing = load_ladder()
    unvalidated = [a for a in ("random", "focus-fire") if not (a in standing and standing[a].validated)]
    assert ("**Warning: not validated AIs" in summary) == bool(unvalidated)
    section = fixture_report.split("## AIs")[1].split("## Data")[0]
    assert "| ai | tier | ladder rating [95% CI] |" in section


def test_report_compares_ais_and_boards(fixture_report) -> None:
    section = fixture_report.split("## How much the verdict depends on the AI and the board")[1].split("## ")[
        0
    ]
    assert "**Headline numbers per AI**" in section and "**Headline numbers per board**" in section
    assert "focus-fire (n=" in section and "random (n=" in section and "pooled (n=" in section
    assert "Kendall's tau between AIs" in section and "Kendall's tau between boards" in section
    assert "(assumed layout)" in section  # boards are shown by their display names
    assert "Assumed layout:" in fixture_report.split("## Board")[1]


def test_ladder_experiments_get_a_ladder_section_and_summary_line(tmp_path) -> None:
    from tests.analysis.fixtures import planted_ladder

    m = planted_ladder(n_deals=40)
    res = write_results(tmp_path / "res", m, pd.DataFrame({"match_id": pd.Series(dtype="int64")}))
    html, md = _check(tmp_path / "rep", write_report(res, tmp_path / "rep"))
    assert "## AI ladder" in md and "![AI ladder ratings](ladder.png)" in md
    assert "- AI ladder (Bradley-Terry log-odds):" in md
    assert (tmp_path / "rep" / "tables" / "ladder_ratings.csv").is_file()


def test_a_single_opponent_loss_is_never_called_dominated_in_the_balance_table(tmp_path) -> None:
    rows = []
    for i, (a, b) in enumerate([("x,y", "z,w"), ("u,v", "s,t")]):
        for k in range(30):
            rows.append(
                {
                    "match_id": 60 * i + 2 * k,
                    "pairing": i,
                    "deal": k,
                    "swapped": False,
                    "team_a": a,
                    "team_b": b,
                    "team0": a,
                    "team1": b,
                    "winner": 1,
                    "winner_team": "B",
                    "first_player": k % 2,
                    "end_reason": "gg",
                    "error": "",
                    "turns": 9,
                    "ai0": "g",
                    "ai1": "g",
                    "board": "tiny",
                }
            )
            rows.append(
                {
                    **rows[-1],
                    "match_id": 60 * i + 2 * k + 1,
                    "swapped": True,
                    "team0": b,
                    "team1": a,
                    "winner": 0,
                }
            )
    m = pd.DataFrame(rows).astype({"winner": "Int64"})
    res = write_results(tmp_path / "res", m, pd.DataFrame({"match_id": pd.Series(dtype="int64")}))
    _, md = _check(tmp_path / "rep", write_report(res, tmp_path / "rep"))
    balance = md.split("## Balance summary")[1].split("## ")[0]
    assert "| dominated teams | 0.000 |" in balance and "| lost its only matchup | 2.000 |" in balance
    assert "lost to the only opponent they met" in md
