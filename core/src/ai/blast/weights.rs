//! What a Blast personality cares about, as numbers (krosbalance/ai/blast/weights.py).

/// Weights of the Blast planner (`BlastWeights`; each field's meaning there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlastWeights {
    pub capture: f64,
    pub flip: f64,
    pub damage: f64,
    pub minion: f64,
    pub ko: f64,
    pub heal: f64,
    pub summon: f64,
    pub hold: f64,
    pub guard: f64,
    pub safety: f64,
    pub danger: f64,
    pub approach: f64,
    pub near_glyph: f64,
    pub urgency: f64,
}

/// `blast_glyph`'s weights (the defaults).
pub const GLYPH: BlastWeights = BlastWeights {
    capture: 10.0,
    flip: 14.0,
    damage: 2.0,
    minion: 0.4,
    ko: 60.0,
    heal: 1.5,
    summon: 3.0,
    hold: 3.0,
    guard: 2.0,
    safety: 1.0,
    danger: 40.0,
    approach: 0.0,
    near_glyph: 1.0,
    urgency: 1.0,
};

/// `blast_brawler`'s weights.
pub const BRAWLER: BlastWeights = BlastWeights {
    capture: 4.0,
    flip: 5.0,
    damage: 5.0,
    minion: 0.4,
    ko: 80.0,
    heal: 1.0,
    summon: 3.0,
    hold: 0.5,
    guard: 0.5,
    safety: 0.3,
    danger: 10.0,
    approach: 1.2,
    near_glyph: 0.3,
    urgency: 2.0,
};
