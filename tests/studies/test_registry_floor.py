"""The study registry stands below ``sim`` and ``analysis`` (krosbalance.study_registry): what the
layers below the studies used to find by a study's name or by a file name, the studies now register."""

from __future__ import annotations

from krosbalance.studies.teams import experiment as teams_experiment
from krosbalance.study_registry import (
    get_study,
    study_of_stage_kind,
    study_sections,
    team_mode_parser,
)


def test_the_team_study_registers_every_team_mode_its_parser_reads() -> None:
    for mode in teams_experiment.TEAM_MODES:
        assert team_mode_parser(mode) is not None
    assert team_mode_parser("pairs") is None  # the experiment file's own modes are no study's


def test_a_team_ladder_stage_kind_is_the_team_study() -> None:
    assert study_of_stage_kind("team_ladder") is get_study("teams")
    assert study_of_stage_kind("") is None


def test_the_patched_arms_section_comes_from_the_patches_study_with_its_header() -> None:
    sections = {s.name: s for s in study_sections()}
    assert sections["balance_patches"].header is not None
    assert "balance_patches" not in get_study("patches").sections  # shown in any study's report


def test_the_old_import_paths_still_serve() -> None:
    from krosbalance import study_registry
    from krosbalance.studies import get_study as old_get_study
    from krosbalance.studies.registry import team_mode_parser as old_parser

    assert old_get_study is study_registry.get_study
    assert old_parser is study_registry.team_mode_parser
