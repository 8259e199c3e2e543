"""The verdict picture: every figure marked, one panel per arm when the rows name one."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from krosbalance.analysis import verdict as vd  # noqa: E402
from krosbalance.analysis.verdict_plot import arms_of, plot_verdict  # noqa: E402
from tests.analysis.test_verdict import frame  # noqa: E402


def test_the_picture_marks_every_figure_and_handles_no_data() -> None:
    data = frame(
        [("a", "search", 0.5, 0.3, 0.7), ("a", "heuristic", 0.6, 0.4, 0.8), ("b", "search", 0, -1, 1)]
    )
    fig = plot_verdict(vd.Verdict("strength", "log-odds", data))
    assert isinstance(fig, Figure) and len(fig.axes) >= 1
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count(vd.UNDECIDED) == 1 and texts.count("one tier") == 1
    assert "search and heuristic" in fig.axes[0].get_title()
    empty = plot_verdict(vd.Verdict("strength", "log-odds", vd.verdict_frame([])))
    assert "not enough data" in empty.axes[0].texts[0].get_text()


def test_rows_named_per_arm_are_drawn_one_panel_per_arm_on_one_scale() -> None:
    rows = [
        (f"{name} · {arm}", tier, est, est - 0.2, est + 0.2)
        for arm in ("free_for_all", "two_vs_two")
        for name, est in (("Queen", 0.5), ("Anna", -0.5), ("King", 0.1))
        for tier in ("search", "heuristic")
    ]
    fig = plot_verdict(vd.Verdict("strength at the table", "log-odds", frame(rows)))
    panels = [ax for ax in fig.axes if ax.get_yticklabels()]
    assert [ax.get_title() for ax in panels] == ["free for all", "two vs two"]
    for ax in panels:  # the arm is the panel's title, not repeated on every row
        assert sorted(t.get_text() for t in ax.get_yticklabels()) == ["Anna", "King", "Queen"]
        assert len(ax.texts) == 3  # each row marked
    assert panels[0].get_xlim() == panels[1].get_xlim()
    assert "search and heuristic" in fig.get_suptitle()
    height = fig.get_size_inches()[1]
    stacked = plot_verdict(
        vd.Verdict("s", "log-odds", frame([(r[0].replace(" · ", " - "), *r[1:]) for r in rows]))
    )
    assert height < stacked.get_size_inches()[1]  # half the rows a panel: a shorter picture


def test_arms_need_every_row_named_and_two_arms() -> None:
    assert arms_of(["a · x", "b · y"]) == ["x", "y"]
    assert arms_of(["a · x", "b · x"]) == [] and arms_of(["a · x", "b"]) == [] and arms_of([]) == []


def test_the_compared_ais_intervals_set_the_scale_and_each_group_has_one_legend_entry() -> None:
    rows = [
        ("a · x", "search", 0.5, 0.4, 0.6),
        ("a · x", "heuristic", 0.3, 0.1, 0.5),
        ("a · x", "baseline", -5.0, -12.0, 3.0),  # a weak AI's wide interval runs off the edge
        ("b · y", "search", -0.2, -0.3, -0.1),
        ("b · y", "heuristic", -0.4, -0.6, -0.2),
        ("b · y", "baseline", 2.0, -6.0, 9.0),
    ]
    fig = plot_verdict(vd.Verdict("strength", "log-odds", frame(rows)))
    lo, hi = fig.axes[0].get_xlim()
    assert -0.8 < lo < -0.6 and 0.6 < hi < 0.8
    legend = fig.legends[0]
    assert sorted(t.get_text() for t in legend.get_texts()) == [
        "baseline, n=50",
        "heuristic, n=50",
        "search, n=50",
    ]
