"""The fix finder's answer leads with the patch and says why when it is "no change"."""

from __future__ import annotations

from krosbalance.studies.patches.fix_answer import why_no_change


def test_no_change_because_every_figure_is_inside_the_band() -> None:
    proposal = {"predicted": [{"before": 0.1}, {"before": -0.05}], "slopes": [], "unused": []}
    assert "already within ±0.15" in why_no_change(proposal, 0.15)


def test_no_change_because_no_slope_is_told_from_zero() -> None:
    proposal = {
        "predicted": [{"before": 0.6}],
        "slopes": [("hp", 0.05, -0.02, 0.12)],
        "unused": ["hp"],
        "against": [],
    }
    why = why_no_change(proposal, 0.15)
    assert "interval of every probed value's slope holds 0" in why and "hp" in why


def test_no_change_with_usable_slopes_says_the_bounds_stop_it() -> None:
    proposal = {
        "predicted": [{"before": 0.6}],
        "slopes": [("hp", 0.1, 0.05, 0.15)],
        "unused": [],
        "against": [],
    }
    assert "within the bounds" in why_no_change(proposal, 0.15)
