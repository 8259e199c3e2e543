"""The report's Fix finder section (krosbalance.studies.patches.fix_section) on a real, tiny staged study."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from krosbalance.analysis.document import Doc
from krosbalance.analysis.staged import load_staged
from krosbalance.sim.experiment import loads_experiment
from krosbalance.studies.patches.fix_section import fix_meta, report_section
from krosbalance.studies.patches.fixer import run_fix

SPLITS = 'name = "s"\nmaster_seed = 1\nmatches_per_pairing = 1\nais = ["random"]\n[teams]\nmode = "splits"\npool = [{ set = "arena-box" }]\n'


def test_the_section_shows_each_round_per_tier_with_predicted_and_measured(tmp_path: Path) -> None:
    a, b = loads_experiment(SPLITS).pairings[0]
    fix = tmp_path / "tiny.toml"
    fix.write_text(
        textwrap.dedent(
            f"""
            name = "tiny-fix"
            master_seed = 3
            matches_per_pairing = 2
            ais = ["random"]
            [teams]
            mode = "pairs"
            pairs = [[{json.dumps(list(a))}, {json.dumps(list(b))}]]
            [fix]
            band = 0.01
            fields = ["hp"]
            figures = [{json.dumps(a[0])}]
            rounds = 2
            verify_deals = 2
            """
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    run_fix(fix, out, progress=False)
    rs = load_staged(out)
    meta = fix_meta(rs)
    assert meta is not None and [r["round"] for r in meta["rounds"]] == [1, 2]
    doc, tables = Doc(), {}
    report_section(doc, rs, tables)
    text = " ".join(str(b) for b in doc.blocks)
    assert "Round 1" in text and "Round 2" in text and "Proposed patch" in text
    t = tables["fix_rounds"]
    assert set(t["round"]) == {1, 2}
    assert {"pooled", "baseline"} <= set(t["group"])  # per tier and pooled
    measured = t.dropna(subset=["proposed"])
    assert not measured.empty and (measured["proposed_ci_low"] <= measured["proposed"]).all()
    assert (measured["proposed"] <= measured["proposed_ci_high"]).all()
    assert t["within_band"].isin([True, False]).all()
