"""The report's ruleset sections: each ruleset names its own, the analysis maps the names."""

from __future__ import annotations

import pandas as pd
import pytest

from krosbalance.analysis import sections
from krosbalance.analysis.resultset import ResultSet
from krosbalance.errors import ContentError
from krosbalance.rulesets import registry
from krosbalance.rulesets.registry import get_ruleset, list_rulesets


def _result_set(rulesets: list[str]) -> ResultSet:
    matches = pd.DataFrame({"ruleset": rulesets, "match_id": range(len(rulesets))})
    return ResultSet(matches=matches)


def test_every_shipped_ruleset_declares_known_sections() -> None:
    known = set(sections.known_sections())
    for name in list_rulesets():
        assert set(get_ruleset(name).report_sections) <= known, name


def test_a_ruleset_brings_its_sections_blast_leading_arena_after() -> None:
    blast = sections.ruleset_sections(_result_set(["blast", "blast"]))
    arena = sections.ruleset_sections(_result_set(["arena[mode=two_vs_two, turn_limit=320]"]))
    assert [s.name for s in blast if not s.mode] == ["divine_challenges"] and blast[0].leading
    assert [s.name for s in arena if not s.mode] == ["demonic_rewards"] and not arena[0].leading


def test_results_without_a_ruleset_column_are_arena_and_unknown_rulesets_add_nothing() -> None:
    old = ResultSet(matches=pd.DataFrame({"match_id": [0]}))
    assert sections.played_rulesets(old) == ["arena"]
    assert [s.name for s in sections.ruleset_sections(_result_set(["from-elsewhere"])) if not s.mode] == []


def test_a_declared_section_without_analysis_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Checkers:
        report_sections = ("no_such_study",)

    monkeypatch.setitem(registry._RULESETS, "checkers-sections", lambda options, file="": Checkers())
    real_get_ruleset = registry.get_ruleset

    def get_ruleset_or_checkers(name: str, *args: object, **kwargs: object) -> object:
        # The compiled registry only returns real Rulesets, so the stand-in goes in at lookup.
        return Checkers() if name == "checkers-sections" else real_get_ruleset(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(registry, "get_ruleset", get_ruleset_or_checkers)
    monkeypatch.setattr(sections, "get_ruleset", get_ruleset_or_checkers)  # the name it imported
    with pytest.raises(ContentError, match="ruleset 'checkers-sections'.*no_such_study"):
        sections.ruleset_sections(_result_set(["checkers-sections"]))
