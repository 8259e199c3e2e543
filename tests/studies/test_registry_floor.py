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


#: what each optional part's module must offer (the callers: sim.target, cli.cost, cli)
PART_INTERFACE = {
    "target": ("QUANTITY", "UNIT", "problem", "half_widths"),
    "command": ("add_parser",),
}


def test_every_declared_part_is_a_module_with_its_interface() -> None:
    from krosbalance.study_registry import PARTS, list_studies, studies_with, study_part

    declared = 0
    for part in PARTS:
        for study in studies_with(part):
            module = study_part(study, part)
            declared += 1
            assert module is not None, (study.name, part)
            if part == "planner":  # validate counts a staged study's matches by one of the two
                assert hasattr(module, "planned_stages") or hasattr(module, "planned_matches"), study.name
            for name in PART_INTERFACE.get(part, ()):
                assert hasattr(module, name), (study.name, part, name)
    assert declared >= 1
    for name in list_studies():  # a study without a part is asked for it and has none
        study = get_study(name)
        for part in PARTS:
            if study not in studies_with(part):
                assert study_part(study, part) is None


def test_a_staged_study_that_declares_a_target_says_where_its_stages_take_it() -> None:
    from krosbalance.study_registry import list_studies, studies_with, study_part

    planners = {s.name for s in studies_with("planner")}
    targets = {s.name for s in studies_with("target")}
    assert planners and set(planners) | set(targets) <= set(list_studies())
    for study in studies_with("target"):
        if study.name in planners:  # its file's own [target] is refused, naming the stage's key
            assert study_part(study, "target").IN_STAGES, study.name


def test_an_unknown_part_is_refused_when_the_study_registers() -> None:
    import pytest

    from krosbalance.study_registry import register_study

    class Stray:
        name = "stray-study-for-a-test"
        version = 1

    with pytest.raises(ValueError, match="unknown part"):
        register_study(Stray(), parts={"targett": "x"})  # type: ignore[arg-type]
    from krosbalance.study_registry import list_studies

    assert Stray.name not in list_studies()
