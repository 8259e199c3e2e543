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


def test_why_gives_the_predicted_effect_with_its_interval() -> None:
    from krosbalance.analysis.names import display_name
    from krosbalance.content.registry import list_characters
    from krosbalance.studies.patches.fix_answer import _why

    far, near = list_characters(set="arena-box")[:2]
    proposal = {
        "predicted": [
            {
                "term": near,
                "before": 0.1,
                "before_se": 0.05,
                "predicted": 0.08,
                "ci_low": -0.02,
                "ci_high": 0.18,
            },
            {
                "term": far,
                "before": -0.6,
                "before_se": 0.1,
                "predicted": -0.05,
                "ci_low": -0.2,
                "ci_high": 0.1,
            },
        ]
    }
    why = _why(proposal)  # no change proposed: the farthest figure makes the case
    assert why.startswith(f"{display_name(far)} -0.60 [-0.80, -0.40] before → predicted -0.05 [-0.20, 0.10]")
    assert "win against the average)" in why  # the win % beside the log-odds


def test_a_fix_study_opens_with_the_patch_and_is_verified_by_the_strongest_ai(tiny_file, tmp_path) -> None:
    """Verified by random and focus-fire: the verification's answer is focus-fire's, random beside it;
    the first picture is the patch (before, predicted, measured), not the character verdict."""
    from krosbalance.analysis.report import build_report
    from krosbalance.analysis.staged import load_staged
    from krosbalance.studies.patches.fix_answer import fix_answer
    from krosbalance.studies.patches.fix_verdict import BEFORE, PREDICTED
    from krosbalance.studies.patches.fixer import run_fix

    text = tiny_file.read_text(encoding="utf-8").replace(
        "rounds = 2", 'rounds = 1\nverify_ais = ["focus-fire"]'
    )
    tiny_file.write_text(text, encoding="utf-8")
    run_fix(tiny_file, tmp_path / "out", progress=False)
    rs = load_staged(tmp_path / "out")
    lines = fix_answer(rs)
    assert lines[0].startswith(("Proposed patch (round 1)", "No change proposed (round 1)"))
    assert lines[1].startswith("Verified on fresh seeds under focus-fire, the strongest validated AI played")
    assert "next AI down, random" in lines[1] and "too few" in lines[1]  # two deals: said honestly
    built = build_report(rs)
    assert built.answer == lines
    name, _png, alt = built.doc.blocks[1][1]
    assert name == "verdict.png" and alt == "verdict: proposed patch (fix finder) per AI"
    groups = set(built.tables["verdict"]["group"])
    assert {BEFORE, PREDICTED} <= groups and any("focus-fire" in g for g in groups)
