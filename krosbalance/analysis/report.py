"""The experiment report's shell: one HTML file (images embedded) and one Markdown file (PNGs beside it).

:func:`write_report` opens a result directory, and :func:`build_document` writes the same content
twice (:mod:`document`); every derived table is also saved as CSV (ids, not display names: they are
data). The shell names no study: it asks the registry (:mod:`krosbalance.studies`) for the sections
of the study the results folder records (:func:`~krosbalance.analysis.sections.folder_study`) and of
the rulesets it played, and asks the default study for the common part of every report
(:class:`~krosbalance.analysis.document.ReportBody`: per-figure strength, the AIs, the data...).
Small or degenerate data gives "not enough data" in the affected sections, never a crash; a section
that fails unexpectedly says so in place and the rest is written.

A report leads with its answer: first the verdict picture (:mod:`krosbalance.analysis.verdict`: the
first section's study picture the result set holds, else each figure's strength per AI with 95%
intervals, marked settled, still moving or undecided), the study's answer under the strongest
validated AI played with one clause on the next AI down (:mod:`krosbalance.analysis.headline`), then a
summary of at most five lines, then the detail: the question, every finding, the same figures under
the other AIs (a comparison, not the answer), the leading sections (a study's own, e.g. Seats, Teams, Boards), the common
sections, the other sections, the experiment file and the versions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pandas as pd

from krosbalance.analysis import stats
from krosbalance.analysis import verdict as verdict_mod
from krosbalance.analysis.ais import ai_table
from krosbalance.analysis.answers import report_verdict, win_rate_line
from krosbalance.analysis.design import weights
from krosbalance.analysis.document import Doc, ReportBody, render_html, render_markdown
from krosbalance.analysis.headline import comparison_lines
from krosbalance.analysis.resultset import ResultSet, spec_question
from krosbalance.analysis.scan import Summary
from krosbalance.analysis.sections import default_study, folder_study, report_headers, ruleset_sections
from krosbalance.analysis.staged import load_staged
from krosbalance.analysis.verdict import Verdict
from krosbalance.analysis.verdict_plot import plot_verdict
from krosbalance.sim.stages import is_staged
from krosbalance.sim.target import target_lines


def _versions(rs: ResultSet, summary: Summary) -> pd.DataFrame:
    rows: list[tuple[str, str]] = []
    for key, value in (rs.manifest or {}).items():
        if key == "meta":  # a staged study's settings (krosbalance.sim.stages): its own section shows them
            continue
        if isinstance(value, dict):
            rows += [(f"{key}.{k}", str(v)) for k, v in value.items()]
        elif not isinstance(value, list):
            rows.append((key, str(value)))
    for col, values in summary.versions.items():
        rows.append((f"matches.{col}", ", ".join(values) or "n/a"))
    return pd.DataFrame(rows, columns=["item", "value"])


def _section(doc: Doc, title: str, build: Callable[[], None]) -> None:
    doc.h(title)
    try:
        build()
    except Exception as err:  # keep the rest of the report; tests make sure this never fires on valid data
        doc.p(f"This section could not be computed: {type(err).__name__}: {err}", note=True)


def _verdict_section(
    doc: Doc,
    answer: Verdict,
    question: str,
    tables: dict[str, pd.DataFrame],
    headline: list[str] | None = None,
) -> None:
    """The report's first section: the verdict picture, the study's answer in words right under it
    (on the first screen), what the picture shows and the question it answers."""
    doc.h("Verdict")
    doc.image("verdict.png", plot_verdict(answer), f"verdict: {answer.study} per AI")
    for line in (headline or [])[:2]:  # the top AI's answer and the next AI down's clause
        doc.p(f"**{line}**")
    conv = (
        verdict_mod.convergence(answer.data, answer.as_pct, answer.ruleset)
        if not answer.data.empty
        else pd.DataFrame()
    )
    tables["verdict"] = (
        answer.data.merge(conv[["figure", "status"]], on="figure", how="left") if len(conv) else answer.data
    )
    doc.p(
        f"{answer.caption} The answer is the strongest validated AI's (the AI ladder's order, for the ruleset "
        "played); marked settled when its estimate and the next AI down's agree within ±0.15 log-odds (±3.75 "
        "points for a win rate; two one-sided tests at 5%), still moving when they differ beyond the noise, "
        "undecided when the matches cannot tell (one AI: not judged). A picture whose rows pool a tier's AIs "
        "compares the two strongest tiers.",
        note=True,
    )
    if question:
        doc.p(f"The question: {question}", note=True)


def _summary_header(n_total: int, n_ok: int, ais: pd.DataFrame) -> list[str]:
    """The summary's first line: how many matches, and which AIs (tier) played them."""
    played = ", ".join(f"{a} ({t})" for a, t in zip(ais["ai"], ais["tier"], strict=True)) if len(ais) else ""
    return [f"Based on {n_ok} error-free matches out of {n_total}" + (f"; AIs: {played}." if played else ".")]


def _warnings(findings: list[str]) -> list[str]:
    """The findings a summary must not leave out: unvalidated AIs, errors, random play only."""
    keys = ("**Warning", "ended in an error", "Only random play", "No error-free match")
    return [line for line in findings if any(line.startswith(k) or k in line[:60] for k in keys)]


def _folder_check(doc: Doc, rs: ResultSet) -> None:
    """Say first when the results folder held files that were not read, or lost part of a table."""
    notes = rs.folder_notes()
    if not notes:
        return
    doc.h("Results folder check")
    lost = rs.lost_matches()
    doc.p(
        "Incomplete: this report leaves out the files below"
        + (f", and with them {lost} match(es) the run wrote" if lost else "")
        + ". `krosbalance run FILE --out RESULTS --resume` moves them aside and plays the missing matches again."
    )
    doc.ul(notes)


def _common_body(rs: ResultSet, doc: Doc, tables: dict[str, pd.DataFrame]) -> ReportBody:
    """The common part of every report: the default study's (``report_body``), asked of the registry."""
    return cast(ReportBody, cast(Any, default_study()).report_body(rs, doc, tables))


def _answer_first(
    doc: Doc,
    rs: ResultSet,
    body: ReportBody,
    answer: Verdict,
    tables: dict[str, Any],
    headline: list[str] | None = None,
) -> None:
    """The verdict, the summary (the study's headline answer first, then at most five lines), the
    folder check, the question and the findings."""
    summary = rs.summary()
    n_total = summary.n_matches
    n_ok = int(round(weights(stats.ok_matches(summary.matches)).sum()))
    question = spec_question(rs.spec_text) or str((rs.manifest or {}).get("question") or "")
    _verdict_section(doc, answer, question, tables, headline)
    incomplete = (
        ["**Incomplete results folder**: some files were not read (see the Results folder check below)."]
        if rs.folder_notes()
        else []
    )
    doc.h("Summary")
    lines = (
        verdict_mod.summary(
            answer, _summary_header(n_total, n_ok, body.ais), incomplete + _warnings(body.findings)
        )
        if n_ok
        else body.findings[:5]
    )
    said = {line.replace("**", "") for line in headline or []}
    target = (rs.manifest or {}).get("target")  # [target]: where each AI's rounds stopped (sim.target)
    doc.ul(
        [f"**Answer:** {line}" for line in headline or []]
        + [line for line in lines if line.replace("**", "") not in said]
        + [f"**Sample size from a target:** {line}" for line in target_lines(target)]
    )
    _folder_check(doc, rs)  # after the answer, before the detail: what the numbers leave out

    doc.h("Question")
    doc.p(question or "The experiment file states no question.")
    for header in report_headers():  # e.g. the patched cards every arm played
        header(doc, rs.manifest)

    doc.h("Findings")
    doc.ul(body.findings)
    doc.p(
        "95% intervals throughout: proportions are Wilson intervals on the effective sample size of the "
        "deal-clustered design (matches of one deal share their dice), model coefficients have "
        "deal-clustered (cluster-robust) intervals when deals hold several matches, means Student t, balance "
        "scores simulation intervals. Draws count as non-wins in win rates unless a table says 'decided matches'.",
        note=True,
    )
    _comparison(doc, answer, tables)


def _comparison(doc: Doc, answer: Verdict, tables: dict[str, Any]) -> None:
    """The cheaper AIs' figures, after the answer and the findings: the same figures under each AI
    below the strongest (strongest first), the rows pooled over several AIs and the raw win rates
    (pooled over every AI). A comparison, never the answer (issue 39)."""
    lines = comparison_lines(answer) if not answer.empty else []
    raw = win_rate_line(tables) if answer.study == "character strength" else ""
    lines += [f"Raw win rates, every AI pooled: {raw}"] if raw else []
    if not lines:
        return
    doc.h("Under the other AIs")
    doc.p(
        "The answer is measured by the strongest validated AI that played; the same figures under the "
        "AIs below it (strongest first) and pooled over several AIs, for comparison:",
        note=True,
    )
    doc.ul(lines)


@dataclass
class Built:
    """A report built in memory: its title, document, derived tables, and the study's headline
    answer (the lines the Summary opens with and the terminal prints)."""

    title: str
    doc: Doc
    tables: dict[str, pd.DataFrame]
    study: str
    answer: list[str] = field(default_factory=list)


def headline_of(study: Any, rs: ResultSet, tables: dict[str, pd.DataFrame]) -> list[str]:
    """The study's headline answer (:meth:`krosbalance.study_registry.Study.answer`); a study that
    cannot answer from these results gives none (the report's own sections say why)."""
    try:
        return [str(line) for line in study.answer(rs, tables) if line]
    except Exception:  # the report still opens with its picture and summary
        return []


def build_document(rs: ResultSet) -> tuple[str, Doc, dict[str, pd.DataFrame]]:
    """Title, document and the derived tables (for CSV export) of one result set."""
    built = build_report(rs)
    return built.title, built.doc, built.tables


def build_report(rs: ResultSet) -> Built:
    """The report of one result set, and its study's headline answer (:class:`Built`)."""
    summary = rs.summary()
    name = str((rs.manifest or {}).get("experiment") or summary.experiment or "experiment")
    title = f"krosbalance report: {name}"
    tables: dict[str, pd.DataFrame] = {}
    doc = Doc()
    body = _common_body(rs, doc, tables)
    own_sections = ruleset_sections(rs, folder_study(rs))
    answer = report_verdict(rs, tables, own_sections, body.verdict_matches)
    lines = body.answer_lines(answer)
    if lines is not None:
        answer.lines = lines
    study = folder_study(rs) or default_study()
    headline = headline_of(study, rs, tables) if summary.n_matches else []
    _answer_first(doc, rs, body, answer, tables, headline)
    for own in own_sections:
        if own.leading:
            own.hook(doc, rs, tables, _section)
    for heading, build in body.sections:
        _section(doc, heading, build)
    for own in own_sections:
        if not own.leading:
            own.hook(doc, rs, tables, _section)

    doc.h("Experiment spec")
    if rs.spec_text:
        doc.code(rs.spec_text, "toml")
    else:
        doc.p("No experiment.toml was found beside the results.")
    doc.h("Versions")
    versions = _versions(rs, summary)
    if versions.empty:
        doc.p("No version information.")
    else:
        doc.table(versions)
    return Built(title, doc, tables, study.name, headline)


def load_results(results_dir: Path) -> ResultSet:
    """A result directory written by the runner, or a staged study's folder (every stage read:
    :func:`krosbalance.analysis.staged.load_staged`)."""
    if is_staged(results_dir):  # a staged study: every stage's results, as one result set
        return load_staged(results_dir)
    return ResultSet.load(Path(results_dir))


def report_answer(results_dir: Path) -> tuple[str, list[str]]:
    """The study of a results folder and its headline answer (:mod:`krosbalance.analysis.answers`),
    from the same tables the report derives."""
    built = build_report(load_results(results_dir))
    return built.study, built.answer


def write_report(results_dir: Path, report_dir: Path, *, chunk_matches: int | None = None) -> Path:
    """Write ``report.html`` (self-contained) and ``report.md`` (+ PNGs and CSVs) into ``report_dir``
    and return the path of ``report.html`` (:func:`write_report_answer` also gives the answer)."""
    return write_report_answer(results_dir, report_dir, chunk_matches=chunk_matches).path


@dataclass(frozen=True)
class WrittenReport:
    """Where a report went, its study and the headline answer its Summary opens with."""

    path: Path
    study: str
    answer: list[str]


def write_report_answer(
    results_dir: Path, report_dir: Path, *, chunk_matches: int | None = None
) -> WrittenReport:
    """Write ``report.html`` (self-contained) and ``report.md`` (+ PNGs and CSVs) into ``report_dir``.

    Args:
        results_dir: a result directory written by the runner (see :class:`ResultSet`), or a staged
            study's folder (every stage read: :func:`krosbalance.analysis.staged.load_staged`).
        report_dir: where to write; created if missing.
        chunk_matches: matches read at a time (default :data:`scan.CHUNK_MATCHES`); bounds memory.

    Returns:
        The path of ``report.html``, the study and its headline answer.
    """
    rs = load_results(results_dir)
    if chunk_matches is not None:
        rs.summary(chunk_matches)
    report_dir = Path(report_dir)
    report_dir.mkdir(parents=True, exist_ok=True)
    built = build_report(rs)
    (report_dir / "report.md").write_text(
        render_markdown(built.title, built.doc, report_dir), encoding="utf-8"
    )
    out = report_dir / "report.html"
    out.write_text(render_html(built.title, built.doc), encoding="utf-8")
    tables_dir = report_dir / "tables"
    tables_dir.mkdir(exist_ok=True)
    for name, df in built.tables.items():
        df.to_csv(tables_dir / f"{name}.csv", index=False)
    return WrittenReport(out, built.study, built.answer)


__all__ = [
    "Built",
    "WrittenReport",
    "build_report",
    "write_report",
    "write_report_answer",
    "load_results",
    "report_answer",
    "build_document",
    "spec_question",
    "render_html",
    "render_markdown",
    "ai_table",
]
