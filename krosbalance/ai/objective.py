"""Objective: kamas, Demon cells and bought GG, while keeping its own GG safe.

Decides with the shared planner (:mod:`krosbalance.ai.planner`), with weights for the economy:

- Krosmasters are pulled toward the nearest kama token (0.3 per cell of distance), and toward a
  Demon cell once the team holds nearly the GG price, its buyer twice as strongly as other AIs'
  (``economy`` 1.2); they pick up every kama they stand on with AP
  to spare (R-A49) and buy GG on a Demon cell whenever they can (R-A50; every heuristic AI buys, but
  this one walks there on purpose);
- tension dice are refunded for kamas (3 for two dice, R-A28) unless an inspiration is clearly worth
  more; doubles only when ahead in GG with the wild GG gone;
- it protects its own GG: ending a turn where the enemy could KO a Krosmaster costs the KO's GG swing
  (safety 0.6), so wounded Krosmasters fall back;
- it still attacks when a cast is on the way (expected injuries plus KO chance times GG swing).
"""

from __future__ import annotations

from krosbalance.ai.planner import HeuristicAI, Weights


class ObjectiveAI(HeuristicAI):
    name = "objective"
    weights = Weights(
        damage=1.0,
        kill=1.0,
        focus=0.3,
        safety=0.6,
        kama=0.6,
        objective=0.3,
        approach=0.05,
        support=0.5,
        refund=0.45,
        inspire=0.8,
        economy=1.2,
    )
