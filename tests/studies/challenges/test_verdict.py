"""The challenges study's verdict picture: a Blast report leads with each challenge's effect (moved
from tests/analysis/test_verdict.py)."""

from __future__ import annotations

from krosbalance.analysis.report import build_document
from krosbalance.analysis.resultset import ResultSet
from tests.analysis.verdict_checks import assert_report_leads_with_the_answer


def test_a_blast_report_leads_with_each_challenges_effect() -> None:
    from tests.studies.challenges.test_tables import table

    m = table(40).assign(team_a="a,b", team_b="c,d", pairing=0, deal=lambda t: t["seed"])
    m["winner_team"] = m["winner"].map({0: "A", 1: "B"}).astype(object)  # never swapped: side 0 is A
    _, doc, tables = build_document(ResultSet(m))
    assert_report_leads_with_the_answer(doc, tables, "Divine Challenge effect")
    assert len(tables["verdict"]) == 1  # one challenge arm, one AI
