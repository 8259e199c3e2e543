"""Kiter: hit from cells the enemy cannot reach or see next turn.

Decides with the shared planner (:mod:`krosbalance.ai.planner`). Its weights put safety first:

- every end cell is charged 1.0 per injury the enemy could deal there next turn (each enemy walks its
  MP and casts its best attack as often as its AP allows, :func:`enemy_threat.threat_map`), plus the KO risk
  times the KO's GG swing, so it prefers "move in, shoot, walk back out of reach" plans and stands
  at its longest range (Bill Tell's Distant Shot and crates included);
- an attack is worth its expected injuries plus its KO chance times the GG swing; pushes (Puff) get a
  small bonus for the room they make;
- its ranged figures approach only as far as striking distance for next turn, never further; its
  melee figures (Anna Tommy, the King, Oscar Kass) still close in and fight: their danger weighs
  0.35 instead of 1.0, and pins and next-turn strikes count (:mod:`krosbalance.ai.positions`);
- tension: doubles only when ahead in GG with the wild GG gone; dice go to Armour/Dodge on the
  most threatened or locked Krosmasters, otherwise refunded.
"""

from __future__ import annotations

from krosbalance.ai.planner import HeuristicAI, Weights


class KiterAI(HeuristicAI):
    name = "kiter"
    weights = Weights(
        damage=1.0,
        kill=1.0,
        focus=0.3,
        safety=1.0,
        kama=0.25,
        approach=0.1,
        kite=True,
        support=0.5,
        refund=0.2,
        inspire=1.0,
    )
