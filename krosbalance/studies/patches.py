"""Balance patches: arms that play changed cards (a variant's ``patch``, a ``[sweep]`` of a figure's
values) and the fix finder (``[fix]``). A patch every arm plays (``patch =``, ``run --patch``) is no
study of its own: its "Balance patches" section shows in any study's report."""

from __future__ import annotations

from krosbalance.studies.registry import ExperimentShape, register_study
from krosbalance.studies.shapes import sweep_target

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


register_study(PatchesStudy())
