"""AIs for the Duel Pack (``krosbalance.rulesets.duel``): a small planner of their own
(``planner``), since the Arena planner reads GG and kamas, and the personalities (``players``)."""
