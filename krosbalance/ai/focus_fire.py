"""Focus fire: pick the KO that brings the most GG and pile every hit on it.

Decides with the shared planner (:mod:`krosbalance.ai.planner`): every reachable casting cell, casts
greedy by value per AP, then the safest useful end cell. Its weights make it an aggressive closer:

- an attack is worth its expected injuries, *plus 80% more on a target that has already lost most of
  its HP* (focus), plus its KO chance times the KO's GG swing, weighted 1.5 (a box Krosmaster is worth
  3 GG to the killer and 3 to its owner; a KO that leaves the opponent without GG once the wild GG is
  gone wins the match outright and dominates everything);
- summons are placed for their spell bonuses (a Tofu next to the target before To Fu Ti, the Gobball
  next to the King's target), and creatures end their turn next to an enemy Krosmaster their summoner
  can hit;
- safety matters little (0.2 per expected injury taken next turn) and it closes in on the enemy;
- tension: doubles only when ahead in GG with the wild GG gone; the dice inspire Critical on the main
  damage dealers (worth most here), Armour on the most threatened, and are refunded otherwise.
"""

from __future__ import annotations

from krosbalance.ai.planner import HeuristicAI, Weights


class FocusFireAI(HeuristicAI):
    name = "focus_fire"
    weights = Weights(
        damage=1.0,
        kill=1.5,
        focus=0.8,
        safety=0.2,
        kama=0.2,
        approach=0.25,
        support=0.8,
        refund=0.15,
        inspire=1.2,
        economy=0.6,
    )
