"""Balance patches: arms that play changed cards (a variant's ``patch``, a ``[sweep]`` of a figure's
values) and the fix finder (``[fix]``). A patch every arm plays (``patch =``, ``run --patch``) is no
study of its own: its "Balance patches" section shows in any study's report."""

from __future__ import annotations

from typing import Any

from krosbalance.studies.shapes import sweep_target
from krosbalance.study_registry import ExperimentShape, StageRunner, StudySection, register_study

#: sweeps that other studies own (a reward's price, a challenge's tier threshold)
OTHER_SWEEPS = ("reward", "challenge")


class PatchesStudy:
    name = "patches"
    version = 1
    sections: tuple[str, ...] = ("fix_finder",)

    def claims(self, experiment: ExperimentShape) -> bool:
        """A ``[fix]`` table, or arms of their own patch that no other study's sweep made."""
        if experiment.fix:
            return True
        return bool(experiment.arm_patches) and sweep_target(experiment) not in OTHER_SWEEPS

    def stage_runner(self, experiment: ExperimentShape) -> StageRunner | None:
        """A ``[fix]`` table: the fix finder's rounds (:mod:`.planner`); patched arms without one are played once."""
        if not experiment.fix:
            return None
        from krosbalance.studies.patches.planner import run_fix_study  # heavy: pandas, scipy, statsmodels

        return run_fix_study

    def report_sections(self) -> tuple[StudySection, ...]:
        """The fix finder's rounds, its picture the patch and why; and the patched arms' section,
        which no study owns (not in :attr:`sections`): a patch every arm plays shows in any study's
        report, with a note under its question (``header``)."""
        from krosbalance.studies.patches import fix_section, section  # heavy: matplotlib, pandas, scipy
        from krosbalance.studies.patches.fix_verdict import fix_verdict  # heavy: matplotlib, pandas, scipy
        from krosbalance.studies.patches.verdict import patch_verdict  # heavy: matplotlib, pandas, scipy

        return (
            StudySection(
                "fix_finder",
                fix_section.add_report_section,
                leading=True,
                mode=True,
                verdict=fix_verdict,
                rank=50,
            ),
            StudySection(
                "balance_patches",
                section.add_report_section,
                leading=True,
                mode=True,
                verdict=patch_verdict,
                rank=40,
                header=section.add_header,
            ),
        )

    def answer(self, rs: Any, tables: dict[str, Any]) -> list[str]:
        """The fix finder leads with its patch and why (:func:`~krosbalance.studies.patches.fix_answer.fix_answer`);
        any other patch study, with the report's picture in one or two sentences
        (:func:`~krosbalance.analysis.answers.section_answer`)."""
        from krosbalance.analysis.answers import section_answer  # heavy: matplotlib, pandas, scipy
        from krosbalance.studies.patches.fix_answer import fix_answer  # heavy: matplotlib, pandas, scipy

        return fix_answer(rs) or section_answer(self, rs, tables)


register_study(
    PatchesStudy(),
    parts={"planner": "krosbalance.studies.patches.planner", "target": "krosbalance.studies.patches.target"},
)
