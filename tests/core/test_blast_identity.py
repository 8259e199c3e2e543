"""Krosmaster Blast and the native core (issue 41): what is proven today.

The core does not play Blast yet: its ruleset (glyphs, Krosmic Favors, Divine Challenges and their
tiers, terrain, tackle) and its AIs (``blast-glyph``, ``blast-brawler``) are not ported. Blast's two
effect keywords of the shared engine are (``move_to_target``, ``different_target_next``:
tests/core/test_blast_effects_identity.py, on Arena matches). Until the ruleset lands:

- ``engine="core"`` refuses a Blast match in one line, and ``auto`` hands it to the reference: the
  goldens (``tests/fixtures/golden/blast-golden.jsonl``) replayed through ``auto``, and the same
  matches recorded as summaries (which ``auto`` would give the core) with the reference's outcome,
  so that a routing change that sent Blast to a core that cannot play it fails here;
- when the core plays Blast, this file replays the goldens in the core (``engine="core"``), plays
  differential matches on both engines and catches a planted divergence, as
  tests/core/test_duel_identity.py does for the Duel Pack.
"""

from __future__ import annotations

import pytest

from krosbalance import native
from krosbalance.errors import EngineError
from krosbalance.play import play_match
from tests.fixtures.golden.blast_golden import digest, load, play

pytest.importorskip("krosbalance_core", reason="the native core (krosbalance_core) is not installed")
if not native.available():
    pytest.skip(str(native.why_unavailable()), allow_module_level=True)

ROWS = load()
SLICE = ROWS[::9]


def _id(row):
    return f"{row['ai'][0]}-{row['ai'][1]}-{row['seed']}"


def test_the_core_refuses_blast_and_auto_plays_it_on_the_reference() -> None:
    row = ROWS[0]
    kwargs = dict(board=row["board"], ai=tuple(row["ai"]), seed=row["seed"], ruleset="blast")
    with pytest.raises(EngineError, match="the core cannot play this match: .*'blast' is not in the core"):
        play_match(*row["teams"], engine="core", **kwargs)
    assert play_match(*row["teams"], **kwargs).engine == "reference"


def _outcome(row, engine: str):
    result = play_match(
        *row["teams"],
        board=row["board"],
        ai=tuple(row["ai"]),
        seed=row["seed"],
        options=row["options"],
        ruleset="blast",
        engine=engine,
    )
    return result.engine, (result.winner, result.end_reason, result.turns, dict(result.values))


@pytest.mark.parametrize("row", SLICE, ids=_id)
def test_blast_goldens_under_auto_are_the_reference_s(row) -> None:
    data = play(row, engine="auto")
    assert len(data) == row["bytes"] and digest(data) == row["sha256"], row
    auto, reference = _outcome(row, "auto"), _outcome(row, "reference")
    assert auto == reference and auto[0] == "reference", row
