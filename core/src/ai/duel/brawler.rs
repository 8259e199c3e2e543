//! duel_brawler (krosbalance/ai/duel/players.py and planner.py).

use crate::rng::Generator;

pub struct DuelBrawler {
    pub rng: Generator,
}

impl DuelBrawler {
    pub fn new(rng: Generator) -> Self {
        DuelBrawler { rng }
    }
}
