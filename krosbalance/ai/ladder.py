"""The AI ladders' standings, as shipped data that reports read: one ladder per ruleset.

Each ladder experiment (``simulations/ai-ladder-connected.toml`` for Arena,
``simulations/ai-ladder-duel.toml`` for the Duel Pack) plays the AIs of one ruleset against each
other; its analysis writes that ruleset's standing into ``krosbalance/ai/data/ladder.toml`` and
leaves the other rulesets' as they were (``random`` plays every ruleset, and its Duel standing is not
its Arena one). Per ruleset: ``[<ruleset>]`` names the experiment and its match count, and
``[<ruleset>.ais.<ai>]`` holds one AI's tier, rating with its 95% CI, matches played, and whether
it passed the validity gate. Reports read it to say which AIs an experiment used, where they stand,
and to warn when a verdict rests on an AI that is not validated. An AI missing from its ruleset's
ladder is simply not validated yet there.

A file of the first format (one ``[ais.<ai>]`` table per AI, no ruleset) is read as Arena's ladder.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from krosbalance.ai.registry import canonical_ai
from krosbalance.content.specs import Frozen
from krosbalance.errors import ContentError

LADDER_FILE = Path(__file__).parent / "data" / "ladder.toml"
#: the ruleset of a ladder read without naming one (and of a file of the first format)
DEFAULT_RULESET = "arena"


@dataclass(frozen=True, slots=True)
class LadderStanding(Frozen):
    """One AI's place on a ruleset's ladder: Bradley-Terry rating (log-odds, the field's mean at 0)
    with its 95% CI, the matches behind it, whether it passed the validity gate, and the ruleset."""

    ai: str
    tier: str
    rating: float
    ci_low: float
    ci_high: float
    n: int
    validated: bool
    ruleset: str = DEFAULT_RULESET


@dataclass(frozen=True, slots=True)
class LadderSource(Frozen):
    """Where a ruleset's ladder comes from: the experiment and its decided cross-AI matches."""

    experiment: str
    matches: int


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(str(path), "toml", str(exc)) from None


def _sections(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Ruleset -> its table (``ais`` and the source fields); the first format as Arena's."""
    if "ais" in data:
        return {DEFAULT_RULESET: {"ais": data["ais"]}}
    return {name: table for name, table in data.items() if isinstance(table, dict)}


def load_ladders(path: Path | None = None) -> dict[str, dict[str, LadderStanding]]:
    """Every ruleset's ladder in the file: ruleset -> AI -> standing (empty when there is no file)."""
    path = path or LADDER_FILE
    if not path.exists():
        return {}
    out: dict[str, dict[str, LadderStanding]] = {}
    for ruleset, table in _sections(_read(path)).items():
        standings: dict[str, LadderStanding] = {}
        for written, entry in table.get("ais", {}).items():
            name = canonical_ai(written)  # a standing written under an AI's former id (focus_fire)
            where = f"{ruleset}.ais.{written}"
            try:
                low, high = entry["ci"]
                standings[name] = LadderStanding(
                    ai=name,
                    tier=str(entry["tier"]),
                    rating=float(entry["rating"]),
                    ci_low=float(low),
                    ci_high=float(high),
                    n=int(entry["n"]),
                    validated=bool(entry["validated"]),
                    ruleset=ruleset,
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise ContentError(str(path), where, f"malformed ladder entry: {exc}") from None
        out[ruleset] = standings
    return out


def load_ladder(path: Path | None = None, ruleset: str = DEFAULT_RULESET) -> dict[str, LadderStanding]:
    """Every AI's standing on ``ruleset``'s ladder (empty when the file or that ladder is absent)."""
    return load_ladders(path).get(ruleset, {})


def ladder_sources(path: Path | None = None) -> dict[str, LadderSource]:
    """Ruleset -> the experiment its ladder was written from (empty strings and 0 when unsaid)."""
    path = path or LADDER_FILE
    if not path.exists():
        return {}
    return {
        ruleset: LadderSource(str(table.get("experiment", "")), int(table.get("matches", 0)))
        for ruleset, table in _sections(_read(path)).items()
    }
