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
