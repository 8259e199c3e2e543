"""The check every report passes, whatever its study: it opens with its verdict picture, then a
summary of at most five lines (shared by the report tests of each study)."""

from __future__ import annotations

from typing import Any

from krosbalance.analysis.verdict import MAX_SUMMARY


def assert_report_leads_with_the_answer(doc: Any, tables: dict[str, Any], study: str) -> None:
    """The first heading is the verdict, whose first block is the verdict picture (the report's first
    figure); the second heading is the summary, a list of at most five lines; ``tables["verdict"]``
    holds the picture's data, of this ``study``, each figure marked."""
    kinds = [kind for kind, _ in doc.blocks]
    headings = [(i, value) for i, (kind, value) in enumerate(doc.blocks) if kind == "h2"]
    assert headings[0] == (0, "Verdict"), headings[:3]
    assert kinds.index("img") == 1
    name, _png, alt = doc.blocks[1][1]
    assert name == "verdict.png" and alt == f"verdict: {study} per AI"
    summary_at = headings[1][0]
    assert headings[1][1] == "Summary"
    assert all(kind in ("note", "p") for kind in kinds[2:summary_at])  # captions only in between
    kind, lines = doc.blocks[summary_at + 1]
    answer = [line for line in lines if line.startswith("**Answer:** ")]
    assert lines[: len(answer)] == answer and len(answer) <= 2  # the study's answer leads
    assert kind == "ul" and 1 <= len(lines) - len(answer) <= MAX_SUMMARY
    assert lines[len(answer)].startswith("Based on ")
    verdict = tables["verdict"]
    assert len(verdict) and {"figure", "group", "tier", "est", "ci_low", "ci_high", "n", "status"} <= set(
        verdict.columns
    )
    assert set(verdict["status"]) <= {"settled", "still moving", "undecided", "one tier"}
    assert_the_answer_is_the_top_ais(verdict, [line.removeprefix("**Answer:** ") for line in answer])


def assert_the_answer_is_the_top_ais(verdict: Any, answer: list[str]) -> None:
    """When the picture's rows name their AI, the answer's first line names the strongest of them
    (the ladder's order, :mod:`krosbalance.analysis.top_ai`) and no other AI before it."""
    from krosbalance.analysis.top_ai import top_ais

    named = verdict[verdict["ai"].astype(str) != ""] if "ai" in verdict.columns else verdict.iloc[0:0]
    if named.empty or not answer:
        return
    tiers = dict(zip(named["ai"].astype(str), named["tier"].astype(str), strict=True))
    top = top_ais(tiers, "arena", tiers=tiers)
    assert top is not None and top.top in answer[0], (top, answer[0])
    first = answer[0].index(top.top)
    assert not any(other in answer[0][:first] for other in top.others() if other not in top.top)
