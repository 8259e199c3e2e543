"""The additional effects only Krosmaster Blast spells have (``BLAST_EFFECT_KEYWORDS``): they read
Blast's holdings, so they live with the ruleset and register into the engine's effect registry when
the Blast ruleset is imported (a test checks the engine then implements exactly the shared and the
Blast vocabularies)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from krosbalance.engine.effects import TARGET, CastContext, effect
from krosbalance.engine.rules import MINUS_AP, MINUS_MP
from krosbalance.rulesets.blast.state import BlastState

if TYPE_CHECKING:
    from krosbalance.engine.state import Fighter


@effect("minus_marker_if_glyphs", TARGET, "R-B29 (Peine capitole)")
def _minus_marker_if_glyphs(
    ctx: CastContext, target: Fighter | None, glyphs: int, marker: str, amount: int
) -> None:
    """R-B29, Peine capitole: "4 Glyphes: met un marqueur -1 a la cible" - while the caster's player
    controls at least ``glyphs`` glyph cells, the target receives ``amount`` minus markers."""
    state = ctx.state
    rules = state.rules
    if target is None or not target.is_character or not isinstance(rules, BlastState):
        return
    if rules.glyphs(ctx.caster.side) >= glyphs:
        state.ruleset.add_marker(state, target, MINUS_MP if marker == "mp" else MINUS_AP, amount)
