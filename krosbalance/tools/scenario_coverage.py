"""``python -m krosbalance.tools.scenario_coverage``: run the kit-based rule tests (tests/engine,
tests/rulesets, tests/ai, tests/testing) with the scenario lockstep on and write which run on both
engines (``tests/core/scenario_coverage.json``, the committed list a test may not silently leave)
and the report of those that do not, with why (``tests/core/SCENARIO_COVERAGE.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from krosbalance.testing.scenario_coverage import LEDGER_ENV, write_report

#: the folders whose tests play through the kit
FOLDERS = ("tests/engine", "tests/rulesets", "tests/ai", "tests/testing")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the checkout (default: here)")
    parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers")
    args = parser.parse_args(argv)
    root: Path = args.root
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Path(tmp) / "ledger.jsonl"
        ledger.touch()
        env = {**os.environ, LEDGER_ENV: str(ledger), "KROSBALANCE_SCENARIO_CORE": "1"}
        command = [
            sys.executable,
            "-m",
            "pytest",
            *FOLDERS,
            "-q",
            "-n",
            str(args.jobs),
            "-p",
            "no:cacheprovider",
        ]
        status = subprocess.call(command, cwd=root, env=env)
        rows = [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]
    counts = write_report(
        rows, root / "tests/core/SCENARIO_COVERAGE.md", root / "tests/core/scenario_coverage.json"
    )
    print(
        f"{counts['tests']} kit-based tests: {counts['both']} on both engines "
        f"({counts['steps']} steps, {counts['checks']} legality questions compared), "
        f"{counts['reference']} on the reference only"
    )
    return status


if __name__ == "__main__":
    raise SystemExit(main())
