"""AIs for the Duel Pack (``krosbalance.rulesets.duel``): a small planner of their own
(``planner``), since the Arena planner reads GG and kamas, the personalities (``players``), and the
search ``duel-lookahead`` (``lookahead``: the planner's ``plans`` judged by rollouts, scored by
``evaluation``)."""
