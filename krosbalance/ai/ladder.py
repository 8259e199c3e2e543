"""The AI ladder's standing, as shipped data that reports read.

``simulations/ai-ladder.toml`` plays every registered AI against every other; its analysis writes
``krosbalance/ai/data/ladder.toml`` (one table per AI: tier, rating with its 95% CI, matches played,
and whether the AI passed the validity gate). Reports read it to say which AIs an experiment used,
where they stand, and to warn when a verdict rests on an AI that is not validated. An AI missing
from the file is simply not validated yet.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from krosbalance.ai.registry import canonical_ai
from krosbalance.content.specs import Frozen
from krosbalance.errors import ContentError

LADDER_FILE = Path(__file__).parent / "data" / "ladder.toml"


@dataclass(frozen=True, slots=True)
class LadderStanding(Frozen):
    """One AI's place on the ladder: Bradley-Terry rating (log-odds, the field's mean at 0) with its
    95% CI, the matches behind it, and whether it passed the validity gate."""

    ai: str
    tier: str
    rating: float
    ci_low: float
    ci_high: float
    n: int
    validated: bool


def load_ladder(path: Path | None = None) -> dict[str, LadderStanding]:
    """Every AI's standing in the ladder file (empty when there is no file yet)."""
    path = path or LADDER_FILE
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(str(path), "toml", str(exc)) from None
    standings: dict[str, LadderStanding] = {}

    for written, entry in data.get("ais", {}).items():
        name = canonical_ai(written)  # a standing written under an AI's former id (focus_fire)
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
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ContentError(str(path), f"ais.{written}", f"malformed ladder entry: {exc}") from None
    return standings
