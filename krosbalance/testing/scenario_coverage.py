"""Which kit-based rule tests run on both engines, and why the others do not (issues 37 and 41).

Every test of the suite runs inside :class:`krosbalance.testing.scenario_core.observed`
(``tests/conftest.py``): its scenarios (Arena's ``Scenario``, the Duel Pack's ``DuelScenario``,
Blast's ``BlastScenario``) report how many steps the core played in lockstep and why any scenario
stopped. A test is

- ``both``: at least one step or legality question (``Scenario.can``) compared on both engines and
  no scenario stopped;
- ``reference``: a scenario stopped (the reasons say why) or nothing went through the kit (a test
  that only builds a position for an AI or reads the set-up).

The committed list (``tests/core/scenario_coverage.json``, written with ``SCENARIO_COVERAGE.md`` by
``python -m krosbalance.tools.scenario_coverage``) cannot shrink silently: a test listed as ``both``
that no longer runs on the core fails (:func:`after_test`).
"""

from __future__ import annotations

import functools
import json
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from krosbalance import native
from krosbalance.testing.scenario_core import ENV, Observed

__all__ = ["LEDGER_ENV", "NO_STEP", "after_test", "classify", "write_report"]

#: where each test's outcome is appended, one JSON line per test (set by the coverage tool)
LEDGER_ENV = "KROSBALANCE_SCENARIO_LEDGER"
#: the reason of a kit-based test whose scenarios never took an engine step through the kit
NO_STEP = "no engine step or legality question through the kit (the test builds a position and asks an AI or reads it)"


def classify(seen: Observed) -> tuple[str, str] | None:
    """``("both", "")``, ``("reference", why)``, or None for a test without a scenario."""
    if seen.scenarios == 0:
        return None
    if seen.stopped:
        reasons = sorted(set(seen.stopped))
        return "reference", "; ".join(reasons)
    if seen.steps == 0 and seen.checks == 0:
        return "reference", NO_STEP
    return "both", ""


@functools.cache
def _committed(path: str) -> frozenset[str]:
    file = Path(path)
    if not file.is_file():
        return frozenset()
    return frozenset(json.loads(file.read_text())["both"])


def after_test(nodeid: str, seen: Observed, committed: Path) -> str | None:
    """Record a test's outcome (when the coverage tool asks) and return a failure message when a
    test the committed list says runs on both engines no longer does."""
    outcome = classify(seen)
    ledger = os.environ.get(LEDGER_ENV)
    if ledger and outcome is not None:
        line = json.dumps(
            {
                "test": nodeid,
                "status": outcome[0],
                "why": outcome[1],
                "steps": seen.steps,
                "checks": seen.checks,
                "rulesets": sorted(seen.rulesets),
            }
        )
        with open(ledger, "a", encoding="utf-8") as out:
            out.write(line + "\n")
    if nodeid not in _committed(str(committed)) or os.environ.get(ENV, "1").strip() == "0":
        return None

    if not native.available():
        return None
    if outcome is None or outcome[0] != "both":
        why = "it made no scenario" if outcome is None else outcome[1]
        return (
            f"{nodeid} ran on both engines ({committed.name}) and no longer does: {why}. "
            "Fix the cause, or regenerate the list with python -m krosbalance.tools.scenario_coverage "
            "and say why in the commit."
        )
    return None


def _group(reason: str) -> str:
    """The family of a reason, for the report's summary (the text before any detail)."""
    for family in (
        "not in the core yet",
        "a step raised in the reference",
        "the position holds",
        "monkeypatches",
        "no engine step",
        "holds",
        "banned targets",
        "two different specs",
        "a deployment",
        "stopped by the test",
        "not in the core",
    ):
        if family in reason:
            return family
    return reason


def write_report(rows: Iterable[Mapping[str, Any]], markdown: Path, listing: Path) -> dict[str, int]:
    """Write the committed list (JSON) and its report (Markdown) from the ledger's rows; the counts."""
    outcome: dict[str, Mapping[str, Any]] = {}
    for row in rows:
        outcome[row["test"]] = row  # a test run twice keeps its last outcome
    both = sorted(t for t, r in outcome.items() if r["status"] == "both")
    others = {t: r["why"] for t, r in sorted(outcome.items()) if r["status"] != "both"}
    steps = sum(int(r["steps"]) for r in outcome.values())
    checks = sum(int(r.get("checks", 0)) for r in outcome.values())
    by_ruleset = _by_ruleset(outcome)
    listing.write_text(json.dumps({"both": both, "reference": others}, indent=1) + "\n")
    families: defaultdict[str, list[str]] = defaultdict(list)
    for test, why in others.items():
        families[_group(why)].append(test)
    counts = Counter({family: len(tests) for family, tests in families.items()})
    lines = [
        "# Kit-based rule tests on both engines",
        "",
        "Generated by `python -m krosbalance.tools.scenario_coverage` (do not edit): every test of",
        "tests/engine, tests/rulesets, tests/ai and tests/testing that makes a `Scenario` (Arena's, a",
        "`DuelScenario`, a `BlastScenario`) while the core is installed. `both`: every engine step of",
        "its scenarios was played by the reference and the core in lockstep and compared (events,",
        "position, dice), and every legality question (`Scenario.can`, `Scenario.do`) asked of both.",
        "The others run on the reference only; each is listed with why.",
        "",
        f"- kit-based tests: {len(outcome)}",
        f"- on both engines: {len(both)} ({steps} steps and {checks} legality questions compared in all)",
        f"- on the reference only: {len(others)}",
        "",
        "| ruleset | kit-based tests | on both engines | steps compared | legality questions |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {name} | {c['tests']} | {c['both']} | {c['steps']} | {c['checks']} |"
        for name, c in by_ruleset.items()
    ]
    lines += [
        "",
        "## Why, by reason",
        "",
    ]
    lines += [f"- {family}: {n}" for family, n in counts.most_common()]
    lines += ["", "## The tests that do not run on the core", ""]
    for family, tests in sorted(families.items(), key=lambda kv: -len(kv[1])):
        lines += [f"### {family}", ""]
        lines += [f"- `{test}`: {others[test]}" for test in tests]
        lines.append("")
    markdown.write_text("\n".join(lines))
    return {
        "tests": len(outcome),
        "both": len(both),
        "reference": len(others),
        "steps": steps,
        "checks": checks,
    }


def _by_ruleset(outcome: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Per ruleset (a test of several counts under their names joined by ``+``): its tests, those on
    both engines, steps and legality questions compared."""
    counts: dict[str, dict[str, int]] = {}
    for row in outcome.values():
        name = "+".join(row.get("rulesets") or ["arena"])
        c = counts.setdefault(name, {"tests": 0, "both": 0, "steps": 0, "checks": 0})
        c["tests"] += 1
        c["both"] += row["status"] == "both"
        c["steps"] += int(row["steps"])
        c["checks"] += int(row.get("checks", 0))
    return dict(sorted(counts.items()))
